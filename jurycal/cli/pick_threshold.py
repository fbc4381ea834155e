"""``jurycal pick-threshold``: choose a rule's threshold on human-labelled generators."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.commands import summary
from jurycal.cli.common import (
    check_outputs,
    command_options,
    emit,
    plot_path,
    read_votes,
    save_plot,
    steps,
)

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``pick-threshold`` to the ``jurycal`` subparsers."""
    from ensemble import METRICS, MISSING_POLICIES, RULES

    parser = subparsers.add_parser(
        "pick-threshold",
        parents=[command_options(plot=True)],
        help=summary("pick-threshold"),
        description="JUDGMENTS has generator, item, validator, label; HUMAN has generator, "
        "item, human.",
    )
    parser.add_argument("judgments", type=Path)
    parser.add_argument("human", type=Path, help="human labels: generator, item, human")
    parser.add_argument("--rule", choices=RULES, default="minority_veto")
    parser.add_argument("--metric", choices=METRICS, default="max_abs_error")
    parser.add_argument("--missing", choices=[p for p in MISSING_POLICIES if p is not None])
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Sweep the rule's thresholds; report the chosen one in sample and held out."""
    from ensemble import pick_threshold, vote_matrix
    from ensemble.plots import plot_threshold_sweep

    check_outputs([args.judgments, args.human], [plot_path(args)])
    with steps(args, ["read", "sweep the thresholds"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.human)
        matrix = vote_matrix(judgments)
        advance("sweep the thresholds")
        choice = pick_threshold(matrix, human, args.rule, args.metric, missing=args.missing)
    sweep = choice.sweep[choice.sweep["rule"] == args.rule]
    lines = [
        f"rule {args.rule}: threshold {choice.threshold} minimises {args.metric} on the "
        f"calibration generators (in-sample {choice.in_sample_score:.4f}; optimistic)",
        f"held out (threshold chosen without each generator): max abs error "
        f"{choice.held_out_max_abs_error:.4f}, mean {choice.held_out_mean_abs_error:.4f}",
        "",
        choice.held_out.to_string(float_format=lambda v: f"{v:.4f}"),
        "",
        "sweep:",
        sweep.to_string(index=False, float_format=lambda v: f"{v:.4f}"),
    ]
    payload: dict[str, Any] = {
        "rule": args.rule,
        "metric": args.metric,
        "threshold": choice.threshold,
        "in_sample_score": choice.in_sample_score,
        "held_out_max_abs_error": choice.held_out_max_abs_error,
        "held_out_mean_abs_error": choice.held_out_mean_abs_error,
        "held_out": choice.held_out,
        "sweep": sweep,
    }
    if plot_path(args) is not None:
        lines.append(str(save_plot(args, plot_threshold_sweep(choice.sweep, args.metric))))
        payload["plot"] = str(plot_path(args))
    emit(args, "\n".join(lines), payload)
    return 0
