"""``jurycal report``: a report card (Markdown and HTML) after Fiedler's section 7 checklist."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.commands import summary
from jurycal.cli.common import (
    alpha_value,
    check_outputs,
    command_options,
    emit,
    n_boot_value,
    steps,
    write_card,
)

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``report`` to the ``jurycal`` subparsers."""
    from regression.single_judge import METHODS

    parser = subparsers.add_parser(
        "report",
        parents=[command_options()],
        help=summary("report"),
        description="Without --models: CALIBRATION has human, judge; TEST has judge. With "
        "--models A B: both files also have a model column (TEST an item column when paired), "
        "and the card adds the comparison with Delta J.",
    )
    parser.add_argument("calibration", type=Path)
    parser.add_argument("test", type=Path)
    parser.add_argument(
        "-o", "--output", type=Path, required=True, help="card.md (card.html is written beside it)"
    )
    parser.add_argument("--models", nargs=2, metavar=("A", "B"))
    parser.add_argument("--unpaired", action="store_true")
    parser.add_argument(
        "--method", choices=[m for m in METHODS if m != "naive"], default="rogan-gladen"
    )
    parser.add_argument("--n-boot", type=n_boot_value, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--alpha", type=alpha_value, default=0.05)
    parser.set_defaults(handler=run)


def card_paths(path: Path) -> list[Path]:
    """The two files a card at ``path`` becomes: ``.md`` and ``.html``."""
    return [path.with_suffix(".md"), path.with_suffix(".html")]


def run(args: argparse.Namespace) -> int:
    """Estimate (and compare, with ``--models``) and write the card."""
    from jurycal.cli.compare import compare_read, read_comparison
    from jurycal.cli.judge import read_single
    from jurycal.report import Report, add_comparison, add_single_judge
    from regression import estimate_prevalence

    check_outputs([args.calibration, args.test], card_paths(args.output))
    card = Report("jurycal report card")
    if args.models is None:
        calibration, test = read_single(args.calibration, args.test, None)
        result = estimate_prevalence(calibration, test["judge"], args.alpha, method=args.method)
        add_single_judge(card, result)
    else:
        with steps(args, ["read", "estimate", "compare (bootstrap)"]) as advance:
            advance("read")
            comparison = read_comparison(args)
            cal, test_a, test_b, _ = comparison
            advance("estimate")
            for name, labels in zip(args.models, (test_a, test_b), strict=True):
                result = estimate_prevalence(
                    cal[name], labels.dropna(), args.alpha, method=args.method
                )
                add_single_judge(card, result, name=name)
            advance("compare (bootstrap)")
            add_comparison(card, compare_read(args, comparison, shared="pooled"))
    written = write_card(card, args.output)
    markdown = card.to_markdown()
    emit(
        args,
        markdown + "\n" + "\n".join(f"written: {p}" for p in written),
        {"written": [str(p) for p in written], "markdown": markdown},
    )
    return 0
