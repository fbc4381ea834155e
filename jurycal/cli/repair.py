"""``jurycal repair``: raw validator outputs into the judgments table, every pair accounted for."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.common import (
    TABLE_FILE,
    add_command,
    check_files,
    emit,
    fuzzy_threshold_value,
    progress_setting,
)
from jurycal.cli.reading import (
    read_input,
    refuse_duplicates,
)
from repair.switches import FUZZY_THRESHOLD, PAPER_LEVELS

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``repair`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "repair",
        description="GEN_ITEMS has columns generator, task, item, line, feedback; "
        "VALIDATOR_OUTPUTS has generator, task, validator, raw (raw: the validator's "
        "whole response). A response is used when its (generator, task) has generator "
        "items; names must match exactly (case included).",
        examples=[
            "jurycal repair gen_items.csv validator_outputs.csv -o judgments.csv",
            "jurycal repair gen_items.csv validator_outputs.csv -o judgments.parquet "
            "--repairs feedback --fuzzy-threshold 0.9 --report missing.csv",
        ],
    )
    parser.add_argument(
        "generator_items",
        type=Path,
        metavar="GEN_ITEMS",
        help=f"the generators' items, one row per (generator, item): {TABLE_FILE}",
    )
    parser.add_argument(
        "validator_outputs",
        type=Path,
        metavar="VALIDATOR_OUTPUTS",
        help=f"the validators' raw responses, one per (generator, task, validator): {TABLE_FILE}",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="JUDGMENTS",
        help="write the judgments table here (generator, item, validator, label)",
    )
    parser.add_argument(
        "--repairs",
        choices=("all", *PAPER_LEVELS),
        default="all",
        help="which repairs: all (default) or one of the paper's four levels",
    )
    parser.add_argument(
        "--fuzzy-threshold",
        type=fuzzy_threshold_value,
        default=FUZZY_THRESHOLD / 100,
        metavar="T",
        help="how similar a response's text must be to an item's to match it, a fraction in "
        f"(0, 1] (default {FUZZY_THRESHOLD / 100:g}; rapidfuzz's score / 100)",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="TABLE",
        help="also write the per-validator missing rates here (a table file)",
    )
    parser.set_defaults(handler=run)


def _percent(fraction: float) -> float:
    """``fraction`` as the percent rapidfuzz scores in, without a rounding error (0.85 -> 85.0)."""
    from decimal import Decimal

    return float(Decimal(repr(fraction)) * 100)


def run(args: argparse.Namespace) -> int:
    """Repair, write the judgments table, and account for every response and pair."""
    inputs = [args.generator_items, args.validator_outputs]
    check_files(inputs, [args.output, args.report])

    from jurycal.io import write_table
    from regression.progress import show_progress
    from regression.text_table import text_table
    from repair import (
        ALL,
        GENERATOR_ITEM_COLUMNS,
        VALIDATOR_OUTPUT_COLUMNS,
        repair_judgments,
    )

    items = read_input(args.generator_items, "generator-item file", GENERATOR_ITEM_COLUMNS)
    refuse_duplicates(items, ["generator", "item"], args.generator_items, "generator-item file")
    outputs = read_input(args.validator_outputs, "validator-output file", VALIDATOR_OUTPUT_COLUMNS)
    refuse_duplicates(
        outputs, ["generator", "task", "validator"], args.validator_outputs, "validator-output file"
    )
    repairs = ALL if args.repairs == "all" else PAPER_LEVELS[args.repairs]
    judgments, report = repair_judgments(
        items,
        outputs,
        fuzzy_threshold=_percent(args.fuzzy_threshold),
        repairs=repairs,
        progress=show_progress(progress_setting(args)),
    )
    statuses = report.outputs
    if report.n_pairs == 0:
        raise ValueError(
            f"no (generator item, validator) pair to write ({report.n_outputs:,} responses); "
            f"nothing written to {str(args.output)!r}."
        )
    write_table(judgments, args.output)
    per_validator = report.to_frame()  # a table: the missing rates per validator and "all"
    if args.report is not None:
        write_table(per_validator.reset_index(), args.report)
    text = [
        f"{len(judgments)} (generator item, validator) pairs (repairs: {args.repairs})",
        report.describe(),
        "",
        "missing rates per validator:",
        text_table(per_validator),
        "",
        "by failure type (pairs):",
        text_table(report.by_failure()),
    ]
    payload = {
        "pairs": len(judgments),
        "output": args.output,
        "report": args.report,
        "per_validator": per_validator,
        "by_failure": report.by_failure(),
        "responses": statuses,
        "n_orphan_outputs": int(statuses.get("orphan", 0)),
        "orphans": report.orphans.reset_index(),
        "n_unasked_items": len(report.unasked_items),
        "n_unmatched_entries": len(report.unmatched_entries),
        "n_unparseable_outputs": len(report.unparseable_outputs),
    }
    written = [args.output] + ([args.report] if args.report is not None else [])
    emit(args, "\n".join(text), payload, written=written)
    return 0
