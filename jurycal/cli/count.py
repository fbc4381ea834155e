"""``jurycal count``: judgments files of any size into generator x validator counts (DuckDB)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import (
    TABLE_FILE,
    add_command,
    check_files,
    emit,
    memory_limit_value,
    progress_setting,
    threads_value,
)
from jurycal.cli.errors import FileError, located
from jurycal.counting.limits import DEFAULT_MEMORY_LIMIT, MAX_THREADS

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RECHECK_BYTES", "long_counts", "placed", "register", "run"]


def register(subparsers: Any) -> None:
    """Add ``count`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "count",
        description="Each JUDGMENTS file (or glob) has columns generator, item, validator, "
        "label; CSV, TSV, Parquet or JSON Lines, optionally .gz, formats may be mixed. "
        "No (generator, item, validator) may appear twice across all of them.",
        examples=[
            "jurycal count judgments.parquet",
            "jurycal count 'shards/*.parquet' -o counts.csv --memory-limit 4GB --threads 8",
        ],
    )
    parser.add_argument(
        "judgments", nargs="+", metavar="JUDGMENTS", help=f"files or globs, each {TABLE_FILE}"
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="COUNTS",
        help="write the long counts table here (generator, validator, n_valid, n_labelled)",
    )
    parser.add_argument(
        "--memory-limit",
        type=memory_limit_value,
        default=DEFAULT_MEMORY_LIMIT,
        metavar="SIZE",
        help=f"DuckDB's memory before it spills to disk, in bytes with a unit: 500MB, 4GB "
        f"(default {DEFAULT_MEMORY_LIMIT}; 'none' for DuckDB's own, 80%% of the machine's memory)",
    )
    parser.add_argument(
        "--threads",
        type=threads_value,
        metavar="N",
        help=f"threads DuckDB may use, 1 to {MAX_THREADS:,} (default: all cores)",
    )
    parser.add_argument(
        "--no-duplicate-check",
        dest="check_duplicates",
        action="store_false",
        help="skip the global duplicate check (several times faster on huge tables)",
    )
    parser.set_defaults(handler=run)


def long_counts(counts: Any) -> pd.DataFrame:
    """One row per (generator, validator) cell with at least one label."""
    import pandas as pd

    long = pd.DataFrame(
        {"n_valid": counts.n_valid.stack(), "n_labelled": counts.n_labelled.stack()}
    ).reset_index()
    long = long[long["n_labelled"] > 0].reset_index(drop=True)
    return long.astype({"n_valid": "int64", "n_labelled": "int64"})


#: Up to this many bytes in all, a fault the out-of-core count finds is located by reading the
#: files as every other command does (same file, line and column); larger inputs keep the count's
#: own message, which names the files.
RECHECK_BYTES = 256 * 2**20


def placed(paths: Sequence[str], err: ValueError) -> FileError:
    """The count's error ``err`` as every other command words it: the file, its line, the column.

    The files are read and checked as ``vote`` reads a judgments file
    (:func:`jurycal.cli.reading.read_judgments`, then the judgments table's
    own checks), when they are small enough to read (:data:`RECHECK_BYTES`);
    the first fault found is the error. A fault only the whole set has (one
    key in two files) keeps the count's message, placed in the first file it
    names.
    """
    from jurycal.cli.reading import read_judgments, vote_sources
    from jurycal.counting.files import judgment_files
    from regression.data import encode_judgments

    files = [Path(f) for f in judgment_files(paths)]
    if sum(f.stat().st_size for f in files) <= RECHECK_BYTES:
        for file in files:
            judgments = read_judgments(file)  # raises the FileError every command raises
            with located(vote_sources(file, None)):
                encode_judgments(judgments)
    if isinstance(err, FileError):
        return err
    named = [f for f in files if str(f) in str(err)]
    return FileError(str(err), file=named[0] if named else files[0])


def run(args: argparse.Namespace) -> int:
    """Count the labels per cell; print the valid rates, write the long table with ``-o``."""
    inputs = [Path(p) for p in args.judgments if not any(c in p for c in "*?[")]
    check_files(inputs, [args.output])

    from jurycal.io import check_readable, count_judgments, write_table
    from regression.progress import show_progress
    from regression.text_table import text_table

    for path in inputs:  # the cheap faults (empty, not gzip), named as every command names them
        check_readable(path)
    try:
        counts = count_judgments(
            args.judgments,
            progress=show_progress(progress_setting(args)),
            check_duplicates=args.check_duplicates,
            memory_limit=args.memory_limit,
            threads=args.threads,
        )
    except FileError as err:
        if err.line is not None:
            raise
        raise placed(args.judgments, err) from None
    except ValueError as err:
        raise placed(args.judgments, err) from None
    long = long_counts(counts)
    if args.output is not None:
        write_table(long, args.output)
    rates = counts.rates
    text = "\n".join(
        [
            f"{int(long['n_labelled'].sum()):,} labels in {len(long):,} cells "
            f"({len(rates.index)} generators x {len(rates.columns)} validators)",
            "",
            "fraction labelled valid (generators x validators; -: no label):",
            text_table(rates, digits=3),
        ]
    )
    payload: dict[str, Any] = {"counts": long, "output": args.output}
    emit(args, text, payload, written=[args.output] if args.output is not None else [])
    return 0
