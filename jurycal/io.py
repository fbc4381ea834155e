"""Reading and writing tables: CSV, Parquet and JSON Lines, whole or in bounded chunks.

The format follows the file name: ``.csv`` / ``.csv.gz`` / ``.tsv``, ``.parquet`` /
``.pq``, ``.jsonl`` / ``.ndjson`` (optionally ``.gz``). :func:`iter_table` reads
any of them in chunks of at most ``chunk_rows`` rows. :func:`count_judgments`
turns judgments files of any size into counts with DuckDB, out of core
(:mod:`jurycal.counting`), without ever holding the table.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pandas as pd

from jurycal.counting import DEFAULT_MEMORY_LIMIT, count_files
from regression.counts import Counts

__all__ = [
    "FORMATS",
    "JUDGMENT_COLUMNS",
    "count_judgments",
    "iter_table",
    "read_table",
    "table_format",
    "write_table",
]

#: The columns of the judgments table (DESIGN.md data model).
JUDGMENT_COLUMNS = ("generator", "item", "validator", "label")

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


def _existing(path: str | Path) -> Path:
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"no such file: {str(path)!r}.")
    return p


def read_table(path: str | Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Read a whole table (see :func:`iter_table` for tables that do not fit in memory)."""
    fmt = table_format(path)
    p = _existing(path)
    cols = list(columns) if columns is not None else None
    if fmt == "parquet":
        return pd.read_parquet(p, columns=cols)
    if fmt == "jsonl":
        frame = pd.read_json(p, lines=True, dtype=False)
        return frame[cols] if cols is not None else frame
    return pd.read_csv(p, sep="\t" if fmt == "tsv" else ",", usecols=cols)


def iter_table(
    path: str | Path, *, chunk_rows: int = 1_000_000, columns: Sequence[str] | None = None
) -> Iterator[pd.DataFrame]:
    """Yield the table in chunks of at most ``chunk_rows`` rows; memory stays bounded by one chunk.

    Parquet is read batch by batch with pyarrow; CSV and JSON Lines with pandas'
    chunked readers.
    """
    if chunk_rows <= 0:
        raise ValueError(f"chunk_rows ({chunk_rows}) must be positive.")
    fmt = table_format(path)
    p = _existing(path)
    cols = list(columns) if columns is not None else None
    if fmt == "parquet":
        import pyarrow.parquet as pq

        with pq.ParquetFile(p) as parquet:
            for batch in parquet.iter_batches(batch_size=chunk_rows, columns=cols):
                yield batch.to_pandas()
    elif fmt == "jsonl":
        with pd.read_json(p, lines=True, chunksize=chunk_rows, dtype=False) as reader:
            for chunk in reader:
                yield chunk[cols] if cols is not None else chunk
    else:
        sep = "\t" if fmt == "tsv" else ","
        with pd.read_csv(p, sep=sep, usecols=cols, chunksize=chunk_rows) as reader:
            yield from reader


def write_table(frame: pd.DataFrame, path: str | Path) -> None:
    """Write ``frame`` in the format its file name says; the index is not written."""
    fmt = table_format(path)
    p = Path(path)
    if fmt == "parquet":
        frame.to_parquet(p, index=False)
    elif fmt == "jsonl":
        frame.to_json(p, orient="records", lines=True)
    else:
        frame.to_csv(p, sep="\t" if fmt == "tsv" else ",", index=False)


def count_judgments(
    path: str | Path | Sequence[str | Path],
    *,
    chunk_rows: int | None = None,
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
    chunk_rows : int, optional
        Has no effect: DuckDB reads the files in its own batches. Accepted so
        that callers written for a chunked reader keep working.
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
        :func:`regression.counts.counts_from_judgments` gives on the whole table.

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
    return count_files(
        path,
        check_duplicates=check_duplicates,
        memory_limit=memory_limit,
        threads=threads,
        progress=progress,
    )
