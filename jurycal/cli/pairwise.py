"""``jurycal rank VERDICTS [HUMAN]``: a leaderboard of win rates from pairwise verdicts.

``rank`` tells its input by its columns (:func:`pairwise_inputs`): a table with
``generator_a`` and ``generator_b`` holds pairwise verdicts (``item,
generator_a, generator_b, validator, verdict`` and optionally ``position``;
:mod:`regression.pairwise`) and is ranked here, with the human votes
(``item, generator_a, generator_b, human``) when given; a judgments table goes
to the latent-trait fit of :mod:`jurycal.cli.latent`. Without human votes the
win rates are the judges' own, uncorrected, with no interval and no rank set.

This module imports nothing heavy: ``jurycal rank --help`` loads it.
"""

from __future__ import annotations

import argparse
import textwrap
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import TABLE_FILE, check_files, emit, plot_path, positive_int, save_plot
from jurycal.cli.errors import located

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PAIR_COLUMNS",
    "add_rank_arguments",
    "pairwise_inputs",
    "read_pairwise",
    "run_pairwise_rank",
]

#: The columns that make a table pairwise verdicts rather than judgments.
PAIR_COLUMNS = ("generator_a", "generator_b")
# The default rows of the board printed (regression.ranking.board.SHOWN, spelt here: --help is light)
_TOP = 20
# rank's options that set the latent-trait fit; a pairwise table refuses them rather than ignore them
_FIT_OPTIONS = (
    "calibration",
    "shared_items",
    "transfer_bias",
    "estimator",
    "loss",
    "backend",
    "restarts",
    "n_boot",
    "pairs",
    "one_at_a_time",
)


def add_rank_arguments(parser: argparse.ArgumentParser) -> None:
    """``rank``'s two files (HUMAN optional for pairwise verdicts), ``--estimand`` and ``--top``."""
    parser.add_argument(
        "judgments",
        type=Path,
        metavar="JUDGMENTS",
        help="the validators' votes (generator, item, validator, label), or the judges' pairwise "
        f"verdicts (item, generator_a, generator_b, validator, verdict[, position]): {TABLE_FILE}",
    )
    parser.add_argument(
        "human",
        type=Path,
        nargs="?",
        metavar="HUMAN",
        help="human labels (generator, item, human), or human votes on battles (item, "
        "generator_a, generator_b, human); optional with pairwise verdicts (without it, the "
        f"judges' own win rates, uncorrected): {TABLE_FILE}",
    )
    parser.add_argument(
        "--estimand",
        default=None,
        metavar="{win_rate,bradley_terry}",
        help="pairwise verdicts only: win_rate (default), each generator's mean score over its "
        "battles (a win 1, a tie 1/2), or bradley_terry strengths",
    )
    parser.add_argument(
        "--top",
        type=positive_int,
        default=_TOP,
        metavar="N",
        help=f"rows of the leaderboard printed and put on the card (default {_TOP}); --json "
        "gives every row",
    )
    pairwise = (
        "Pairwise verdicts: a JUDGMENTS file with generator_a and generator_b holds the judges' "
        "verdicts (item, generator_a, generator_b, validator, verdict a / b / tie, optionally "
        "position ab / ba) and is ranked by win rate, with HUMAN the human votes on a sample of "
        "the battles (item, generator_a, generator_b, human): prediction-powered, the judges "
        "sharpening the votes (docs/pairwise.md). Without HUMAN, the judges' own win rates, "
        "uncorrected, with no interval and no rank set."
    )
    parser.description = f"{parser.description}\n\n{textwrap.fill(pairwise, 79)}"
    parser.epilog = (
        f"{parser.epilog}\n  jurycal rank verdicts.csv human.csv --report arena.md"
        "\n  jurycal rank verdicts.csv --json"
    )


def pairwise_inputs(args: argparse.Namespace) -> bool:
    """Whether ``rank``'s first file is pairwise verdicts (it has :data:`PAIR_COLUMNS`).

    Reads only the file's header. A judgments table needs HUMAN and takes no
    ``--estimand``: refused here, before any work.

    Raises
    ------
    ValueError
        A judgments table without HUMAN, or with ``--estimand``; a file that
        cannot be read (naming it).
    """
    from jurycal.io import table_columns

    check_files([args.judgments, args.human])
    if set(PAIR_COLUMNS) <= set(table_columns(args.judgments)):
        return True
    if args.human is None:
        raise ValueError(
            f"rank of the judgments file {str(args.judgments)!r} needs HUMAN, the human labels "
            "(generator, item, human). Only pairwise verdicts (item, generator_a, generator_b, "
            "validator, verdict) may be ranked without them."
        )
    if args.estimand is not None:
        raise ValueError(
            f"--estimand sets the estimate from pairwise verdicts; {str(args.judgments)!r} is a "
            "judgments file (generator, item, validator, label), ranked by precision."
        )
    return False


def _refuse_fit_options(args: argparse.Namespace) -> None:
    given = [name for name in _FIT_OPTIONS if getattr(args, name, None) not in (None, False)]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        raise ValueError(
            f"{options} set(s) the fit of a judgments table; {str(args.judgments)!r} holds "
            "pairwise verdicts, ranked by win rate with --estimand, --alpha, --seed, --top, "
            "--report and --plot (every pair's difference and decision is in the JSON's pairs)."
        )


def read_pairwise(
    verdicts_path: Path, human_path: Path | None
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The verdicts and the human votes (when given), read as every command reads (names as
    text, items of one type); their verdict words are left to the library's one check.

    Raises
    ------
    ValueError
        A file that cannot be read, a missing column, no rows (naming the file), or the two
        files given the wrong way round.
    """
    from jurycal.cli.reading import read_input, same_item_type
    from jurycal.io import table_columns
    from regression.pairwise import HUMAN_VERDICT_COLUMNS, VERDICT_COLUMNS

    columns = table_columns(verdicts_path)
    if "human" in columns and "verdict" not in columns:  # the two files given the wrong way
        raise ValueError(
            f"{str(verdicts_path)!r} holds human votes (a human column, no verdict): give the "
            "judges' verdicts first, then the human votes: jurycal rank VERDICTS HUMAN."
        )
    # the verdict words are checked once, by the library (check_labels=False: "human" is a
    # label column of the judgments form, here a verdict word)
    verdicts = read_input(verdicts_path, "verdicts file", VERDICT_COLUMNS, check_labels=False)
    if human_path is None:
        return verdicts, None
    human = read_input(human_path, "human-vote file", HUMAN_VERDICT_COLUMNS, check_labels=False)
    verdicts, human = same_item_type(verdicts, human)
    return verdicts, human


def _fit(
    args: argparse.Namespace, verdicts: pd.DataFrame, human: pd.DataFrame | None, estimand: str
) -> Any:
    """The pairwise fit, an input error placed at its file's line.

    Both tables share the key columns (item, generator_a, generator_b), so the
    column alone cannot say which file an error is in: the verdicts are checked
    alone first, and an error after that is the human file's.
    """
    from regression.pairwise import VERDICT_COLUMNS, PairwiseModel, check_pairwise

    with located([(args.judgments, "verdicts file", (*VERDICT_COLUMNS, "position"))]):
        check_pairwise(verdicts)
    model = PairwiseModel(estimand=estimand, seed=args.seed)
    columns = ("human", "inclusion_probability", *PAIR_COLUMNS, "item")
    where = [(args.human, "human-vote file", columns)] if args.human is not None else []
    with warnings.catch_warnings(), located(where):
        warnings.simplefilter("ignore")  # every warning is on the result, printed by emit
        return model.fit_table(verdicts, human)


def run_pairwise_rank(args: argparse.Namespace) -> int:
    """Fit the pairwise verdicts; print the leaderboard, the judges and what the intervals cover."""
    _refuse_fit_options(args)
    if args.human is None and plot_path(args) is not None:
        raise ValueError(
            "--plot draws the leaderboard's intervals and rank sets, and without HUMAN (the human "
            "votes) there are none: give the human votes, or leave out --plot."
        )
    check_files([args.judgments, args.human], [plot_path(args)], card=args.report)
    from jurycal.cli.common import summary_text
    from jurycal.report import (
        Report,
        add_pairwise_leaderboard,
        pairwise_board,
        pairwise_plot,
        pairwise_summary,
    )

    estimand = args.estimand or "win_rate"
    verdicts, human = read_pairwise(args.judgments, args.human)
    result = _fit(args, verdicts, human, estimand)
    board = pairwise_board(result, args.alpha, seed=args.seed)
    if board is None and plot_path(args) is not None:
        raise ValueError(
            "--plot: fewer than two generators have enough human votes (three) for an interval, "
            "so there is no leaderboard to draw."
        )
    summary = pairwise_summary(result, board, args.alpha, top=args.top, estimand=estimand)
    written: list[Path] = []
    if args.report is not None:
        card = Report("jurycal report card: leaderboard from pairwise verdicts")
        add_pairwise_leaderboard(
            card, result, board, alpha=args.alpha, top=args.top, estimand=estimand
        )
        written += card.write(args.report)
    plot = None
    if board is not None and plot_path(args) is not None:
        plot = save_plot(args, pairwise_plot(board, estimand))
        written += [plot] if plot is not None else []
    payload = _payload(args, result, board, plot, estimand)
    emit(args, summary_text(summary), payload, warnings=result.warnings, written=written)
    return 0


def _payload(
    args: argparse.Namespace, result: Any, board: Any, plot: Path | None, estimand: str
) -> dict[str, Any]:
    """The JSON: every generator's row, the pairs, the judges, what the intervals cover."""
    from jurycal.report import pairwise_rows

    rows = pairwise_rows(result, board, args.alpha)
    return {
        "method": result.method,
        "estimand": estimand,
        "covers": result.covers,
        "alpha": args.alpha,
        "leaderboard": rows,
        "pairs": board.pairs if board is not None else [],
        "pairs_level": board.procedure if board is not None else None,
        "could_be_best": list(rows.index[rows["could_be_best"].eq(True)]),  # None: no rank set
        "judges": result.diagnostics(),
        "n_battles": result.table.n_battles,
        "n_labels": result.table.n_labels,
        "warnings": list(result.warnings),
        "plot": plot,
    }
