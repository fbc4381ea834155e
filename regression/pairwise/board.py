"""The leaderboard of a pairwise fit: its rankable generators, every generator's row, its summary.

A generator with too few human votes for an interval has no place in the
joint error's ranking, so :func:`pairwise_board` ranks the others
(:func:`regression.ranking.leaderboard`) and :func:`pairwise_rows` lists it
after them, unranked; without human votes there is no board, and the rows are
the judges' own win rates. :func:`pairwise_summary` is the report of both
(the report card, the terminal and the JSON of ``jurycal rank`` show it).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from regression.ranking import Leaderboard, leaderboard
from regression.results import Summary

if TYPE_CHECKING:
    from regression.pairwise.result import PairwiseResult

__all__ = [
    "PAIRWISE_COLUMNS",
    "PAIRWISE_QUANTITIES",
    "pairwise_board",
    "pairwise_rows",
    "pairwise_summary",
    "position_bias",
    "quantity_name",
]


#: What each pairwise estimand (``PairwiseModel(estimand=...)``) is called on the card, the
#: terminal and the figure's axis.
PAIRWISE_QUANTITIES = {"win_rate": "win rate", "bradley_terry": "Bradley-Terry strength"}
#: The columns of a pairwise leaderboard on the card and the terminal (the JSON has every column).
PAIRWISE_COLUMNS = (
    "rank",
    "estimate",
    "low",
    "high",
    "low_rank",
    "high_rank",
    "n_labels",
    "judges_worth",
)


def pairwise_board(
    result: PairwiseResult, alpha: float = 0.05, *, seed: int = 0
) -> Leaderboard | None:
    """The leaderboard of a pairwise fit (:class:`regression.pairwise.PairwiseModel`), or None.

    The generators with an estimate and an interval are ranked, from the
    result's joint error (:func:`regression.ranking.leaderboard`), their worst
    ranks allowing for those without; one with too few human votes for an
    interval is left off the board (:func:`pairwise_rows` lists it, unranked).
    None where fewer than two can be ranked (no human votes: the judges' own
    win rates have no interval).
    """
    if result.method == "mean_of_judges":  # no human votes: no joint error, nothing to rank
        return None
    joint = result.joint_error()
    variance = np.diag(joint.covariance.to_numpy())
    kept = (joint.estimate.notna() & np.isfinite(variance)).to_numpy()
    if kept.sum() < 2:
        return None
    # ranked among all: a generator without an interval could lie above or below each other one
    board = leaderboard(result, alpha, seed=seed, joint=joint)
    return dataclasses.replace(board, table=board.table[board.table["reason"] == ""])


def pairwise_rows(
    result: PairwiseResult, board: Leaderboard | None, alpha: float = 0.05
) -> pd.DataFrame:
    """Every generator of a pairwise fit, best first: the board's columns, ``n_battles`` and
    ``judges_worth`` (the human votes the judges are worth to its interval).

    A generator off the board (too few votes) comes last with no rank; without
    a board the generators are in order of their estimates, with no rank set:
    with no human votes the judges' own win rates, ranked so, with no interval;
    with votes that give fewer than two generators an interval, unranked.
    """
    frame = result.to_frame(alpha)
    extra = frame.reindex(columns=["n_battles", "judges_worth"])
    # a vote is whole: the worth to a tenth, not the float noise of a ratio of variances
    extra["judges_worth"] = extra["judges_worth"].round(1)
    if board is None:
        table = frame[["estimate", "low", "high"]].sort_values("estimate", ascending=False)
        # the judges' own order ranks; with human votes, one interval ranks nothing
        judges_only = result.method == "mean_of_judges"
        table["rank"] = np.arange(1, len(table) + 1) if judges_only else pd.NA
        table["low_rank"] = table["high_rank"] = pd.NA
        table["could_be_best"] = None
        table["n_labels"] = frame["n_labels"]
    else:
        off = frame.index.difference(board.table.index, sort=False)
        table = board.table
        if len(off):
            table = pd.concat([table, frame.loc[off, ["estimate", "low", "high", "n_labels"]]])
    ranks = ["rank", "low_rank", "high_rank", "n_labels"]
    return table.astype({c: "Int64" for c in ranks}).join(extra)


def pairwise_summary(
    result: PairwiseResult,
    board: Leaderboard | None,
    alpha: float = 0.05,
    *,
    top: int = 20,
    estimand: str = "win_rate",
) -> Summary:
    """A leaderboard from pairwise verdicts: the board, the decided pairs and the judges.

    The board's own summary (its top ``top`` rows and notes, :meth:`Leaderboard.summary`)
    with :data:`PAIRWISE_COLUMNS` of :func:`pairwise_rows`, the judges'
    diagnostics beside the human voters' (``result.diagnostics()``) and how
    many battles have a human vote. Without a board (no human votes), the
    judges' own estimates, marked uncorrected. ``estimand`` names the quantity
    (:data:`PAIRWISE_QUANTITIES`).
    """
    quantity = quantity_name(estimand)

    table = result.table
    rows = pairwise_rows(result, board, alpha)
    drawn = "drawn with the inclusion probabilities given" if table.weighted else "a uniform sample"
    votes = (
        f"{table.n_labels:,} of {table.n_battles:,} battles have a human vote"
        + (f" ({drawn})" if table.n_labels else "")
        + f"; {len(table.validators)} judge(s) gave {int(np.sum(~np.isnan(table.score))):,} "
        "verdicts."
    )
    columns = (
        "n_labels: a generator's battles with a human vote; judges_worth: the human votes the "
        "judges are worth to its interval (0: they add nothing). Judges: first_shown_rate is "
        "the share of a judge's decisive verdicts for the answer shown first (0.5: no position "
        "bias), agreement the share of its verdicts on voted battles equal to the human vote."
    )
    judges, biased = position_bias(result.diagnostics(), alpha)
    if board is None and result.method != "mean_of_judges":
        # human votes, but fewer than two generators with an interval: nothing to rank
        given = int(rows["low"].notna().sum())
        notes = (
            f"{given} generator(s) have an interval, so there is no leaderboard to rank: a "
            "generator needs three human votes on battles the draw reached (the warning names "
            "the others and why).",
            votes,
        )
        tables = {
            f"{quantity}s": rows[["estimate", "low", "high", "n_labels", "n_battles"]],
            "judges": judges,
        }
        title = f"{quantity.capitalize()}s with human votes: too few generators to rank"
        return Summary(title, tables, notes, (*result.warnings, *biased))
    if board is None:
        notes = (
            f"The {quantity}s are the judges' own verdicts, uncorrected for their errors and "
            "position bias: no interval, no rank set. Human votes on a sample of the battles "
            "(HUMAN) give both.",
            votes,
        )
        tables = {
            f"{quantity}s": rows[["rank", "estimate", "n_battles"]].head(top),
            "judges": judges,
        }
        title = f"{quantity.capitalize()}s from the judges' verdicts alone (uncorrected)"
        return Summary(title, tables, notes, (*result.warnings, *biased))
    shown = board.summary(board.alpha, top=top)
    ranked = shown.tables["leaderboard"].index
    unranked = rows.index.difference(board.table.index, sort=False)
    tables = {
        "leaderboard": rows.loc[ranked.append(unranked), list(PAIRWISE_COLUMNS)].assign(
            judges_worth=lambda t: t["judges_worth"].round().astype("Int64")  # whole votes
        ),
        "decided pairs": shown.tables["decided pairs"],
        "judges": judges,
    }
    title = f"Leaderboard from pairwise verdicts: {quantity}s ({board.method})"
    return Summary(title, tables, (*shown.notes, votes, columns), (*shown.warnings, *biased))


def position_bias(judges: pd.DataFrame, alpha: float = 0.05) -> tuple[pd.DataFrame, list[str]]:
    """Which judges favour one position beyond sampling error: their table with a
    ``position_bias`` column, and a warning for each.

    Each judge's decisive verdicts for the answer shown first are tested against a half
    by an exact two-sided binomial test at level ``alpha`` (each judge alone). The counts
    are those behind ``first_shown_rate`` and ``tie_rate`` of ``judges``
    (:meth:`PairwiseResult.diagnostics`): shares of whole numbers, so rounding their
    products gives the counts back exactly.

    Examples
    --------
    >>> judges = pd.DataFrame({"n_verdicts": [100, 100], "tie_rate": [0.0, 0.2],
    ...                        "first_shown_rate": [0.53, 0.8]}, index=["fair", "first"])
    >>> table, warnings = position_bias(judges)
    >>> list(table["position_bias"])
    ['none detected (p = 0.62)', 'first shown (p < 0.001)']
    """
    from scipy import special

    decisive = np.round(judges["n_verdicts"] * (1 - judges["tie_rate"]))
    first = np.round(judges["first_shown_rate"] * decisive)
    column: list[str | None] = []
    warned: list[str] = []
    for name, n, k, share in zip(
        judges.index, decisive, first, judges["first_shown_rate"], strict=True
    ):
        if not (np.isfinite(k) and n > 0):  # the human voters: their order is not recorded
            column.append(None)
            continue
        # the exact two-sided binomial test at a half: twice the smaller tail (the law is
        # symmetric), what scipy.stats.binomtest gives, without loading scipy.stats
        low_tail = special.bdtr(int(k), int(n), 0.5)
        high_tail = special.bdtrc(int(k) - 1, int(n), 0.5) if k > 0 else 1.0
        p = float(min(1.0, 2.0 * min(low_tail, high_tail)))
        said = f"p < {0.001}" if p < 0.001 else f"p = {p:.2g}"
        if p >= alpha:
            column.append(f"none detected ({said})")
            continue
        side = "first" if share > 0.5 else "second"
        column.append(f"{side} shown ({said})")
        warned.append(
            f"judge {name} picks the answer shown {side} in "
            f"{max(share, 1 - share):.1%} of its {int(n):,} decisive verdicts: a position bias "
            f"beyond sampling error (two-sided binomial test against a half, {said}, level "
            f"{alpha:g}). Human votes correct the estimates for it; its verdicts alone do not."
        )
    return judges.assign(position_bias=column), warned


def quantity_name(estimand: str) -> str:
    """What a pairwise estimand is called on a summary and a figure's axis (:data:`PAIRWISE_QUANTITIES`)."""
    return PAIRWISE_QUANTITIES.get(estimand, estimand.replace("_", " "))
