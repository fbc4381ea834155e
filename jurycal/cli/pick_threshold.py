"""``jurycal pick-threshold``: choose a rule's threshold on human-labelled generators."""

from __future__ import annotations

import argparse
from typing import Any

from ensemble.options import MAXIMISED_METRICS, METRICS, MISSING_POLICIES, RULES
from jurycal.cli.common import (
    add_command,
    add_files,
    check_files,
    emit,
    plot_path,
    save_plot,
    steps,
)
from jurycal.cli.errors import located
from jurycal.cli.reading import (
    read_votes,
    vote_sources,
)

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``pick-threshold`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "pick-threshold",
        plot=True,
        description="JUDGMENTS has generator, item, validator, label; HUMAN has generator, "
        "item, human. The threshold k is a number of validators: the rule labels an item by "
        "k votes.",
        examples=[
            "jurycal pick-threshold judgments.csv human.csv",
            "jurycal pick-threshold judgments.csv human.csv --rule majority --plot sweep.png",
        ],
    )
    add_files(parser, "judgments", "human")
    parser.add_argument(
        "--rule",
        choices=RULES,
        default="minority_veto",
        help="the voting rule (default minority_veto)",
    )
    parser.add_argument(
        "--metric",
        choices=METRICS,
        default=METRICS[0],
        help="what the threshold optimises over the calibration generators: the errors (in "
        "precision points as a fraction) are minimised, balanced_accuracy is maximised "
        f"(default {METRICS[0]})",
    )
    parser.add_argument(
        "--missing",
        choices=[policy for policy in MISSING_POLICIES if policy],  # None: the default, no option
        help="ignore: apply the rule to the votes cast (default: a missing vote counts as neither)",
    )
    parser.set_defaults(handler=run)


def _optimises(metric: str) -> str:
    """The verb for what the chosen threshold does to ``metric``."""
    return "maximises" if metric in MAXIMISED_METRICS else "minimises"


def run(args: argparse.Namespace) -> int:
    """Sweep the rule's thresholds; report the chosen one in sample and held out."""
    check_files([args.judgments, args.human], [plot_path(args)])

    from ensemble import pick_threshold, vote_matrix
    from ensemble.plots import plot_threshold_sweep
    from regression.text_table import text_table

    with steps(args, ["read", "sweep the thresholds"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.human)
        with located(vote_sources(args.judgments, args.human)):
            matrix = vote_matrix(judgments)
            advance("sweep the thresholds")
            choice = pick_threshold(matrix, human, args.rule, args.metric, missing=args.missing)
    sweep = choice.sweep[choice.sweep["rule"] == args.rule]
    lines = [
        f"rule {args.rule}: threshold {choice.threshold} {_optimises(args.metric)} {args.metric} "
        "on the "
        f"calibration generators (in-sample {choice.in_sample_score:.4f}; optimistic)",
        f"held out (threshold chosen without each generator): max abs error "
        f"{choice.held_out_max_abs_error:.4f}, mean {choice.held_out_mean_abs_error:.4f}",
        "",
        text_table(choice.held_out),
        "",
        "sweep:",
        text_table(sweep, index=False),
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
    written = (
        save_plot(args, plot_threshold_sweep(choice.sweep, args.metric))
        if plot_path(args)
        else None
    )
    payload["plot"] = written
    emit(args, "\n".join(lines), payload, written=[written] if written else [])
    return 0
