"""``jurycal vote``: label items by majority, supermajority or minority veto (agreeableness §4)."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.cli.commands import summary
from jurycal.cli.common import check_outputs, command_options, emit, read_votes, steps

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``vote`` to the ``jurycal`` subparsers."""
    from ensemble import MISSING_POLICIES, RULES

    parser = subparsers.add_parser(
        "vote",
        parents=[command_options()],
        help=summary("vote"),
        description="JUDGMENTS has columns generator, item, validator, label (1/0/missing).",
    )
    parser.add_argument("judgments", type=Path)
    parser.add_argument("--rule", choices=RULES, default="majority")
    parser.add_argument("--threshold", type=int, help="k (default: the rule's own)")
    parser.add_argument(
        "--missing",
        choices=[p for p in MISSING_POLICIES if p is not None],
        help="apply the rule to the votes cast",
    )
    parser.add_argument("--human", type=Path, help="human labels (generator, item, human): TPR/TNR")
    parser.add_argument(
        "-o", "--output", type=Path, help="write the item labels here (1, 0, empty: no vote)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Vote, print precision per generator (and TPR / TNR against humans), write the labels."""
    from ensemble import (
        default_threshold,
        ensemble_precision,
        ensemble_rates,
        tally_votes,
        vote_judgments,
        vote_matrix,
    )
    from jurycal.io import write_table

    check_outputs([args.judgments, args.human], [args.output])
    with steps(args, ["read"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.human)
        matrix = vote_matrix(judgments)
    tally = tally_votes(matrix)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        series, panel = vote_judgments(judgments, args.rule, args.threshold, args.missing)
    labels = series
    items = matrix.index.get_level_values("generator").value_counts()
    cells = int(sum(items[g] * n for g, n in panel["n_validators"].items()))
    missing_fraction = 1.0 - int(judgments["label"].notna().sum()) / cells
    thresholds = sorted(set(panel["threshold"].tolist()))
    threshold = (
        args.threshold
        if args.threshold is not None
        else thresholds[0]
        if len(thresholds) == 1
        else default_threshold(args.rule, matrix.shape[1])
    )
    precision = ensemble_precision(labels).to_frame()
    partial = panel[panel["absent"] != ""]
    lines = [
        f"rule {args.rule}, threshold {threshold}"
        + (" (the rule's default)" if args.threshold is None else "")
        + f", missing votes: "
        f"{'ignored (fraction of votes cast)' if args.missing else 'count as neither'}",
        f"{len(matrix)} items x {matrix.shape[1]} validators; "
        f"{missing_fraction:.1%} of the present validators' votes missing; "
        f"{tally.n_no_vote} item(s) with no vote",
    ]
    if len(partial):
        lines += [
            "validators absent for a generator (they judged none of its items) are left out "
            "for it, not counted as missing votes; each generator is voted among the "
            "validators present"
            + (
                ", with the rule's default threshold for their number:"
                if args.threshold is None
                else ":"
            ),
            partial.to_string(),
        ]
    lines += [
        "",
        "precision per generator (fraction labelled valid; Wilson 95% interval, item sampling only):",
        precision.to_string(float_format=lambda v: f"{v:.4f}"),
    ]
    payload: dict[str, Any] = {
        "rule": args.rule,
        "threshold": threshold,
        "threshold_is_default": args.threshold is None,
        "missing": args.missing,
        "missing_fraction": missing_fraction,
        "n_no_vote": tally.n_no_vote,
        "validators_present": panel,
        "precision": precision,
        "warnings": [str(w.message) for w in caught],
    }
    if human is not None:
        rates = ensemble_rates(labels, human).to_frame()
        rates.index.name = "rate"
        lines += ["", "against human labels:", rates.to_string(float_format=lambda v: f"{v:.4f}")]
        payload["rates"] = rates
    lines += [f"warning: {w.message}" for w in caught]
    if args.output is not None:
        table = pd.Series(labels, index=matrix.index, name="label").reset_index()
        table["label"] = table["label"].astype("Int8")
        write_table(table, args.output)
        lines.append(f"item labels written to {args.output}")
        payload["output"] = str(args.output)
    emit(args, "\n".join(lines), payload)
    return 0
