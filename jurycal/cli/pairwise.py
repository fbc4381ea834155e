"""``jurycal rank VERDICTS [HUMAN]``: a leaderboard of win rates from pairwise verdicts.

``rank`` tells its input by its columns (:func:`pairwise_inputs`, by the rule of
:func:`jurycal.cli.reading.is_pairwise`, as ``report``, ``suggest`` and ``plan``
do): a table with ``generator_a`` and ``generator_b`` holds pairwise verdicts (``item,
generator_a, generator_b, validator, verdict`` and optionally ``position``;
:mod:`regression.pairwise`) and is ranked here, with the human votes
(``item, generator_a, generator_b, human``) when given; a judgments table goes
to the latent-trait fit of :mod:`jurycal.cli.latent`. Without human votes the
win rates are the judges' own, uncorrected, with no interval and no rank set.
``jurycal report VERDICTS HUMAN -o CARD`` writes the card ``rank --report``
writes, by the same code (:func:`fit_pairwise`, :func:`write_pairwise_card`).

This module imports nothing heavy: ``jurycal rank --help`` loads it.
"""

from __future__ import annotations

import argparse
import textwrap
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.common import TABLE_FILE, check_files, emit, plot_path, positive_int, save_plot
from jurycal.cli.errors import Source, located
from jurycal.cli.ranking import asked_pairs, pairs_text
from jurycal.cli.reading import is_pairwise

if TYPE_CHECKING:
    import pandas as pd

    from jurycal.report import Report
    from regression.ranking import Leaderboard
    from regression.results import Summary

__all__ = [
    "add_rank_arguments",
    "fit_pairwise",
    "add_board_options",
    "pairwise_inputs",
    "pairwise_sources",
    "read_pairwise",
    "run_pairwise_rank",
    "write_pairwise_card",
]

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
    add_board_options(parser, top=_TOP)
    pairwise = (
        "Pairwise verdicts: a JUDGMENTS file with generator_a and generator_b holds the judges' "
        "verdicts (item, generator_a, generator_b, validator, verdict a / b / tie, optionally "
        "position ab / ba) and is ranked by win rate, with HUMAN the human votes on a sample of "
        "the battles (item, generator_a, generator_b, human): prediction-powered, the judges "
        "sharpening the votes (docs/pairwise.md); --pairs and --one-at-a-time as for "
        "judgments. Without HUMAN, the judges' own win rates, uncorrected, with no interval and "
        "no rank set."
    )
    parser.description = f"{parser.description}\n\n{textwrap.fill(pairwise, 79)}"
    parser.epilog = (
        f"{parser.epilog}\n  jurycal rank verdicts.csv human.csv --report arena.md"
        "\n  jurycal rank verdicts.csv --json"
    )


def add_board_options(parser: argparse.ArgumentParser, *, top: int | None) -> None:
    """``--estimand`` and ``--top``, the options of a pairwise leaderboard (``rank``, ``report``).

    ``top``: ``--top``'s default (None: the command tells it given or not, and uses
    the default rows of the board where it is not).
    """
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
        default=top,
        metavar="N",
        help=f"rows of the leaderboard printed and put on the card (default {_TOP}); --json "
        "gives every row",
    )


def pairwise_inputs(args: argparse.Namespace) -> bool:
    """Whether ``rank``'s first file is pairwise (:func:`jurycal.cli.reading.is_pairwise`).

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
    if is_pairwise(table_columns(args.judgments)):
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
            "pairwise verdicts, ranked by win rate with --estimand, --alpha, --seed, --pairs, "
            "--one-at-a-time, --top, --report and --plot."
        )


def read_pairwise(
    verdicts_path: Path, human_path: Path | None, usage: str
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The verdicts and the human votes (when given), read as every command reads (names as
    text, items of one type); their verdict words are left to the library's one check.

    ``usage`` is the command's form (``jurycal rank VERDICTS HUMAN``), said when
    the human votes are given where the verdicts belong.

    Raises
    ------
    ValueError
        A file that cannot be read, a missing column, no rows (naming the file), or the
        human votes given in place of the verdicts.
    """
    from jurycal.cli.reading import read_input, same_item_type
    from jurycal.io import table_columns
    from regression.pairwise import HUMAN_VERDICT_COLUMNS, VERDICT_COLUMNS

    columns = table_columns(verdicts_path)
    if "human" in columns and "verdict" not in columns:  # the two files given the wrong way
        raise ValueError(
            f"{str(verdicts_path)!r} holds human votes (a human column, no verdict): give the "
            f"judges' verdicts first, then the human votes: {usage}."
        )
    # the verdict words are checked once, by the library (check_labels=False: "human" is a
    # label column of the judgments form, here a verdict word)
    verdicts = read_input(verdicts_path, "verdicts file", VERDICT_COLUMNS, check_labels=False)
    if human_path is None:
        return verdicts, None
    human = read_input(human_path, "human-vote file", HUMAN_VERDICT_COLUMNS, check_labels=False)
    verdicts, human = same_item_type(verdicts, human)
    return verdicts, human


def pairwise_sources(verdicts_path: Path, human_path: Path | None) -> list[Source]:
    """The verdicts and human-vote files for :func:`jurycal.cli.errors.located`.

    The library names the table of each error (``"verdicts"``, ``"human votes"``:
    :func:`regression.pairwise.check_pairwise`), which places it: the two tables
    share their key columns, so a column alone could not.
    """
    from regression.pairwise import HUMAN_VERDICT_COLUMNS, VERDICT_COLUMNS

    sources = [Source(verdicts_path, "verdicts file", (*VERDICT_COLUMNS, "position"), "verdicts")]
    if human_path is not None:
        columns = (*HUMAN_VERDICT_COLUMNS, "inclusion_probability")
        sources.append(Source(human_path, "human-vote file", columns, "human votes"))
    return sources


def fit_pairwise(
    verdicts_path: Path,
    human_path: Path | None,
    *,
    estimand: str,
    alpha: float,
    seed: int,
    top: int,
    usage: str,
) -> tuple[Any, Leaderboard | None, Summary]:
    """Read, check (once) and fit the pairwise files: the result, its board and its summary.

    The board is None without human votes, or with fewer than two generators
    voted enough for an interval (:func:`regression.pairwise.board.pairwise_board`). An input
    error is placed at its file's line.
    """
    from regression.pairwise import PairwiseModel
    from regression.pairwise.board import pairwise_board, pairwise_summary

    verdicts, human = read_pairwise(verdicts_path, human_path, usage)
    model = PairwiseModel(estimand=estimand, seed=seed)
    with warnings.catch_warnings(), located(pairwise_sources(verdicts_path, human_path)):
        warnings.simplefilter("ignore")  # every warning is on the result, printed by emit
        result = model.fit_table(verdicts, human)
    board = pairwise_board(result, alpha, seed=seed)
    summary = pairwise_summary(result, board, alpha, top=top, estimand=estimand)
    return result, board, summary


def write_pairwise_card(
    path: Path,
    result: Any,
    board: Leaderboard | None,
    summary: Summary,
    *,
    alpha: float,
    estimand: str,
    top: int,
    figure: Any = None,
) -> tuple[Report, list[Path]]:
    """The card of a pairwise leaderboard (``rank --report`` and ``report``), written at ``path``.

    ``summary`` and ``figure`` are the caller's (built once, both with ``top``); without a
    figure the card draws the board's top ``top``.
    """
    from jurycal.report import Report, add_pairwise_leaderboard

    card = Report("jurycal report card: leaderboard from pairwise verdicts")
    add_pairwise_leaderboard(
        card,
        result,
        board,
        alpha=alpha,
        top=top,
        estimand=estimand,
        summary=summary,
        figure=figure,
    )
    return card, card.write(path)


def run_pairwise_rank(args: argparse.Namespace) -> int:
    """Fit the pairwise verdicts; print the leaderboard, the judges and what the intervals cover."""
    _refuse_fit_options(args)
    asked = args.pairs or args.one_at_a_time
    needs_board = [
        ("--plot", plot_path(args) is not None),
        ("--pairs", bool(args.pairs)),
        ("--one-at-a-time", args.one_at_a_time),
    ]
    given = [option for option, on in needs_board if on]
    if args.human is None and given:
        raise ValueError(
            f"{given[0]} needs the leaderboard's intervals, and without HUMAN (the human votes) "
            f"there are none: give the human votes, or leave out {given[0]}."
        )
    check_files([args.judgments, args.human], [plot_path(args)], card=args.report)
    from jurycal.cli.common import summary_text
    from jurycal.report import pairwise_plot

    estimand = args.estimand or "win_rate"
    result, board, summary = fit_pairwise(
        args.judgments,
        args.human,
        estimand=estimand,
        alpha=args.alpha,
        seed=args.seed,
        top=args.top,
        usage="jurycal rank VERDICTS HUMAN",
    )
    if board is None and (plot_path(args) is not None or asked):
        raise ValueError(
            "fewer than two generators have an interval (three human votes on battles the draw "
            "reached), so there is no leaderboard to draw (--plot) or compare (--pairs, "
            "--one-at-a-time)."
        )
    pairs: Any = []  # without a board (no human votes): no pair table
    level = None
    if board is not None:
        on_board = "the leaderboard (a generator with fewer than three human votes is not on it)"
        pairs, level = asked_pairs(args, board, on_board)
    # the figure is drawn once, for the card and for --plot
    figure = None
    if board is not None and (args.report is not None or plot_path(args) is not None):
        figure = pairwise_plot(board, estimand, top=args.top)
    written: list[Path] = []
    if args.report is not None:
        written += write_pairwise_card(
            args.report,
            result,
            board,
            summary,
            alpha=args.alpha,
            estimand=estimand,
            top=args.top,
            figure=figure,
        )[1]
    plot = save_plot(args, figure) if figure is not None and plot_path(args) is not None else None
    written += [plot] if plot is not None else []
    payload = _payload(args, result, board, plot, estimand, (pairs, level))
    text = summary_text(summary) + (pairs_text(args, pairs, level) if level else "")
    emit(args, text, payload, warnings=result.warnings, written=written)
    return 0


def _payload(
    args: argparse.Namespace,
    result: Any,
    board: Any,
    plot: Path | None,
    estimand: str,
    pairs: tuple[Any, str | None],
) -> dict[str, Any]:
    """The JSON: every generator's row, the pairs and their level (the board's step-down
    decisions, or those asked for), the judges, what the intervals cover."""
    from regression.pairwise.board import pairwise_rows

    rows = pairwise_rows(result, board, args.alpha)
    return {
        "method": result.method,
        "estimand": estimand,
        "covers": result.covers,
        "alpha": args.alpha,
        "leaderboard": rows,
        "pairs": pairs[0],
        "pairs_level": pairs[1],
        "could_be_best": list(rows.index[rows["could_be_best"].eq(True)]),  # None: no rank set
        "judges": result.diagnostics(),
        "n_battles": result.table.n_battles,
        "n_labels": result.table.n_labels,
        "warnings": list(result.warnings),
        "plot": plot,
    }
