"""``jurycal report``: a report card (Markdown and HTML).

One judge (and with ``--models`` a comparison of two models): the card after
Fiedler's section 7 checklist. Pairwise verdicts and human votes, told by
their columns as ``rank`` tells them (:func:`jurycal.cli.reading.is_pairwise`):
the leaderboard card ``rank --report`` writes, by the same code
(:func:`jurycal.cli.pairwise.fit_pairwise`, :func:`jurycal.cli.pairwise.write_pairwise_card`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from jurycal.cli.common import (
    ALPHA_HELP,
    N_BOOT_HELP,
    TABLE_FILE,
    add_command,
    add_seed,
    alpha_value,
    check_files,
    emit,
    n_boot_value,
    steps,
    summary_text,
)
from jurycal.cli.pairwise import add_board_options
from jurycal.cli.scores import add_scale_option
from regression.registry import SINGLE_JUDGE_DEFAULT, SINGLE_JUDGE_METHODS

__all__ = ["REPORT_HELP", "register", "run"]

# The single-judge options' defaults: None in the parser, so a pairwise card can tell them given
_SINGLE_JUDGE_DEFAULTS = {"method": SINGLE_JUDGE_DEFAULT, "n_boot": 10_000}

#: ``--report``'s help, on every command that writes a card.
REPORT_HELP = (
    "also write a report card: NAME.md (figures NAME-1.png, ... beside it) and NAME.html; "
    "give NAME, NAME.md or NAME.html"
)


def register(subparsers: Any) -> None:
    """Add ``report`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "report",
        description="Without --models: CALIBRATION has human, judge; TEST has judge. With "
        "--models A B: both files also have a model column (TEST an item column when paired), "
        "and the card adds the comparison with Delta J. Pairwise verdicts (item, generator_a, "
        "generator_b, validator, verdict) and human votes (item, generator_a, generator_b, "
        "human) in their place: the leaderboard card of jurycal rank --report (win rates, rank "
        "sets, the judges beside the human voters; --alpha and --seed apply). Judges' scores "
        "(generator, item, validator, score) and human ratings (generator, item, human): the "
        "card of jurycal rank SCORES HUMAN --report (mean ratings, each judge's calibration; "
        "--scale, --alpha and --seed apply).",
        examples=[
            "jurycal report calibration.csv test.csv -o card.md",
            "jurycal report calibration.csv test.csv -o cards/ab --models gpt-4o claude",
            "jurycal report verdicts.csv human.csv -o arena",
            "jurycal report scores.csv ratings.csv -o stories --scale 1 5",
        ],
    )
    # the files of judge / compare, or of a pairwise rank (told by the first file's columns)
    parser.add_argument(
        "calibration",
        type=Path,
        metavar="CALIBRATION",
        help="human-labelled items judged by the judge (human, judge), or the judges' pairwise "
        f"verdicts (item, generator_a, generator_b, validator, verdict): {TABLE_FILE}",
    )
    parser.add_argument(
        "test",
        type=Path,
        metavar="TEST",
        help="the judge's labels on the test items (judge), or the human votes on battles "
        f"(item, generator_a, generator_b, human): {TABLE_FILE}",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="CARD",
        help="the card: NAME.md (figures NAME-1.png, ... beside it) and NAME.html; "
        "give NAME, NAME.md or NAME.html",
    )
    parser.add_argument(
        "--models", nargs=2, metavar=("A", "B"), help="compare these two models (as compare)"
    )
    parser.add_argument(
        "--unpaired",
        action="store_true",
        help="with --models: the two test sets are different items (default: paired on item)",
    )
    parser.add_argument(
        "--method",
        choices=[m for m in SINGLE_JUDGE_METHODS if m != "naive"],
        default=None,
        help=f"the reported estimator (default {SINGLE_JUDGE_DEFAULT})",
    )
    parser.add_argument(
        "--n-boot", type=n_boot_value, default=None, help=f"{N_BOOT_HELP} (default 10,000)"
    )
    add_board_options(parser, top=None)
    add_seed(parser)
    parser.add_argument("--alpha", type=alpha_value, default=0.05, help=ALPHA_HELP)
    add_scale_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Estimate (and compare, with ``--models``) and write the card."""
    check_files([args.calibration, args.test], card=args.output)
    from jurycal.cli.reading import is_pairwise
    from jurycal.cli.scores import is_score_input, refuse_scale, run_score_report
    from jurycal.io import table_columns

    if is_pairwise(table_columns(args.calibration)):
        return _run_pairwise(args)
    if is_score_input(args.calibration):
        return run_score_report(args)
    refuse_scale(args, args.calibration)
    given = [o for o in ("estimand", "top") if getattr(args, o) is not None]
    if given:
        raise ValueError(
            f"--{given[0]} sets a pairwise leaderboard; {str(args.calibration)!r} holds a "
            "single judge's calibration labels (human, judge)."
        )
    for name, default in _SINGLE_JUDGE_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)

    from jurycal.cli.compare import compare_read, read_comparison
    from jurycal.cli.judge import read_single
    from jurycal.report import Report, add_comparison, add_single_judge
    from regression import estimate_prevalence

    card = Report("jurycal report card")
    texts: list[str] = []
    warnings: list[str] = []
    if args.models is None:
        calibration, test = read_single(args.calibration, args.test, None)
        result = estimate_prevalence(calibration, test["judge"], args.alpha, method=args.method)
        add_single_judge(card, result)
        texts.append(summary_text(result.summary(args.alpha)))
        warnings += result.warnings
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
                warnings += [f"{name}: {w}" for w in result.warnings]
            advance("compare (bootstrap)")
            compared = compare_read(args, comparison, shared="pooled")
            add_comparison(card, compared)
            texts.append(summary_text(compared.summary(compared.alpha)))
            warnings += compared.warnings
    written = card.write(args.output)
    emit(
        args,
        "\n\n".join(texts),
        {"written": written, "markdown": card.to_markdown(stem=written[0].stem)},
        warnings=warnings,
        written=written,
    )
    return 0


def _run_pairwise(args: argparse.Namespace) -> int:
    """The leaderboard card of pairwise verdicts (CALIBRATION) and human votes (TEST)."""
    from jurycal.cli.pairwise import fit_pairwise, write_pairwise_card
    from regression.ranking.board import SHOWN

    given = [o for o in ("models", "unpaired", *_SINGLE_JUDGE_DEFAULTS) if getattr(args, o)]
    if given:
        option = "--" + given[0].replace("_", "-")
        raise ValueError(
            f"{option} sets the single-judge estimate; {str(args.calibration)!r} holds pairwise "
            "verdicts, whose card is a leaderboard, set by --estimand, --top, --alpha and --seed."
        )
    estimand = args.estimand or "win_rate"
    top = SHOWN if args.top is None else args.top
    result, board, summary = fit_pairwise(
        args.calibration,
        args.test,
        estimand=estimand,
        alpha=args.alpha,
        seed=args.seed,
        top=top,
        usage="jurycal report VERDICTS HUMAN -o CARD",
    )
    card, written = write_pairwise_card(
        args.output, result, board, summary, alpha=args.alpha, estimand=estimand, top=top
    )
    payload = {"written": written, "markdown": card.to_markdown(stem=written[0].stem)}
    emit(args, summary_text(summary), payload, warnings=result.warnings, written=written)
    return 0
