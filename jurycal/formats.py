"""The table formats jurycal reads and writes, told by the file name's ending.

One table for :mod:`jurycal.io` (pandas, in memory) and :mod:`jurycal.counting`
(DuckDB, out of core), so that both accept the same files.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

__all__ = [
    "FIRST_ROW_LINE",
    "FORMATS",
    "GZIP_ERRORS",
    "csv_fault",
    "first_line",
    "incomplete_gzip",
    "table_format",
]

#: What reading a ``.gz`` file that is cut short or not gzip raises.
GZIP_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile)

#: File-name endings and the format each means.
FORMATS = {
    ".csv": "csv",
    ".csv.gz": "csv",
    ".tsv": "tsv",
    ".tsv.gz": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".jsonl.gz": "jsonl",
    ".ndjson": "jsonl",
    ".ndjson.gz": "jsonl",
}

#: The 1-based file line (record number for Parquet) of a table's first row, per format.
FIRST_ROW_LINE = {"csv": 2, "tsv": 2, "jsonl": 1, "parquet": 1}


def table_format(path: str | Path) -> str:
    """The format of ``path`` by its ending: ``'csv'``, ``'tsv'``, ``'parquet'`` or ``'jsonl'``.

    Examples
    --------
    >>> table_format("votes.jsonl.gz")
    'jsonl'
    """
    name = Path(path).name.lower()
    for ending in sorted(FORMATS, key=len, reverse=True):
        if name.endswith(ending):
            return FORMATS[ending]
    raise ValueError(
        f"cannot tell the format of {str(path)!r}; name it with one of {sorted(FORMATS)}."
    )


def first_line(path: str | Path) -> int:
    """The 1-based file line (record number for Parquet) of a table's first row.

    Row ``i`` (0-based) of :func:`read_table` is on line ``first_line(path) + i``
    when the file has no blank lines or quoted line breaks: CSV and TSV count
    their header line.

    Examples
    --------
    >>> first_line("votes.csv"), first_line("votes.jsonl")
    (2, 1)
    """
    return FIRST_ROW_LINE[table_format(path)]


def incomplete_gzip(path: str | Path, err: BaseException) -> str:
    """Why a ``.gz`` file could not be read, in jurycal's words: cut short, or not gzip at all.

    For the errors of :data:`GZIP_ERRORS`.

    Examples
    --------
    >>> incomplete_gzip("votes.csv.gz", EOFError())
    "'votes.csv.gz' is not a complete gzip file (it breaks off before its end)."
    """
    why = "it breaks off before its end" if isinstance(err, EOFError) else "not gzip data"
    return f"{str(path)!r} is not a complete gzip file ({why})."


def csv_fault(path: str | Path) -> tuple[int, str] | None:
    """The first line of a CSV or TSV file that does not parse, and why; None when all do.

    Read as RFC 4180 (quotes doubled inside quoted fields), one record at a
    time in constant memory: a record with more fields than the header, or a
    quote that is never closed (named at the line where its record starts).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> bad = pathlib.Path(tempfile.mkdtemp()) / "votes.csv"
    >>> _ = bad.write_text('generator,item,validator,label\\na,1,v,1\\na,2,v,"1\\n')
    >>> csv_fault(bad)
    (3, 'a quoted field opens here and never closes')
    """
    import csv
    import gzip
    import io

    p = Path(path)
    delimiter = "\t" if table_format(p) == "tsv" else ","
    raw = gzip.open(p, "rb") if p.name.lower().endswith(".gz") else p.open("rb")
    with raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as text:
        reader = csv.reader(text, delimiter=delimiter, strict=True)
        start = 1
        try:
            header = next(reader, None)
            if header is None:
                return None
            start = reader.line_num + 1
            for record in reader:
                if len(record) > len(header):
                    return start, (
                        f"{len(record)} fields where the header has {len(header)} "
                        f"(a {'tab' if delimiter == chr(9) else 'comma'} inside an unquoted value?)"
                    )
                start = reader.line_num + 1
        except csv.Error as err:
            if "end of data" in str(err) or "EOF" in str(err):
                return start, "a quoted field opens here and never closes"
            return start, "a quote inside a field that is not quoted as a whole"
    return None
