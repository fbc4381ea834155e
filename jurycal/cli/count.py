"""``jurycal count``: judgments files of any size into generator x validator counts (DuckDB)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.cli.commands import summary
from jurycal.cli.common import check_outputs, command_options, emit, progress_setting, threads_value
from jurycal.counting import DEFAULT_MEMORY_LIMIT
from regression.progress import show_progress

__all__ = ["long_counts", "register", "run"]


def register(subparsers: Any) -> None:
    """Add ``count`` to the ``jurycal`` subparsers."""
    parser = subparsers.add_parser(
        "count",
        parents=[command_options()],
        help=summary("count"),
        description="Each JUDGMENTS file (or glob) has columns generator, item, validator, "
        "label; CSV, TSV, Parquet or JSON Lines, optionally .gz, formats may be mixed. "
        "No (generator, item, validator) may appear twice across all of them.",
    )
    parser.add_argument("judgments", nargs="+", metavar="JUDGMENTS", help="files or globs")
    parser.add_argument("-o", "--output", type=Path, help="write the long counts table here")
    parser.add_argument(
        "--memory-limit",
        default=DEFAULT_MEMORY_LIMIT,
        metavar="SIZE",
        help=f"DuckDB's memory limit before it spills to disk (default {DEFAULT_MEMORY_LIMIT}; "
        "'none' for DuckDB's own, 80%% of the machine's memory)",
    )
    parser.add_argument(
        "--threads", type=threads_value, help="threads DuckDB may use, 1 to 1,024 (all cores)"
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
    long = pd.DataFrame(
        {"n_valid": counts.n_valid.stack(), "n_labeled": counts.n_labeled.stack()}
    ).reset_index()
    long = long[long["n_labeled"] > 0].reset_index(drop=True)
    return long.astype({"n_valid": "int64", "n_labeled": "int64"})


def run(args: argparse.Namespace) -> int:
    """Count the labels per cell; print the valid rates, write the long table with ``-o``."""
    from jurycal.io import check_readable, count_judgments, write_table

    inputs = [Path(p) for p in args.judgments if Path(p).is_file()]
    check_outputs(inputs, [args.output])
    for path in inputs:  # the cheap faults (empty, not gzip), named as every command names them
        check_readable(path)
    counts = count_judgments(
        args.judgments,
        progress=show_progress(progress_setting(args)),
        check_duplicates=args.check_duplicates,
        memory_limit=None if args.memory_limit.lower() == "none" else args.memory_limit,
        threads=args.threads,
    )
    long = long_counts(counts)
    if args.output is not None:
        write_table(long, args.output)
    rates = counts.rates
    text = "\n".join(
        [
            f"{int(long['n_labeled'].sum()):,} labels in {len(long):,} cells "
            f"({len(rates.index)} generators x {len(rates.columns)} validators)",
            "",
            "fraction labelled valid (generators x validators):",
            rates.to_string(float_format=lambda v: f"{v:.3f}"),
        ]
        + ([f"counts written to {args.output}"] if args.output is not None else [])
    )
    payload: dict[str, Any] = {"counts": long}
    if args.output is not None:
        payload["output"] = str(args.output)
    emit(args, text, payload)
    return 0
