"""Reading and writing tables: CSV, TSV, Parquet and JSON Lines.

The format follows the file name: ``.csv`` / ``.csv.gz`` / ``.tsv``, ``.parquet`` /
``.pq``, ``.jsonl`` / ``.ndjson`` (optionally ``.gz``). :func:`count_judgments`
turns judgments files of any size into counts with DuckDB, out of core
(:mod:`jurycal.counting`), without ever holding the table.

A file that cannot be read (not gzip, empty, not UTF-8, a broken JSON line, a
damaged Parquet file) is a ``ValueError`` naming the file and, where the format
has lines, the line. :func:`write_table` and :func:`write_text` write through a
temporary file in the target's directory and ``os.replace``, so a failed write
leaves the target as it was.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import pandas as pd

from jurycal.counting.limits import DEFAULT_MEMORY_LIMIT
from jurycal.errors import FileError
from jurycal.formats import (
    FORMATS,
    GZIP_ERRORS,
    csv_fault,
    first_line,
    incomplete_gzip,
    table_format,
)
from regression.data import Counts

__all__ = [
    "FORMATS",
    "check_readable",
    "count_judgments",
    "first_line",
    "read_table",
    "table_columns",
    "table_format",
    "write_atomic",
    "write_table",
    "write_text",
]


def _existing(path: str | Path) -> Path:
    p = Path(path)
    if not p.is_file():
        raise FileError(f"no such file: {str(path)!r}.", file=path)
    return p


def _open(p: Path) -> BinaryIO:
    """The file's bytes, decompressed when its name ends in ``.gz``."""
    if p.name.lower().endswith(".gz"):
        return gzip.open(p, "rb")  # type: ignore[return-value]
    return p.open("rb")


def _bad_line(p: Path, check: Callable[[bytes], Any]) -> tuple[int, Exception] | None:
    """The first line (1-based) of ``p`` that ``check`` rejects, and why; None when all pass."""
    with _open(p) as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                check(raw)
            except Exception as err:  # noqa: BLE001 - the caller turns it into a message
                return number, err
    return None


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8")


def _json_record(raw: bytes) -> None:
    text = raw.decode("utf-8").strip()
    if text and not isinstance(json.loads(text), dict):
        raise ValueError("not a JSON object")


def _unreadable(p: Path, fmt: str, err: Exception) -> FileError:
    """A one-line reason why ``p`` could not be read, with the line where it applies."""
    name = str(p)
    if isinstance(err, GZIP_ERRORS) or (isinstance(err, OSError) and "gzip" in str(err).lower()):
        return FileError(incomplete_gzip(p, err), file=p)
    if isinstance(err, pd.errors.EmptyDataError) or (p.stat().st_size == 0):
        return FileError(f"{name!r} is empty; expected a {fmt} table.", file=p)
    if fmt != "parquet":
        try:
            found = _bad_line(p, _json_record if fmt == "jsonl" else _decode)
            if found is None and fmt in ("csv", "tsv"):
                fault = csv_fault(p)
                if fault is not None:
                    line, why = fault
                    return FileError(f"{name!r} line {line}: {why}.", file=p, line=line)
        except (OSError, *GZIP_ERRORS) as inner:
            return FileError(incomplete_gzip(p, inner), file=p)
        if found is not None:
            line, cause = found
            if isinstance(cause, UnicodeDecodeError):
                message = f"{name!r} line {line}: not UTF-8 text ({cause.reason})."
            else:
                message = f"{name!r} line {line}: not a JSON object ({cause})."
            return FileError(message, file=p, line=line)
    if fmt == "parquet":
        return FileError(f"{name!r} is not a Parquet file (its footer cannot be read).", file=p)
    reason = " ".join(str(err).split())[:200].rstrip(".") or type(err).__name__
    return FileError(f"cannot read {name!r} as {fmt}: {reason}.", file=p)


def check_readable(path: str | Path) -> tuple[Path, str]:
    """Check, without reading it whole, that ``path`` exists, is not empty and opens as its format.

    Returns the path and its format (:func:`table_format`). Catches the cheap
    cases up front: a missing or empty file, a ``.gz`` that is not gzip, a
    Parquet file whose footer cannot be read.

    Raises
    ------
    ValueError
        Naming the file and what is wrong with it.
    """
    fmt = table_format(path)
    p = _existing(path)
    if p.stat().st_size == 0:
        raise FileError(f"{str(path)!r} is empty; expected a {fmt} table.", file=path)
    try:
        if p.name.lower().endswith(".gz"):
            with gzip.open(p, "rb") as handle:
                handle.read(1)
        elif fmt == "parquet":
            import pyarrow.parquet as pq

            pq.read_metadata(p)
    except Exception as err:  # gzip and pyarrow raise many kinds
        raise _unreadable(p, fmt, err) from err
    return p, fmt


def table_columns(path: str | Path) -> list[str]:
    """The column names of the table at ``path``, reading only its header (first line, or schema).

    Raises
    ------
    ValueError
        As :func:`read_table`, for a file that cannot be read.
    """
    p, fmt = check_readable(path)
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return [str(c) for c in pq.read_schema(p).names]
        if fmt == "jsonl":
            with _open(p) as handle:
                for raw in handle:
                    if raw.strip():
                        return [str(c) for c in json.loads(raw.decode("utf-8"))]
            return []
        return [str(c) for c in pd.read_csv(p, sep="\t" if fmt == "tsv" else ",", nrows=0).columns]
    except Exception as err:  # as in read_table
        raise _unreadable(p, fmt, err) from err


def read_table(path: str | Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Read a whole table (for files too large for memory, count them: :func:`count_judgments`).

    Parameters
    ----------
    path : str or Path
        A file whose name ends in one of :data:`FORMATS`.
    columns : sequence of str, optional
        Read only these columns.

    Returns
    -------
    DataFrame
        One row per record, in file order (row ``i`` is on line ``first_line(path) + i``).

    Raises
    ------
    ValueError
        No such file, an unknown ending, or a file that cannot be read as its
        format says (not gzip, empty, not UTF-8, a broken JSON line), naming the
        file and, where the format has lines, the line.
    """
    p, fmt = check_readable(path)
    cols = list(columns) if columns is not None else None
    try:
        if fmt == "parquet":
            return pd.read_parquet(p, columns=cols)
        if fmt == "jsonl":
            frame = pd.read_json(p, lines=True, dtype=False)
        else:
            return pd.read_csv(p, sep="\t" if fmt == "tsv" else ",", usecols=cols)
    except Exception as err:  # gzip, pandas' parsers and pyarrow raise many kinds
        raise _unreadable(p, fmt, err) from err
    if cols is not None:
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise ValueError(
                f"{str(path)!r} has no column(s) {missing}; got {list(map(str, frame.columns))}."
            )
        return frame[cols]
    return frame


def write_atomic(path: str | Path, write: Callable[[Path], Any]) -> Path:
    """Call ``write(temporary_path)``, then move the result onto ``path`` in one step.

    The temporary file lies in ``path``'s directory (so ``os.replace`` is atomic)
    and is removed when ``write`` fails: ``path`` then keeps what it held before.
    The new file gets the usual permissions (0666 less the umask).

    Raises
    ------
    ValueError
        ``path``'s directory does not exist or cannot be written, ``path`` is a
        directory, or ``write`` failed; the message names the path.
    """
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: it is a directory.")
    if not parent.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: no such directory {str(parent)!r}.")
    try:
        handle, temporary = tempfile.mkstemp(dir=parent, prefix=f".{p.name}.", suffix=".part")
    except OSError as err:
        raise ValueError(f"cannot write {str(path)!r}: {err.strerror or err}.") from err
    os.close(handle)
    tmp = Path(temporary)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, p)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise ValueError(f"cannot write {str(path)!r}: {err.strerror or err}.") from err
    except Exception as err:  # the writer's own complaint (pyarrow, pandas), with the path
        tmp.unlink(missing_ok=True)
        reason = " ".join(str(err).split())[:200].rstrip(".") or type(err).__name__
        raise ValueError(f"cannot write {str(path)!r}: {reason}.") from err
    except BaseException:  # an interrupt: leave no temporary file behind
        tmp.unlink(missing_ok=True)
        raise
    return p


def write_table(frame: pd.DataFrame, path: str | Path) -> None:
    """Write ``frame`` in the format its file name says; the index is not written.

    Written atomically (:func:`write_atomic`); a name ending in ``.gz`` is gzip-compressed.

    Raises
    ------
    ValueError
        An unknown ending, or a path that cannot be written (named).
    """
    fmt = table_format(path)
    compression = "gzip" if str(path).lower().endswith(".gz") else None

    def write(tmp: Path) -> None:
        if fmt == "parquet":
            frame.to_parquet(tmp, index=False)
        elif fmt == "jsonl":
            frame.to_json(tmp, orient="records", lines=True, compression=compression)
        else:
            sep = "\t" if fmt == "tsv" else ","
            frame.to_csv(tmp, sep=sep, index=False, compression=compression)

    write_atomic(path, write)


def write_text(text: str, path: str | Path) -> Path:
    """Write ``text`` as UTF-8 to ``path`` atomically (:func:`write_atomic`); returns the path."""
    return write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def count_judgments(
    path: str | Path | Sequence[str | Path],
    *,
    progress: bool = True,
    check_duplicates: bool = True,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    threads: int | None = None,
) -> Counts:
    """Turn judgments files of any size into the generator x validator counts, with DuckDB.

    Parameters
    ----------
    path : path, glob, or a list of them
        CSV / TSV, Parquet or JSON Lines files (text ones optionally ``.gz``)
        with columns ``generator, item, validator, label``.
    progress : bool, default True
        A progress bar on stderr.
    check_duplicates, memory_limit, threads
        As for :func:`jurycal.counting.count_files`: the duplicate check runs
        over all rows of all files; past ``memory_limit`` (1 GB unless told
        otherwise) DuckDB spills to disk.

    Returns
    -------
    Counts
        Generators and validators sorted; the numbers
        :func:`regression.counts_from_judgments` gives on the whole table.

    Raises
    ------
    ValueError
        As :func:`jurycal.counting.count_files`: a missing file, a label that is
        not binary, a missing generator or validator, a duplicate
        ``(generator, item, validator)`` with its files and lines, no rows.

    Notes
    -----
    The same count runs on a user's cluster with
    :func:`jurycal.counting.count_frame` on a Dask, Spark or other lazy frame.
    """
    from jurycal.counting import count_files  # DuckDB and narwhals load only to count

    return count_files(
        path,
        check_duplicates=check_duplicates,
        memory_limit=memory_limit,
        threads=threads,
        progress=progress,
    )
