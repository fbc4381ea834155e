"""Counting judgments files of any size with DuckDB, out of core.

CSV, TSV, Parquet and JSON Lines files (``.gz`` too; globs and lists of paths):
:func:`count_files` and :func:`confusion_files` read them with DuckDB SQL that
decodes the label column by the rules of :mod:`jurycal.counting.labels`, then
run the shared tallies and checks of :mod:`jurycal.counting.tally` on the
resulting relation. DuckDB spills its hash tables to a temporary directory when
they outgrow ``memory_limit`` (:data:`DEFAULT_MEMORY_LIMIT` unless told
otherwise), and errors name the file and line.
"""

from __future__ import annotations

import glob
import re
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import narwhals.stable.v2 as nw
import pandas as pd
from tqdm.auto import tqdm

from jurycal.counting.labels import BAD, CODE, MISSING, NULL_STRINGS
from jurycal.counting.limits import DEFAULT_MEMORY_LIMIT, MAX_THREADS
from jurycal.counting.tally import (
    MAX_REPORTED,
    confusion_lazy,
    counts_from_tally,
    raise_duplicates,
    tally,
)
from jurycal.errors import FileError
from jurycal.formats import GZIP_ERRORS, csv_fault, incomplete_gzip, table_format
from regression.checks import (
    FALSE_STRINGS,
    HUMAN_COLUMNS,
    JUDGMENT_COLUMNS,
    TRUE_STRINGS,
    missing_columns_message,
)
from regression.data import Counts

__all__ = [
    "confusion_files",
    "count_files",
    "duckdb_message",
    "judgment_files",
]


def judgment_files(paths: str | Path | Sequence[str | Path]) -> list[str]:
    """The files ``paths`` names: each a file or a glob (``*``, ``?``, ``[...]``, ``**``).

    Raises
    ------
    ValueError
        A path that is neither a file nor a glob matching one; a file whose
        ending names no supported format.

    Examples
    --------
    >>> judgment_files([])
    Traceback (most recent call last):
    ...
    ValueError: no judgment files given.
    """
    given = [paths] if isinstance(paths, (str, Path)) else list(paths)
    files: list[str] = []
    for path in given:
        text = str(path)
        if glob.has_magic(text):
            matched = sorted(p for p in glob.glob(text, recursive=True) if Path(p).is_file())
            if not matched:
                raise ValueError(f"no file matches {text!r}.")
            files.extend(matched)
        elif Path(text).is_file():
            files.append(text)
        else:
            raise ValueError(f"no such file: {text!r}.")
    if not files:
        raise ValueError("no judgment files given.")
    for file in files:
        table_format(file)
    return list(dict.fromkeys(files))


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _file_list(files: Sequence[str]) -> str:
    return "[" + ", ".join(_quote(f) for f in files) + "]"


def _reader(con: Any, fmt: str, files: Sequence[str], label: str, typed: bool = True) -> str:
    """A DuckDB table function reading ``files``, with a ``filename`` column.

    With ``typed``, the label column of a text file is read as text, whatever it holds.
    """
    listed = _file_list(files)
    if fmt == "parquet":
        return f"read_parquet({listed}, union_by_name = true, filename = true)"
    if fmt in ("csv", "tsv"):
        nulls = "[" + ", ".join(_quote(s) for s in NULL_STRINGS) + "]"
        delim = "\\t" if fmt == "tsv" else ","
        types = f", types = {{{_quote(label)}: 'VARCHAR'}}" if typed else ""
        return (
            # Quote and escape as RFC 4180 (and pandas): left to sniffing, DuckDB reads
            # an unbalanced quote as text instead of refusing the file.
            f"read_csv({listed}, header = true, delim = E'{delim}', quote = '\"', "
            f"escape = '\"', union_by_name = true, filename = true, nullstr = {nulls}{types})"
        )
    sniffed = f"read_json({listed}, format = 'newline_delimited', union_by_name = true)"
    if not typed:
        return sniffed
    columns = con.sql(f"DESCRIBE SELECT * FROM {sniffed}").fetchall()
    typed_columns = ", ".join(
        f"{_quote(c)}: {_quote('VARCHAR' if c == label else t)}" for c, t, *_ in columns
    )
    return (
        f"read_json({listed}, format = 'newline_delimited', filename = true, "
        f"columns = {{{typed_columns}}})"
    )


def _code_sql(column: str, sql_type: str, text: bool) -> str:
    """SQL decoding ``column`` into 1 / 0 / MISSING / BAD, as :func:`.labels.label_code` does."""
    col = f'"{column}"'
    head = f"CASE WHEN {col} IS NULL THEN {MISSING} "
    if sql_type == "BOOLEAN":
        return head + f"WHEN {col} THEN 1 ELSE 0 END"
    if sql_type in ("FLOAT", "DOUBLE") or sql_type.startswith("DECIMAL"):
        return (
            head
            + f"WHEN isnan({col}::DOUBLE) THEN {MISSING} "
            + (f"WHEN {col} = 1 THEN 1 WHEN {col} = 0 THEN 0 ELSE {BAD} END")
        )
    if sql_type.split("(")[0] in (
        "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
        "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT",
    ):  # fmt: skip
        return head + f"WHEN {col} = 1 THEN 1 WHEN {col} = 0 THEN 0 ELSE {BAD} END"
    if sql_type == "VARCHAR":
        word = f"lower(trim({col}))"
        true_set = ", ".join(map(_quote, TRUE_STRINGS))
        false_set = ", ".join(map(_quote, FALSE_STRINGS))
        # In a text file a number is text: '1.0' is what pandas writes for a float label.
        number = (
            f"WHEN TRY_CAST({col} AS DOUBLE) = 1 THEN 1 WHEN TRY_CAST({col} AS DOUBLE) = 0 THEN 0 "
            if text
            else ""
        )
        return (
            head + f"WHEN {word} IN ({true_set}) THEN 1 WHEN {word} IN ({false_set}) THEN 0 "
            f"{number}ELSE {BAD} END"
        )
    raise ValueError(
        f"column {column!r} has type {sql_type}; labels must be 0/1 numbers, booleans or "
        "the strings 'valid'/'invalid'/'true'/'false'/'1'/'0'."
    )


def _require(columns: Sequence[str], found: list[str], name: str, where: Any) -> None:
    absent = [c for c in columns if c not in found]
    if absent:
        raise ValueError(missing_columns_message(f"{name} in {where}", columns, found))


def _source(con: Any, files: Sequence[str], columns: Sequence[str], label: str, name: str) -> str:
    """SQL selecting ``columns``, the label's code and ``filename`` from every file, any format."""
    by_format: dict[str, list[str]] = {}
    for file in files:
        by_format.setdefault(table_format(file), []).append(file)
    selects = []
    for fmt, group in by_format.items():
        try:
            reader = _reader(con, fmt, group, label)
            schema = {c: t for c, t, *_ in con.sql(f"DESCRIBE SELECT * FROM {reader}").fetchall()}
        except Exception as exc:  # duckdb.Error; the message names the file and line
            # A CSV without the label column fails on the label's type: name the column.
            untyped = _reader(con, fmt, group, label, typed=False)
            try:
                found = [c for c, *_ in con.sql(f"DESCRIBE SELECT * FROM {untyped}").fetchall()]
            except Exception:
                found = list(columns)
            _require(columns, _file_columns(found), name, group)
            raise _unparsed(group, fmt, name, exc) from exc
        _require(columns, _file_columns(list(schema)), name, group)
        keys = ", ".join(f'"{c}"' for c in columns if c != label)
        code = _code_sql(label, schema[label], text=fmt != "parquet")
        selects.append(
            f"SELECT {keys}, {code}::TINYINT AS {CODE}, "
            f'CAST("{label}" AS VARCHAR) AS "{label}", filename FROM {reader}'
        )
    return "\nUNION ALL BY NAME\n".join(f"({s})" for s in selects)


def _file_columns(columns: Sequence[str]) -> list[str]:
    """The file's own columns: without the ``filename`` column the reader adds."""
    return [c for c in columns if c != "filename"]


def _unparsed(files: Sequence[str], fmt: str, name: str, exc: BaseException) -> FileError:
    """Why DuckDB could not read ``files``, in jurycal's words: the file, the line, the fault.

    A CSV or TSV file is scanned for its first record that does not parse
    (:func:`jurycal.formats.csv_fault`, constant memory); DuckDB's own line is
    the fallback, and its words are kept only after ``DuckDB says:``.
    """
    message = duckdb_message(exc)
    named = re.search(r'file "([^"]+)"', str(exc))
    file = named.group(1) if named else files[0]
    if fmt in ("csv", "tsv"):
        for candidate in [file, *files]:
            try:
                fault = csv_fault(candidate)
            except GZIP_ERRORS as err:
                return FileError(incomplete_gzip(candidate, err), file=candidate)
            if fault is not None:
                line, why = fault
                return FileError(f"{candidate!r} line {line}: {why}.", file=candidate, line=line)
    at = re.search(r"Line: (\d+)", message)
    said_line = int(at.group(1)) if at else None
    where = f"{name} file {file!r}" + (f" line {said_line}" if said_line is not None else "")
    return FileError(
        f"{where}: not readable as {fmt} (DuckDB says: {message.rstrip('.')}).",
        file=file,
        line=said_line,
    )


def duckdb_message(exc: BaseException) -> str:
    """DuckDB's error in one line: what went wrong, and where.

    DuckDB explains a CSV error over a dozen lines (the offending line, the
    dialect it tried, options that might help). Kept: the first line (``CSV
    Error on Line: N``) and the sentence saying what is wrong, before the
    suggestions.
    """
    lines = [" ".join(line.split()) for line in str(exc).strip().splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return type(exc).__name__
    kept = [lines[0]]
    if re.search(r"CSV Error on Line: \d+$", lines[0]):
        reason = next(
            (line for line in lines[1:] if not line.startswith(("Original Line", "Possible"))), ""
        )
        kept.append(reason)
    return ": ".join(part.rstrip(".") for part in kept if part)[:300] + "."


_BAR = "{desc}: {percentage:3.0f}%|{bar}| {elapsed}"


class _DuckDB:
    """An in-memory DuckDB connection that spills to a private temporary directory."""

    def __init__(self, memory_limit: str | None, threads: int | None, progress: bool) -> None:
        import duckdb

        if threads is not None and (
            isinstance(threads, bool) or not 1 <= int(threads) <= MAX_THREADS
        ):
            raise ValueError(
                f"threads ({threads!r}) must be a whole number from 1 to {MAX_THREADS:,}; "
                "DuckDB starts every thread at once, and more than the cores gain nothing."
            )
        self._spill = tempfile.TemporaryDirectory(prefix="jurycal-duckdb-")
        self.con = duckdb.connect()
        self.progress = progress
        try:
            self.con.execute(f"SET temp_directory = {_quote(self._spill.name)}")
            self.con.execute("SET enable_progress_bar = false")
            if memory_limit is not None:
                self.con.execute(f"SET memory_limit = {_quote(str(memory_limit))}")
            if threads is not None:
                self.con.execute(f"SET threads = {int(threads)}")
        except Exception as exc:
            self.close()
            raise ValueError(f"DuckDB refused a setting: {exc}") from exc

    def close(self) -> None:
        self.con.close()
        self._spill.cleanup()

    def __enter__(self) -> _DuckDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fetch(self, query: Any, what: str) -> pd.DataFrame:
        """Run ``query`` (SQL or a relation); with ``progress`` a bar on stderr follows DuckDB."""
        relation = self.con.sql(query) if isinstance(query, str) else query
        try:
            if not self.progress:
                return relation.df()
            with ThreadPoolExecutor(1) as pool, tqdm(total=100, desc=what, bar_format=_BAR) as bar:
                job = pool.submit(relation.df)
                while not job.done():
                    time.sleep(0.2)
                    done = self.con.query_progress()
                    if done > bar.n:
                        bar.update(done - bar.n)
                result = job.result()
                bar.update(100 - bar.n)
                return result
        except Exception as exc:
            if isinstance(exc, ValueError):
                raise
            raise ValueError(f"DuckDB could not {what}: {duckdb_message(exc)}") from exc


def _row_of(db: _DuckDB, file: str, key: dict[str, Any], label: str) -> str:
    """Where ``key`` first sits in ``file``: 'line N' for text files, 'row N' for Parquet."""
    fmt = table_format(file)
    reader = _reader(db.con, fmt, [file], label)
    condition = " AND ".join(
        f'"{c}" IS NULL' if pd.isna(v) else f'"{c}"::VARCHAR = {_quote(str(v))}'
        for c, v in key.items()
    )
    # A streaming row_number() OVER () numbers the rows in file order.
    rows = db.fetch(
        f"SELECT min(r) AS r FROM (SELECT row_number() OVER () AS r, * FROM {reader}) "
        f"WHERE {condition}",
        "locate a duplicate",
    )["r"]
    row = int(rows.iloc[0]) if len(rows) and pd.notna(rows.iloc[0]) else None
    if row is None:
        return file
    if fmt == "parquet":
        return f"{file} row {row}"
    # CSV / TSV: the header is line 1. JSON Lines: one record per line.
    return f"{file} line {row + 1 if fmt in ('csv', 'tsv') else row}"


def _file_duplicates(db: _DuckDB, source: str, keys: Sequence[str], label: str, name: str) -> None:
    """Raise naming the first repeated keys, with the file and line of each copy."""
    key_list = ", ".join(f'"{k}"' for k in keys)
    # Group on a 64-bit hash first: a small hash table, exact because every hash shared
    # by two rows is then checked on the keys themselves.
    shared = db.fetch(
        f"SELECT h FROM (SELECT hash({key_list}) AS h FROM ({source})) "
        "GROUP BY h HAVING count(*) > 1",
        "check for duplicates",
    )
    if shared.empty:
        return
    db.con.register("_jurycal_shared", shared)
    repeated = db.fetch(
        f"SELECT {key_list}, count(*) AS len, list(DISTINCT filename ORDER BY filename) AS files "
        f"FROM ({source}) WHERE hash({key_list}) IN (SELECT h FROM _jurycal_shared) "
        f"GROUP BY ALL HAVING count(*) > 1 ORDER BY {key_list}",
        "check for duplicates",
    )
    if repeated.empty:
        return
    first = repeated.head(MAX_REPORTED).copy()
    first["where"] = [
        " and ".join(_row_of(db, f, {k: row[k] for k in keys}, label) for f in row["files"])
        for _, row in first.iterrows()
    ]
    raise_duplicates(len(repeated), first, keys, name)


def count_files(
    paths: str | Path | Sequence[str | Path],
    *,
    check_duplicates: bool = True,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    threads: int | None = None,
    progress: bool = False,
) -> Counts:
    """Count judgments files of any size with DuckDB, out of core.

    Parameters
    ----------
    paths : path, glob, or a list of them
        CSV (``.csv``, ``.tsv``), Parquet (``.parquet``, ``.pq``) or JSON
        Lines (``.jsonl``, ``.ndjson``) files, text formats optionally
        ``.gz``; formats may be mixed. Columns ``generator, item, validator,
        label``; files may order them differently and carry others.
    check_duplicates : bool, default True
        Check that no ``(generator, item, validator)`` appears twice across
        all files; costs a hash table of one 64-bit hash per row (spilled to
        disk past ``memory_limit``), several times the count itself.
    memory_limit : str or None, default :data:`DEFAULT_MEMORY_LIMIT` (``"1GB"``)
        DuckDB's memory limit, e.g. ``"4GB"``; past it DuckDB spills to a
        temporary directory that is removed afterwards. None: DuckDB's own
        default, 80 % of the machine's memory (no faster: see Notes).
    threads : int, optional
        Threads DuckDB may use, 1 to :data:`MAX_THREADS`; default: all cores.
    progress : bool, default False
        Show a progress bar on stderr, driven by DuckDB's own estimate.

    Returns
    -------
    Counts
        Generators and validators sorted; the same numbers as
        :func:`regression.counts_from_judgments` on the concatenated
        tables.

    Raises
    ------
    ValueError
        A missing file or a glob that matches none; an unknown ending; a
        missing column; labels that are not binary (each named, with its
        number of rows and files); a missing generator or validator; a
        repeated ``(generator, item, validator)`` (with the file and line of
        each copy; for Parquet the row, from 1); no rows; a file DuckDB cannot
        parse (DuckDB's message, which names the line).

    Notes
    -----
    Text files are read with pandas' missing-value strings (:data:`NULL_STRINGS`)
    and the label column read as text, so a label column that mixes ``1`` and
    ``'valid'`` far down a file needs no type guess; numbers written as text
    (``'1.0'``) count as the numbers they are. The counts are the matrix
    model's sufficient statistic (agreeableness paper, section 5.1, eq. (9)).

    The count itself keeps one entry per cell; the duplicate check keeps one per
    distinct key, up to ``memory_limit``, then spills. On 3 x 10^7 and 10^8
    rows (``benchmarks/bench_counting.py``, 2 cores) the check ran nearly twice
    as fast under a 512 MB or 1 GB limit as with DuckDB's default, which held
    the whole hash table (6 GB at 10^8 rows) in memory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.csv").write_text("generator,item,validator,label\\ng1,1,v,valid\\ng1,2,v,0\\n")
    >>> _ = (folder / "b.csv").write_text("generator,item,validator,label\\ng2,1,v,1\\ng2,2,v,NA\\n")
    >>> count_files(folder / "*.csv").n_labelled
    validator  v
    generator
    g1         2
    g2         1
    """
    files = judgment_files(paths)
    with _DuckDB(memory_limit, threads, progress) as db:
        source = _source(db.con, files, JUDGMENT_COLUMNS, "label", "judgments")
        lazy = nw.from_native(db.con.sql(source))
        table = tally(lazy, "label", "judgments", lambda q: db.fetch(q.to_native(), "count"))
        if check_duplicates:
            _file_duplicates(db, source, ("generator", "item", "validator"), "label", "judgments")
        return counts_from_tally(table, "judgments")


def confusion_files(
    judgments: str | Path | Sequence[str | Path],
    human: str | Path | Sequence[str | Path],
    *,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    threads: int | None = None,
) -> pd.DataFrame:
    """Per generator and validator, ``tp, fn, fp, tn``: judgments files joined with human labels.

    Parameters
    ----------
    judgments : path, glob, or a list of them
        Judgments files, as for :func:`count_files`.
    human : path, glob, or a list of them
        Human-label files with columns ``generator, item, human``.
    memory_limit, threads
        As for :func:`count_files`.

    Returns
    -------
    DataFrame
        ``generator, validator, tp, fn, fp, tn`` sorted by generator and
        validator, equal to :func:`regression.data.confusion_from_judgments`
        on the same tables.

    Raises
    ------
    ValueError
        As :func:`count_files`, and for a missing or non-binary human label or
        a repeated human ``(generator, item)``.

    Notes
    -----
    Items are joined as text when the two sides type them differently (an
    integer column in Parquet, text in CSV).
    """
    votes_files, human_files = judgment_files(judgments), judgment_files(human)
    with _DuckDB(memory_limit, threads, progress=False) as db:
        votes_sql = _source(db.con, votes_files, JUDGMENT_COLUMNS, "label", "judgments")
        human_sql = _source(db.con, human_files, HUMAN_COLUMNS, "human", "human labels")
        votes, truth = db.con.sql(votes_sql), db.con.sql(human_sql)
        item_types = {
            dict(zip(rel.columns, map(str, rel.types), strict=True))["item"]
            for rel in (votes, truth)
        }
        if len(item_types) > 1:
            votes = db.con.sql(f"SELECT * REPLACE (item::VARCHAR AS item) FROM ({votes_sql})")
            truth = db.con.sql(f"SELECT * REPLACE (item::VARCHAR AS item) FROM ({human_sql})")
        try:
            return confusion_lazy(nw.from_native(votes), nw.from_native(truth), "judgments")
        except ValueError:
            raise
        except Exception as exc:  # duckdb.Error from the engine
            raise ValueError(
                f"DuckDB could not join the judgments with the human labels: {duckdb_message(exc)}"
            ) from exc
