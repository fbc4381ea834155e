"""``jurycal count``: a judgments file of any size into generator x validator counts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.cli.common import check_outputs, command_options, emit, positive_int, show_progress
from regression.checks import JUDGMENT_COLUMNS

__all__ = ["long_counts", "register", "run"]


def register(subparsers: Any) -> None:
    """Add ``count`` to the ``jurycal`` subparsers."""
    parser = subparsers.add_parser(
        "count",
        parents=[command_options()],
        help="turn a judgments file of any size into generator x validator counts (streamed)",
        description="JUDGMENTS has columns generator, item, validator, label.",
    )
    parser.add_argument("judgments", type=Path)
    parser.add_argument("-o", "--output", type=Path, help="write the long counts table here")
    parser.add_argument("--chunk-rows", type=positive_int, default=1_000_000)
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
    from jurycal.io import count_judgments, table_columns, write_table

    check_outputs([args.judgments], [args.output])
    columns = table_columns(args.judgments)
    missing = [c for c in JUDGMENT_COLUMNS if c not in columns]
    if missing:
        raise ValueError(
            f"judgments file {str(args.judgments)!r} is missing column(s) {missing}; "
            f"expected columns {list(JUDGMENT_COLUMNS)}, got {columns}."
        )
    counts = count_judgments(
        args.judgments, chunk_rows=args.chunk_rows, progress=show_progress(args)
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
