"""``jurycal vote``: label items by majority, supermajority or minority veto (agreeableness §4)."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import Any

from ensemble.options import MISSING_POLICIES, RULES
from jurycal.cli.common import (
    TABLE_FILE,
    add_command,
    check_files,
    emit,
    positive_int,
    steps,
)
from jurycal.cli.errors import located
from jurycal.cli.reading import (
    read_votes,
    vote_sources,
)

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``vote`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "vote",
        description="JUDGMENTS has columns generator, item, validator, label (1/0/missing).",
        examples=[
            "jurycal vote judgments.csv",
            "jurycal vote judgments.csv --rule minority_veto --threshold 2 --human human.csv",
            "jurycal vote judgments.csv -o item_labels.csv --json",
        ],
    )
    parser.add_argument(
        "judgments", type=Path, metavar="JUDGMENTS", help=f"the validators' votes: {TABLE_FILE}"
    )
    parser.add_argument(
        "--rule", choices=RULES, default="majority", help="the voting rule (default majority)"
    )
    parser.add_argument(
        "--threshold",
        type=positive_int,
        metavar="K",
        help="votes the rule needs, a number of validators (default: the rule's own for the "
        "validators present)",
    )
    parser.add_argument(
        "--missing",
        choices=[policy for policy in MISSING_POLICIES if policy],  # None: the default, no option
        help="ignore: apply the rule to the votes cast (default: a missing vote counts as neither)",
    )
    parser.add_argument(
        "--human",
        type=Path,
        metavar="HUMAN",
        help=f"human labels (generator, item, human) for TPR / TNR / PPV / NPV: {TABLE_FILE}",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="LABELS",
        help="write the item labels here (generator, item, label: 1, 0, empty for no vote)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Vote, print precision per generator (and TPR / TNR against humans), write the labels."""
    check_files([args.judgments, args.human], [args.output])

    import pandas as pd

    from ensemble import (
        default_threshold,
        ensemble_precision,
        ensemble_rates,
        tally_votes,
        vote_judgments,
        vote_matrix,
    )
    from jurycal.io import write_table
    from regression.text_table import text_table

    with steps(args, ["read"]) as advance:
        advance("read")
        judgments, human = read_votes(args.judgments, args.human)
        with located(vote_sources(args.judgments, args.human)):
            matrix = vote_matrix(judgments)
    tally = tally_votes(matrix)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with located(vote_sources(args.judgments, args.human)):
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
        f"{len(matrix):,} items x {matrix.shape[1]:,} validators; "
        f"{missing_fraction:.1%} of the present validators' votes missing; "
        f"{tally.n_no_vote:,} item(s) with no vote",
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
            text_table(partial),
        ]
    lines += [
        "",
        "precision per generator (fraction labelled valid; Wilson 95% interval, item sampling only):",
        text_table(precision),
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
        lines += ["", "against human labels:", text_table(rates)]
        payload["rates"] = rates
    if args.output is not None:
        table = pd.Series(labels, index=matrix.index, name="label").reset_index()
        table["label"] = table["label"].astype("Int8")
        write_table(table, args.output)
    payload["output"] = args.output
    written = [args.output] if args.output is not None else []
    emit(args, "\n".join(lines), payload, warnings=payload["warnings"], written=written)
    return 0
