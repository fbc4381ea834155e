"""``jurycal suggest`` and ``jurycal plan``: which items to label next, and how many labels a width needs.

``suggest`` draws the items whose human label the judges predict least surely
(:func:`regression.suggest_labels`) and writes ``generator, item,
inclusion_probability``: label them, add a ``human`` column and pass the rows,
probability column and all, with the earlier labels as the human-label file of
``jurycal fit`` / ``estimate``. ``plan`` prints the labels each generator needs
for a target interval width, drawn uniformly or by ``suggest``
(:func:`regression.plan_labels`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.commands import summary
from jurycal.cli.common import alpha_value, check_outputs, command_options, emit, read_votes, steps

__all__ = ["register", "run_plan", "run_suggest"]


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}")
    return value


def _width(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"must be in (0, 1), a fraction (0.1 = 10 points); got {text!r}"
        )
    return value


def register(subparsers: Any) -> None:
    """Add ``suggest`` and ``plan`` to the ``jurycal`` subparsers."""
    for name in ("suggest", "plan"):
        parser = subparsers.add_parser(
            name,
            parents=[command_options()],
            help=summary(name),
            description="JUDGMENTS has generator, item, validator, label; --labels has generator, "
            "item, human (and inclusion_probability where a draw of suggest chose them).",
        )
        parser.add_argument("judgments", type=Path)
        parser.add_argument("--labels", type=Path, help="the human labels held so far")
        parser.add_argument(
            "--generator",
            nargs="+",
            metavar="GEN",
            help="where to spend the labels (default: every generator not fully labelled)",
        )
        if name == "suggest":
            parser.add_argument("--budget", type=_positive_int, required=True, help="labels to buy")
            parser.add_argument("--seed", type=int, default=0)
            parser.add_argument(
                "-o",
                "--output",
                type=Path,
                help="write the items to label here (csv, parquet, ...)",
            )
            parser.add_argument(
                "--width",
                type=_width,
                help="also print the labels needed for this interval width (as jurycal plan)",
            )
            parser.set_defaults(handler=run_suggest)
        else:
            parser.add_argument(
                "--width", type=_width, required=True, help="target width (0.1 = 10 points)"
            )
            parser.set_defaults(handler=run_plan)
        parser.add_argument("--alpha", type=alpha_value, default=0.05)


def _plan_text(table: Any, width: float, alpha: float) -> str:
    return "\n".join(
        [
            f"labels needed for a {1 - alpha:.0%} interval at most {100 * width:.1f} points wide "
            "(uniform: a random sample; active: drawn by jurycal suggest):",
            table.to_string(float_format=lambda v: f"{v:.3f}"),
        ]
    )


def run_suggest(args: argparse.Namespace) -> int:
    """Draw the items to label next; print them, or write them with ``-o``."""
    from jurycal.io import write_table
    from regression import plan_labels, suggest_labels

    check_outputs([args.judgments, args.labels], [args.output])
    with steps(args, ["read", "suggest"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.labels)
        advance("suggest")
        table = suggest_labels(judgments, human, args.budget, args.generator, args.seed)
    counts = table.groupby("generator").size()
    lines = [
        f"{len(table)} items to label (budget {args.budget}), per generator:",
        counts.to_string(),
    ]
    payload: dict[str, Any] = {"items": table, "per_generator": counts.to_dict()}
    if args.output is not None:
        write_table(table, args.output)
        lines.append(
            f"written: {args.output} (add a human column and pass the rows, inclusion_probability "
            "and all, with your earlier labels)"
        )
    else:
        lines += ["", table.to_string(index=False)]
    if args.width is not None:
        plan = plan_labels(judgments, human, args.width, args.alpha, args.generator)
        lines += ["", _plan_text(plan, args.width, args.alpha)]
        payload["plan"] = plan.reset_index()
    emit(args, "\n".join(lines), payload)
    return 0


def run_plan(args: argparse.Namespace) -> int:
    """Print the labels each generator needs for ``--width``."""
    from regression import plan_labels

    with steps(args, ["read", "plan"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.labels)
        advance("plan")
        table = plan_labels(judgments, human, args.width, args.alpha, args.generator)
    emit(args, _plan_text(table, args.width, args.alpha), {"plan": table.reset_index()})
    return 0
