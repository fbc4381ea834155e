"""The table formats jurycal reads and writes, told by the file name's ending.

One table for :mod:`jurycal.io` (pandas, in memory) and :mod:`jurycal.counting`
(DuckDB, out of core), so that both accept the same files.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["FIRST_ROW_LINE", "FORMATS", "first_line", "table_format"]

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
