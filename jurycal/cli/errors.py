"""Where an input error is in the user's file: the one place rows become file lines.

The library's errors (:class:`regression.errors.InputError`) carry the row
(0-based, of the frame the library was given) and the column; the user has a
file. :func:`in_file` turns one into a :class:`FileError` naming the file,
its 1-based line (:func:`jurycal.formats.first_line`: a CSV or TSV header is line
1, so frame row ``r`` is line ``r + 2``; a JSON Lines record and a Parquet
record count from 1) and the column. :func:`located` does it for a block of
library calls on frames read from files (by the table the error names, else
by its column); :func:`error_record` is what
``--json`` prints for any error, and :func:`unrecognized_hint` what a usage
error for an unknown argument adds.

This module imports nothing heavy: ``jurycal CMD --help`` loads it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from jurycal.errors import FileError
from regression.errors import DuplicateRowError, InputError

__all__ = [
    "FileError",
    "Source",
    "error_record",
    "file_line",
    "in_file",
    "located",
    "unrecognized_hint",
]


def file_line(path: str | Path, row: int) -> int:
    """The 1-based line of the frame row ``row`` (0-based) read from ``path``.

    Examples
    --------
    >>> file_line("human.csv", 5085), file_line("human.jsonl", 0)
    (5087, 1)
    """
    from jurycal.formats import first_line

    return first_line(path) + int(row)


def _without_position(message: str) -> str:
    """The library's message without its 0-based ``at position N`` / ``at row N``: the line says it."""
    return re.sub(
        r"\s*\((?:[^()]*?\s)?at (?:position|row) \d+\)|\s+at (?:position|row) \d+", "", message
    )


def in_file(err: InputError, path: str | Path, what: str) -> FileError:
    """``err``, raised on the frame read from ``path``, as a :class:`FileError` with its file line.

    Examples
    --------
    >>> from regression.errors import LabelError
    >>> bad = LabelError("label must be 0/1; got 'yes' at position 3.", row=3, column="label")
    >>> str(in_file(bad, "votes.csv", "judgments file"))
    "judgments file 'votes.csv' line 5, column 'label': label must be 0/1; got 'yes'."
    """
    if isinstance(err, FileError):
        return err
    row = err.row if isinstance(err.row, int) and not isinstance(err.row, bool) else None
    line = None if row is None else file_line(path, row)
    where = f"{what} {str(path)!r}" + (f" line {line}" if line is not None else "")
    if err.column is not None:
        where += f", column {err.column!r}"
    message = str(err)
    if line is not None and isinstance(err, DuplicateRowError) and err.first_row is not None:
        first = file_line(path, err.first_row)  # a repeated key: the line it repeats
        message = re.sub(r", first seen at row \d+", f", first seen at line {first}", message)
    message = _without_position(message) if line is not None else message
    return FileError(
        f"{where}: {message}",
        file=path,
        line=line,
        column=err.column,
        value=err.value,
        kind=type(err).__name__,
    )


class Source(NamedTuple):
    """A file whose frame a block of library calls reads, for :func:`located`.

    ``table``: the name the library gives the frame's errors
    (:attr:`regression.errors.InputError.table`, e.g. ``"human votes"``), where it names one.
    ``rows``: the file rows of the frame the library was given, by position, when it was a
    selection of the file's rows (one model's); None: all of them, in file order.
    """

    path: Path
    what: str
    columns: Sequence[str]
    table: str | None = None
    rows: Sequence[int] | None = None


@contextmanager
def located(sources: Sequence[tuple[Any, ...]]) -> Iterator[None]:
    """Place an :class:`InputError` raised inside the block in the file it came from.

    Parameters
    ----------
    sources : sequence of :class:`Source` (or its fields as a tuple)
        The files whose frames the block uses. An error that names its table
        is placed in the file of that table; else in the first file that has
        its column (the most likely first). The frames keep the row numbers
        they were read with.
    """
    try:
        yield
    except FileError:
        raise
    except InputError as err:
        files = [Source(*source) for source in sources]
        by_table = [s for s in files if err.table is not None and s.table == err.table]
        matches = by_table or [s for s in files if err.column in s.columns]
        if matches:
            source = matches[0]
            if source.rows is not None and isinstance(err.row, int):
                err.row = int(source.rows[err.row])
                if isinstance(err, DuplicateRowError) and err.first_row is not None:
                    err.first_row = int(source.rows[err.first_row])  # the row it repeats
            raise in_file(err, source.path, source.what) from None
        raise


def error_record(err: BaseException, exit_code: int) -> dict[str, Any]:
    """The ``--json`` error object: ``{"error": {type, message, file, line, column, exit_code}}``."""
    return {
        "error": {
            "type": getattr(err, "kind", type(err).__name__),
            "message": " ".join(str(err).split()),
            "file": getattr(err, "file", None) or getattr(err, "filename", None),
            "line": getattr(err, "line", None),
            "column": getattr(err, "column", None),
            "exit_code": exit_code,
        }
    }


def unrecognized_hint(message: str, options: Sequence[str], file_hint: str) -> str:
    """What to say after argparse's ``unrecognized arguments: ...``: the near match of a misspelt
    option (``--generators``: did you mean ``--generator``?), else ``file_hint`` where a word
    that is no option was left over (a second file), else nothing.

    Examples
    --------
    >>> unrecognized_hint("unrecognized arguments: --generators a", ["--generator"], "x")
    'did you mean --generator?'
    >>> unrecognized_hint("unrecognized arguments: h.csv", ["--generator"], "takes --labels")
    'takes --labels'
    """
    words = message.partition(":")[2].split()
    near = []
    for word in words:
        if word.startswith("-"):
            near += difflib.get_close_matches(word.partition("=")[0], options, n=1, cutoff=0.75)
    if near:
        return "did you mean " + " or ".join(dict.fromkeys(near)) + "?"
    return file_hint if any(not word.startswith("-") for word in words) else ""
