"""The leaderboard: estimates, marginal intervals, simultaneous rank sets and decided pairs, on the result contract."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import SeedLike, check_alpha
from regression.errors import InputError
from regression.ranking.family import N_DRAWS
from regression.ranking.sets import compare, could_be_best, pair_table, rank_sets, step_down
from regression.results import JointError, Result

__all__ = [
    "DRAW_OPTIONS",
    "PAIR_PROCEDURES",
    "SHOWN",
    "Leaderboard",
    "Ranked",
    "leaderboard",
    "result_joint",
    "winner_first",
]

#: What a leaderboard's pair table shows: the step-down decisions that made the rank sets, or
#: the single-step simultaneous intervals (every pair tested once at the all-pairs critical value).
PAIR_PROCEDURES = ("step-down", "single-step")
#: Rows of the board a summary shows (the top, then the generators asked for).
SHOWN = 20
#: Decided pairs a summary shows at most.
PAIRS_SHOWN = 40


@dataclass(frozen=True)
class Leaderboard(Result):
    """Generators ordered by estimate, with intervals, simultaneous rank sets and decided pairs.

    A :class:`~regression.results.Result`: ``interval``, ``to_frame``,
    ``summary`` (an ``alpha`` other than the board's ranks again from the same
    joint error and seed), ``diagnostics``, ``covers``, ``method``, ``warnings``.

    Attributes
    ----------
    table : DataFrame
        Indexed by generator, best first: ``estimate, low, high`` (the marginal
        interval), ``rank, low_rank, high_rank, could_be_best``, where the
        result's interval has them ``role, n_labels``, and ``reason`` (why a
        generator without an interval holds the full range of ranks;
        :func:`~regression.ranking.rank_sets`).
    pairs : DataFrame
        Every pair of generators with an interval once: ``generator_a, generator_b, estimate, se, var_ratio,
        decided``. With ``procedure="step-down"`` (default) ``decided`` is the
        step-down's decision, the one the rank sets rest on; with
        ``"single-step"`` it is whether the simultaneous interval ``low,
        high`` (two more columns) excludes 0, which decides no more pairs.
    alpha : float
    method : str
        The estimator's name.
    covers : str
        What the joint error accounts for.
    procedure : str
        One of :data:`PAIR_PROCEDURES`: what ``pairs["decided"]`` shows.
    n_draws : int
        The draws of the joint error behind the critical values.
    level_error : float
        The Monte Carlo standard deviation of the family-wise level those
        draws hold (:func:`~regression.ranking.family.level_error`).
    """

    table: pd.DataFrame
    pairs: pd.DataFrame
    alpha: float
    method: str
    covers: str
    procedure: str = "step-down"
    source: Any = field(default=None, repr=False, compare=False)
    joint: JointError | None = field(default=None, repr=False, compare=False)
    seed: SeedLike = field(default=0, repr=False, compare=False)
    n_draws: int = N_DRAWS
    level_error: float = float("nan")

    SUMMARY_OPTIONS: ClassVar[tuple[str, ...]] = ("top", "generators")
    ESTIMATES: ClassVar[str] = "leaderboard"

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings of the result ranked."""
        return tuple(getattr(self.source, "warnings", ()))

    def at(self, alpha: float) -> Leaderboard:
        """This board at level ``alpha`` (itself when ``alpha`` is its own)."""
        if alpha == self.alpha:
            return self
        if self.source is None:
            raise ValueError(
                f"this leaderboard was built at alpha = {self.alpha} without its result; "
                "build it again with leaderboard(result, alpha)."
            )
        return leaderboard(
            self.source,
            alpha,
            seed=self.seed,
            joint=self.joint,
            pairs=self.procedure,
            n_draws=self.n_draws,
        )

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        return f"Leaderboard ({self.method})"

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """The result's marginal intervals, best first (``result.interval``).

        Raises
        ------
        ValueError
            A level other than the board's on a board built without its result.
        """
        alpha = check_alpha(alpha)
        if self.source is None:
            if alpha != self.alpha or alternative != "two-sided":
                raise ValueError(
                    f"this leaderboard was built at alpha = {self.alpha} without its result; "
                    "build it again with leaderboard(result, alpha)."
                )
            return self.table[["estimate", "low", "high"]].assign(method=self.method)
        table = self.source.interval(alpha, alternative=alternative)
        return table.loc[self.table.index]

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """The rank sets at ``alpha`` (the board's own, or ranked again from the same joint error),
        and why a generator has the full range where it has no interval (``reason``)."""
        table = self.at(alpha).table
        return table[["rank", "low_rank", "high_rank", "could_be_best", "reason"]]

    def to_frame(self, alpha: float = 0.05, **options: Any) -> pd.DataFrame:
        """One row per generator, best first: the interval and the rank set.

        ``top`` (default :data:`SHOWN`; None: all, as :attr:`table`): the top rows only;
        ``generators``: rows shown wherever they rank (the keywords :meth:`summary` takes).
        """
        top, generators = options.pop("top", SHOWN), options.pop("generators", ())
        frame = super().to_frame(alpha, **options)
        return frame.loc[self.at(alpha).shown(top, generators).index]

    def diagnostics(self) -> pd.DataFrame:
        """The ranked result's own checks (the joint error rests on them)."""
        if self.source is None or not hasattr(self.source, "diagnostics"):
            return pd.DataFrame()
        return self.source.diagnostics()

    def decided(self) -> pd.DataFrame:
        """Generators x generators, best first: +1 where the row is decided above the column, -1 below, 0 undecided."""
        order = pd.Index(self.table.index)
        g = len(order)
        a = order.get_indexer(self.pairs["generator_a"])
        b = order.get_indexer(self.pairs["generator_b"])
        sign = np.select(
            [self.pairs["decided"] == "a higher", self.pairs["decided"] == "b higher"], [1, -1], 0
        )
        matrix = np.zeros((g, g), dtype=int)
        matrix[a, b] = sign
        matrix[b, a] = -sign
        return pd.DataFrame(matrix, index=order, columns=order).rename_axis(
            index="generator", columns="versus"
        )

    def shown(self, top: int | None = SHOWN, generators: Iterable[Any] = ()) -> pd.DataFrame:
        """The top ``top`` rows of the board (all when None) and the rows of ``generators``, best first."""
        named = list(generators)
        for name in named:
            if name not in self.table.index:
                raise InputError(
                    f"generator {name!r} is not on this leaderboard; its generators are "
                    f"{list(self.table.index)[:10]}{' ...' if len(self.table) > 10 else ''}.",
                    value=name,
                )
        if top is None or top >= len(self.table):
            return self.table
        keep = np.zeros(len(self.table), dtype=bool)
        keep[:top] = True
        keep |= self.table.index.isin(named)
        return self.table[keep]

    def summary_tables(
        self, alpha: float, *, top: int | None = SHOWN, generators: Iterable[Any] = ()
    ) -> dict[str, pd.DataFrame]:
        """The decided pairs between the rows shown (of those named, on a large board).

        Each pair reads winner first (``higher``, ``lower``, their ``difference``
        and its ``se``; with the single-step procedure, the difference's
        simultaneous interval ``low, high``), the largest difference first:
        :func:`winner_first`.
        """
        board = self.at(alpha)
        named = list(generators)
        rows = board.shown(top, named)
        decided = board.pairs[board.pairs["decided"] != "undecided"]
        pairs = winner_first(decided[board._between(decided, rows, named)])
        return {"decided pairs": pairs.head(PAIRS_SHOWN)}

    def _between(self, decided: pd.DataFrame, rows: pd.DataFrame, named: list[Any]) -> pd.Series:
        """Which decided pairs a summary shows: between ``rows``, or of ``named`` on a large board."""
        if named and len(rows) < len(self.table):  # a large board: the pairs of those named
            return decided["generator_a"].isin(named) | decided["generator_b"].isin(named)
        return decided["generator_a"].isin(rows.index) & decided["generator_b"].isin(rows.index)

    def summary_notes(
        self, alpha: float, *, top: int | None = SHOWN, generators: Iterable[Any] = ()
    ) -> tuple[str, ...]:
        """The level, who could be the best, the pairs decided, what is shown."""
        board = self.at(alpha)
        named = list(generators)
        rows = board.shown(top, named)
        best = [str(g) for g in board.table.index[board.table["could_be_best"]]]
        decided = board.pairs[board.pairs["decided"] != "undecided"]
        level = f"{1 - board.alpha:.0%}"
        how = (
            "the step-down decisions the rank sets rest on"
            if board.procedure == "step-down"
            else "single-step: each pair's simultaneous interval excludes 0 (the step-down, "
            "which made the rank sets, may decide more)"
        )
        notes = [
            f"{level} marginal intervals; rank sets (1 = the highest estimate) hold for every "
            f"generator at once with probability {level} (step-down over the pairwise "
            "differences, Mogstad, Romano, Shaikh and Wilhelm 2024).",
            f"Could be the best: {_names(best)}.",
            f"{len(decided)} of {len(board.pairs)} pairs decided ({how}). The joint error "
            f"covers {board.covers}.",
            f"The family-wise level the critical values hold: {board.alpha:.0%}, with a Monte "
            f"Carlo standard error of {100 * board.level_error:.2f} points ({board.n_draws:,} "
            "draws of the joint error).",
        ]
        reason = board.table.get("reason", pd.Series("", index=board.table.index))
        unranked = board.table[reason != ""]
        if len(unranked):
            notes.append(
                f"{len(unranked)} generator(s) without an interval may hold any rank (1 to "
                f"{len(board.table)}; reason: why); each other's worst rank allows for them: "
                f"{_names([str(g) for g in unranked.index])}."
            )
        if len(rows) < len(board.table):
            notes.append(
                f"Shown: the top {top} of {len(board.table)} generators"
                + (f" and {_names([str(g) for g in named])}" if named else "")
                + ", and the decided pairs "
                + ("of those named" if named else "between them")
                + "; the whole board and every pair: jurycal rank --json, or the leaderboard's "
                "table and pairs in Python."
            )
        between = board._between(decided, rows, named)
        if between.sum() > PAIRS_SHOWN:
            notes.append(
                f"Decided pairs shown: the {PAIRS_SHOWN} largest differences of {between.sum()}."
            )
        return tuple(notes)


def winner_first(pairs: pd.DataFrame) -> pd.DataFrame:
    """Decided pairs as a reader scans them: the higher generator first, the largest difference first.

    ``pairs``: rows of :attr:`Leaderboard.pairs` whose ``decided`` is ``"a
    higher"`` or ``"b higher"``. Returns ``higher, lower, difference`` (higher
    minus lower, so positive), the simultaneous ``low, high`` where ``pairs``
    has them (single-step), and ``se``; ties in the difference keep the
    pairs' order.

    Examples
    --------
    >>> pairs = pd.DataFrame({"generator_a": ["x", "y"], "generator_b": ["z", "x"],
    ...                       "estimate": [0.1, -0.3], "se": [0.02, 0.05],
    ...                       "decided": ["a higher", "b higher"]})
    >>> winner_first(pairs)
      higher lower  difference    se
    0      x     y         0.3  0.05
    1      x     z         0.1  0.02
    """
    flip = (pairs["decided"] == "b higher").to_numpy()
    a, b = pairs["generator_a"].to_numpy(), pairs["generator_b"].to_numpy()
    sign = np.where(flip, -1.0, 1.0)
    table = pd.DataFrame(
        {
            "higher": np.where(flip, b, a),
            "lower": np.where(flip, a, b),
            "difference": sign * pairs["estimate"].to_numpy(dtype=float),
        }
    )
    if {"low", "high"} <= set(pairs.columns):  # the interval of b - a is minus that of a - b
        low, high = pairs["low"].to_numpy(dtype=float), pairs["high"].to_numpy(dtype=float)
        table["low"] = np.where(flip, -high, low)
        table["high"] = np.where(flip, -low, high)
    table["se"] = pairs["se"].to_numpy(dtype=float)
    return table.sort_values("difference", ascending=False, kind="stable").reset_index(drop=True)


def _names(names: Sequence[str], most: int = 12) -> str:
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join(names[:most]) + f" and {len(names) - most} more"


def leaderboard(
    result: Any,
    alpha: float = 0.05,
    *,
    seed: SeedLike = 0,
    joint: JointError | None = None,
    pairs: str = "step-down",
    n_draws: int | None = None,
    threads: int = 1,
    **joint_options: Any,
) -> Leaderboard:
    """The leaderboard of any result with ``interval()`` and ``joint_error()``.

    ``joint``: the result's joint error if already built; else
    ``result.joint_error(seed=seed, **joint_options)`` (``joint_options``, e.g.
    ``n_boot`` for a latent-trait fit). ``n_draws``: as :func:`result_joint`
    (where ``joint`` is given, the draws made from its law). The marginal intervals are
    ``result.interval(alpha)``. The rank sets and the pairs share one family of
    draws. ``pairs``: ``"step-down"`` (default) shows the decisions that made
    the rank sets; ``"single-step"`` the simultaneous pair intervals and
    what they decide (:data:`PAIR_PROCEDURES`).
    """
    alpha = check_alpha(alpha)
    if pairs not in PAIR_PROCEDURES:
        raise ValueError(f"pairs ({pairs!r}) must be one of {list(PAIR_PROCEDURES)}.")
    if joint is None:
        joint = result_joint(result, seed, n_draws, joint_options)
    ranks, family, ranked, decided, first = step_down(
        joint, alpha, n_draws=N_DRAWS if n_draws is None else n_draws, seed=seed, threads=threads
    )
    intervals = result.interval(alpha)
    roles = [c for c in ("role", "n_labels") if c in intervals.columns]
    table = ranks.join(intervals[["low", "high", *roles]])
    columns = ["estimate", "low", "high", "rank", "low_rank", "high_rank", "could_be_best"]
    table = table[[*columns, *roles, "reason"]]
    if family is None:
        pair_frame = pd.DataFrame(
            columns=["generator_a", "generator_b", "estimate", "se", "var_ratio", "decided"]
        )
    else:
        pair_frame = pair_table(ranked, family, first)
    if pairs == "step-down" and family is not None:
        half = len(family) // 2
        pair_frame["decided"] = np.where(
            decided[:half], "a higher", np.where(decided[half:], "b higher", "undecided")
        )
        pair_frame = pair_frame.drop(columns=["low", "high"])
    return Leaderboard(
        table=table,
        pairs=pair_frame,
        alpha=alpha,
        method=str(result.method),
        covers=joint.covers,
        procedure=pairs,
        source=result,
        joint=joint,
        seed=seed,
        n_draws=ranks.attrs["n_draws"],
        level_error=ranks.attrs["level_error"],
    )


#: The options of a result's ``joint_error`` that set how many draws it carries: its own draws
#: (a transfer fit), or a bootstrap's replicates (a latent-trait fit).
DRAW_OPTIONS = ("n_draws", "n_boot")


def result_joint(
    result: Any, seed: SeedLike, n_draws: int | None, joint_options: dict[str, Any]
) -> JointError:
    """``result.joint_error(seed=seed, **joint_options)``, carrying ``n_draws`` draws where it makes them.

    ``n_draws`` sets the draws of the joint error behind every critical
    value. A result whose ``joint_error`` makes draws takes it as the option
    of :data:`DRAW_OPTIONS` in its ``JOINT_OPTIONS`` (a transfer fit's
    ``n_draws``; a latent-trait fit's ``n_boot``, each draw a refit); for a
    joint error given by its law the ranking makes the draws (default
    :data:`~regression.ranking.family.N_DRAWS`).

    Raises
    ------
    ValueError
        ``n_draws`` and that option both given, with different values.
    """
    options = dict(joint_options)
    own = next((o for o in DRAW_OPTIONS if o in getattr(result, "JOINT_OPTIONS", ())), None)
    if n_draws is not None and own is not None:
        if options.get(own, n_draws) != n_draws:
            raise ValueError(
                f"n_draws ({n_draws}) and {own} ({options[own]}) both set the draws of this "
                "result's joint error; give one."
            )
        options[own] = n_draws
    return result.joint_error(seed=seed, **options)


class Ranked:
    """``compare``, ``rank_sets``, ``could_be_best`` and ``leaderboard`` for a result that has ``joint_error()``.

    ``joint_options`` are passed to the result's ``joint_error`` (e.g. the
    bootstrap of a latent-trait fit); ``seed`` seeds both it and the draws.
    """

    #: Defined by the result: the joint law of its estimates' errors.
    joint_error: Callable[..., JointError]
    #: The keyword options of the result's ``joint_error`` a caller may set (besides ``seed``).
    JOINT_OPTIONS: ClassVar[tuple[str, ...]] = ()

    def compare(
        self,
        alpha: float = 0.05,
        pairs: Iterable[Sequence[Any]] | None = None,
        simultaneous: bool = True,
        *,
        seed: SeedLike = 0,
        n_draws: int | None = None,
        **joint_options: Any,
    ) -> pd.DataFrame:
        """Intervals for the differences ``g_a - g_b`` (:func:`regression.ranking.compare`);
        ``n_draws``: :func:`result_joint`."""
        joint = result_joint(self, seed, n_draws, joint_options)
        draws = N_DRAWS if n_draws is None else n_draws
        return compare(joint, alpha, pairs, simultaneous, n_draws=draws, seed=seed)

    def rank_sets(
        self,
        alpha: float = 0.05,
        *,
        seed: SeedLike = 0,
        n_draws: int | None = None,
        **joint_options: Any,
    ) -> pd.DataFrame:
        """Simultaneous rank sets (:func:`regression.ranking.rank_sets`); ``n_draws``: :func:`result_joint`."""
        joint = result_joint(self, seed, n_draws, joint_options)
        draws = N_DRAWS if n_draws is None else n_draws
        return rank_sets(joint, alpha, n_draws=draws, seed=seed)

    def could_be_best(
        self,
        alpha: float = 0.05,
        *,
        seed: SeedLike = 0,
        n_draws: int | None = None,
        **joint_options: Any,
    ) -> list[Any]:
        """The generators whose rank set contains 1 (:func:`regression.ranking.could_be_best`)."""
        joint = result_joint(self, seed, n_draws, joint_options)
        draws = N_DRAWS if n_draws is None else n_draws
        return could_be_best(joint, alpha, n_draws=draws, seed=seed)

    def leaderboard(
        self,
        alpha: float = 0.05,
        *,
        seed: SeedLike = 0,
        pairs: str = "step-down",
        n_draws: int | None = None,
        **joint_options: Any,
    ) -> Leaderboard:
        """Estimates, intervals, rank sets and decided pairs (:func:`regression.ranking.leaderboard`)."""
        return leaderboard(self, alpha, seed=seed, pairs=pairs, n_draws=n_draws, **joint_options)
