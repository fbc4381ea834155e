"""The table formats jurycal reads and writes, told by the file name's ending.

One table for :mod:`jurycal.io` (pandas, in memory) and :mod:`jurycal.counting`
(DuckDB, out of core), so that both accept the same files.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["FORMATS", "table_format"]

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
