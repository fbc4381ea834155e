"""``jurycal repair``: raw validator outputs into the judgments table, every pair accounted for."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.commands import summary
from jurycal.cli.common import (
    check_outputs,
    command_options,
    emit,
    progress_setting,
    read_input,
    refuse_duplicates,
)
from regression.progress import show_progress

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``repair`` to the ``jurycal`` subparsers."""
    from repair import GENERATOR_ITEM_COLUMNS, PAPER_LEVELS, VALIDATOR_OUTPUT_COLUMNS

    parser = subparsers.add_parser(
        "repair",
        parents=[command_options()],
        help=summary("repair"),
        description=f"GEN_ITEMS has columns {', '.join(GENERATOR_ITEM_COLUMNS)}; "
        f"VALIDATOR_OUTPUTS has {', '.join(VALIDATOR_OUTPUT_COLUMNS)} (raw: the validator's "
        "whole response). A response is used when its (generator, task) has generator "
        "items; names must match exactly (case included).",
    )
    parser.add_argument("generator_items", type=Path)
    parser.add_argument("validator_outputs", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True, help="the judgments table")
    parser.add_argument(
        "--repairs",
        choices=("all", *PAPER_LEVELS),
        default="all",
        help="which repairs: all (default) or one of the paper's four levels",
    )
    parser.add_argument("--fuzzy-threshold", type=float, default=85.0)
    parser.add_argument(
        "--report", type=Path, help="also write the per-validator report table here"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Repair, write the judgments table, and account for every response and pair."""
    from jurycal.io import write_table
    from repair import (
        ALL,
        GENERATOR_ITEM_COLUMNS,
        PAPER_LEVELS,
        VALIDATOR_OUTPUT_COLUMNS,
        repair_judgments,
    )

    inputs = [args.generator_items, args.validator_outputs]
    check_outputs(inputs, [args.output, args.report])
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
        fuzzy_threshold=args.fuzzy_threshold,
        repairs=repairs,
        progress=show_progress(progress_setting(args)),
    )
    statuses = report.outputs
    if report.n_pairs == 0:
        raise ValueError(
            f"no (generator item, validator) pair to write ({report.n_outputs} responses); "
            f"nothing written to {str(args.output)!r}."
        )
    write_table(judgments, args.output)
    summary = report.to_frame()
    if args.report is not None:
        write_table(summary.reset_index(), args.report)
    text = [
        f"{len(judgments)} (generator item, validator) pairs written to {args.output} "
        f"(repairs: {args.repairs})",
        report.describe(),
        "",
        summary.to_string(float_format=lambda v: f"{v:.4f}"),
        "",
        "by failure type (pairs):",
        report.by_failure().to_string(),
    ]
    payload = {
        "pairs": len(judgments),
        "output": str(args.output),
        "summary": summary,
        "by_failure": report.by_failure(),
        "responses": statuses,
        "n_orphan_outputs": int(statuses.get("orphan", 0)),
        "orphans": report.orphans.reset_index(),
        "n_unasked_items": len(report.unasked_items),
        "n_unmatched_entries": len(report.unmatched_entries),
        "n_unparseable_outputs": len(report.unparseable_outputs),
    }
    emit(args, "\n".join(text), payload)
    return 0
