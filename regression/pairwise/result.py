"""The pairwise results on the result contract (:mod:`regression.results`): win rates and
Bradley-Terry-Davidson strengths, each with one joint error, ranked through :mod:`regression.ranking`."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

import numpy as np
import pandas as pd

from regression.checks import SeedLike
from regression.core.floor import design_mean_interval
from regression.errors import JurycalWarning, UnidentifiedWarning
from regression.intervals import normal_bounds
from regression.pairwise.design import battle_sides
from regression.pairwise.table import PairwiseTable
from regression.pairwise.verdicts import POSITIONS
from regression.ranking import Ranked
from regression.results import JointError, Result, interval_frame

__all__ = [
    "MIN_VOTES",
    "FewVotesWarning",
    "PairwiseResult",
    "PairwiseStrengths",
    "PairwiseWinRates",
    "votes_per_generator",
]

#: The human votes a generator needs for an estimate with an interval.
MIN_VOTES = 3

_DESIGN = "the random choice of the voted battles (design-based, inverse-probability weighted)"
_UNCORRECTED = "nothing: no human votes, the judges' own verdicts uncorrected"


class FewVotesWarning(JurycalWarning):
    """A generator has too few human votes for an interval, or there are none at all."""


def votes_per_generator(table: PairwiseTable) -> tuple[np.ndarray, np.ndarray]:
    """Per generator: its battles and its voted battles (a battle counts for both generators)."""
    n_gen = len(table.generators)
    voted = table.human_row >= 0

    def per_generator(mask: np.ndarray) -> np.ndarray:
        return np.bincount(table.battle_a[mask], minlength=n_gen) + np.bincount(
            table.battle_b[mask], minlength=n_gen
        )

    return per_generator(np.ones(table.n_battles, dtype=bool)), per_generator(voted)


@dataclass(frozen=True, eq=False)
class PairwiseResult(Ranked, Result):
    """What the pairwise estimands share: estimates per generator, one joint error, the judges'
    diagnostics and what they are worth in human votes.

    Attributes
    ----------
    estimate : Series
        Per generator.
    covariance : DataFrame
        Generators x generators: the estimated covariance of the errors
        (a battle counts for both its generators).
    method : str
        ``"ppi++"``, ``"labels_only"`` or ``"mean_of_judges"`` (no human votes).
    n_labels, n_battles : Series
        Per generator: its voted battles, and all its battles.
    lam : Series
        Per generator: the power-tuning weight on the judges' prediction (0: votes alone).
    se_labels_only : Series
        Per generator: the standard error of the human votes alone.
    table : PairwiseTable
        The checked tables.
    warnings : tuple of str
    reasons : Series
        Per generator: why it has no estimate (too few votes, battles the draw did not reach,
        a strength the votes do not identify); empty where it has one.
    interval_method : str
        ``"betting"`` (win rates' default: :meth:`PairwiseWinRates.interval`) or ``"normal"``
        (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`; strengths: always normal).
    seed : int
        Seeds the betting interval's random orders of the votes.
    prediction : ndarray, optional
        Per battle: the judges' cross-fitted prediction of the human score of
        its generator_a (:mod:`~regression.pairwise.predict`); None when the
        judges were not used; NaN on a battle left out of a Bradley-Terry fit.
    """

    estimate: pd.Series
    covariance: pd.DataFrame
    method: str
    n_labels: pd.Series
    n_battles: pd.Series
    lam: pd.Series
    se_labels_only: pd.Series
    table: PairwiseTable
    warnings: tuple[str, ...] = ()
    reasons: pd.Series = field(default_factory=lambda: pd.Series(dtype=object), repr=False)
    interval_method: str = "normal"
    seed: int = 0
    prediction: np.ndarray | None = field(default=None, repr=False)

    #: The bounds of an interval (a win rate lies in [0, 1]; a log-strength anywhere).
    LIMITS: ClassVar[tuple[float, float]] = (0.0, 1.0)
    #: Per method: what the interval and the joint error account for.
    COVERS: ClassVar[dict[str, str]] = {}

    @classmethod
    def from_arrays(
        cls,
        table: PairwiseTable,
        estimate: np.ndarray,
        covariance: np.ndarray,
        method: str,
        *,
        lam: np.ndarray | float,
        se_labels_only: np.ndarray,
        unidentified: dict[int, str] | None = None,
        hint: str = "",
        **extra: Any,
    ) -> Self:
        """The result from arrays in the order of ``table.generators``. A generator with fewer
        than :data:`MIN_VOTES` votes loses its estimate (a :class:`FewVotesWarning` each), and
        so does each of ``unidentified`` (position: why), named in one
        :class:`~regression.errors.UnidentifiedWarning` that ends with ``hint``."""
        n_battles, n_labels = votes_per_generator(table)
        estimate, covariance = np.array(estimate, dtype=float), np.array(covariance, dtype=float)
        corrected = method != "mean_of_judges"
        few = corrected & (n_labels < MIN_VOTES)
        # too few votes is the plainer reason, so it goes first
        lost = {g: why for g, why in (unidentified or {}).items() if not few[g]}
        reasons = np.full(len(table.generators), "", dtype=object)
        caught: tuple[str, ...] = ()
        if lost:
            names = "; ".join(f"{table.generators[g]!r}: {why}" for g, why in lost.items())
            caught += (
                f"no estimate for {len(lost)} generator(s) the votes cannot estimate ({names}). "
                + hint,
            )
            warnings.warn(caught[-1], UnidentifiedWarning, stacklevel=4)
            reasons[list(lost)] = list(lost.values())
        # enough votes each, but too few in all for the model's parameters: no interval either
        unscaled = corrected & ~few & (reasons == "") & ~np.isfinite(np.diag(covariance))
        for g in np.flatnonzero(few | unscaled):
            reasons[g] = f"{int(n_labels[g])} human vote(s): too few for an " + (
                "interval" if few[g] else "interval of this model (fewer votes than parameters)"
            )
            message = f"{table.generators[g]!r} has {reasons[g]}."
            warnings.warn(message, FewVotesWarning, stacklevel=4)
            caught += (message,)
        gone = reasons != ""
        estimate[gone] = np.nan
        covariance[gone, :] = np.nan
        covariance[:, gone] = np.nan
        index = pd.Index(table.generators, name="generator")

        def series(values: Any, name: str) -> pd.Series:
            return pd.Series(np.broadcast_to(values, len(index)), index=index, name=name)

        return cls(
            estimate=series(estimate, "estimate"),
            covariance=pd.DataFrame(covariance, index=index, columns=index),
            method=method,
            n_labels=series(n_labels, "n_labels"),
            n_battles=series(n_battles, "n_battles"),
            lam=series(lam, "lam"),
            se_labels_only=series(np.where(gone, np.nan, se_labels_only), "se_labels_only"),
            table=table,
            warnings=(*extra.pop("warnings", ()), *caught),  # in the order said
            reasons=series(reasons, "reason"),
            **extra,
        )

    @classmethod
    def uncorrected(cls, table: PairwiseTable, estimate: np.ndarray, **extra: Any) -> Self:
        """No human votes: the judges' own estimates (``mean_of_judges``), uncorrected, without
        an interval, with a :class:`FewVotesWarning`."""
        message = (
            f"there are no human votes: the {cls.ESTIMATES} are the judges' own, uncorrected for "
            "their errors and position bias, with no interval."
        )
        # past this, _judges_only, the estimator and fit_table: the caller's line
        warnings.warn(message, FewVotesWarning, stacklevel=5)
        n_gen = len(table.generators)
        nan = np.full(n_gen, np.nan)
        return cls.from_arrays(
            table,
            estimate,
            np.full((n_gen, n_gen), np.nan),
            "mean_of_judges",
            lam=nan,
            se_labels_only=nan,
            warnings=(message,),
            **extra,
        )

    @property
    def covers(self) -> str:
        """What the interval accounts for, in a sentence."""
        return self.COVERS[self.method]

    @property
    def se(self) -> pd.Series:
        """Per generator: the standard error."""
        return pd.Series(
            np.sqrt(np.diag(self.covariance.to_numpy())), index=self.estimate.index, name="se"
        )

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """Per generator: ``estimate, low, high, method, n_labels`` (within :attr:`LIMITS`):
        normal, or the betting interval where :attr:`interval_method` says so (win rates).

        Each interval holds for its generator alone; for all at once use
        :meth:`joint_error` (simultaneous bands, comparisons, rank sets: normal).
        """
        low, high = self.bounds(alpha, alternative)
        table = interval_frame(self.estimate.index, self.estimate, low, high, self.method)
        table["n_labels"] = self.n_labels.to_numpy()
        return table

    def bounds(self, alpha: float, alternative: str) -> tuple[np.ndarray, np.ndarray]:
        """Per generator: the interval's ``low`` and ``high`` (NaN without an estimate)."""
        return normal_bounds(  # type: ignore[return-value]
            self.estimate.to_numpy(), self.se.to_numpy(), alpha, alternative, limits=self.LIMITS
        )

    def worth(self) -> pd.Series:
        """Per generator: the human votes the judges are worth, ``n (V_votes / V - 1)``.

        0 where the judges add nothing (``lam`` 0); NaN without an interval. The 0 is set by
        structure, not left to the ratio: the two variances come from different code paths and
        round differently (by about 1e-13 under AVX-512 BLAS kernels).
        """
        ratio = (self.se_labels_only / self.se) ** 2
        worth = (self.n_labels * (ratio - 1.0)).clip(lower=0.0)
        no_help = (self.lam == 0) & worth.notna()
        return worth.mask(no_help, 0.0).rename("judges_worth")

    def total_worth(self) -> float:
        """The human votes the judges are worth over all generators: the votes alone would need
        ``n_votes * (sum V_votes / sum V)`` votes for the total variance the judges give, this
        many more than ``n_votes``; NaN without intervals; exactly 0 where the judges add nothing
        (``lam`` 0 on every kept generator), as the two variances round differently."""
        kept = self.se.notna() & self.se_labels_only.notna()
        if not kept.any():
            return float("nan")
        if bool((self.lam[kept] == 0).all()):
            return 0.0
        ratio = float((self.se_labels_only[kept] ** 2).sum() / (self.se[kept] ** 2).sum())
        return max(self.table.n_labels * (ratio - 1.0), 0.0)

    def explained(self) -> float:
        """The share of the variance of the human score on the voted battles that the judges'
        cross-fitted prediction explains (``1 - sum w (s - f)^2 / sum w (s - sbar)^2``, weights
        ``1 / pi``; out of sample, so it may be below 0); NaN without a prediction."""
        if self.prediction is None:
            return float("nan")
        # a battle left out of the fit (a generator not estimated) has no prediction
        voted = (self.table.human_row >= 0) & np.isfinite(self.prediction)
        if voted.sum() < 2:
            return float("nan")
        s, f = self.table.human[voted], self.prediction[voted]
        w = 1.0 / self.table.inclusion_probability[voted]
        spread = np.sum(w * (s - np.average(s, weights=w)) ** 2)
        return float(1.0 - np.sum(w * (s - f) ** 2) / spread) if spread > 0 else float("nan")

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """Per generator, beside the interval: ``se``, ``n_battles``, ``lam``, ``judges_worth``
        and ``reason`` (why a generator has no estimate; empty where it has one)."""
        return pd.DataFrame(
            {
                "se": self.se,
                "n_battles": self.n_battles,
                "lam": self.lam,
                "judges_worth": self.worth(),
                "reason": self.reasons.reindex(self.estimate.index).fillna(""),
            }
        )

    def joint_error(self, *, seed: SeedLike = 0) -> JointError:
        """The estimates' joint error: normal, with :attr:`covariance` (``seed`` is unused: the
        law is normal, drawn by the ranking procedures with their own seed).

        Raises
        ------
        ValueError
            With no human votes (``mean_of_judges``): the judges' own estimates have no error
            to rank by.
        """
        if self.method == "mean_of_judges":
            raise ValueError(
                "these estimates are the judges' own (method 'mean_of_judges': no human votes), "
                "uncorrected and without a joint error, so they cannot be compared or ranked; "
                "add human votes on some battles."
            )
        reasons = self.reasons[self.reasons != ""].to_dict()
        return JointError(self.estimate, self.covariance, covers=self.covers, reasons=reasons)

    def diagnostics(self) -> pd.DataFrame:
        """Per judge, and the human voters: verdicts, tie rate, position bias, agreement.

        Columns ``n_verdicts`` (with a verdict), ``tie_rate``, ``first_shown_rate`` (of the
        decisive verdicts, the share for the answer shown first: 0.5 without position bias;
        NaN for the humans, whose order is not recorded) and ``agreement`` (the share of its
        verdicts on voted battles equal to the human vote; NaN for the humans).
        """
        t = self.table
        given = ~np.isnan(t.score)
        decisive = given & (t.score != 0.5)
        first = decisive & ((t.score == 1.0) == (t.position == 0))
        human = t.human[t.battle]
        on_voted = given & ~np.isnan(human)
        n_val = len(t.validators)

        def per_judge(mask: np.ndarray) -> np.ndarray:
            return np.bincount(t.validator[mask], minlength=n_val).astype(float)

        with np.errstate(invalid="ignore", divide="ignore"):
            frame = pd.DataFrame(
                {
                    "n_verdicts": per_judge(given).astype(int),
                    "tie_rate": per_judge(given & (t.score == 0.5)) / per_judge(given),
                    "first_shown_rate": per_judge(first) / per_judge(decisive),
                    "agreement": per_judge(on_voted & (t.score == human)) / per_judge(on_voted),
                },
                index=pd.Index(t.validators, name="validator"),
            )
        voted = ~np.isnan(t.human)
        humans = pd.DataFrame(
            {
                "n_verdicts": [int(voted.sum())],
                "tie_rate": [float(np.mean(t.human[voted] == 0.5)) if voted.any() else np.nan],
                "first_shown_rate": [np.nan],
                "agreement": [np.nan],
            },
            index=pd.Index(["human voters"], name="validator"),
        )
        return pd.concat([frame, humans])

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The summary's sentences: the level, what it covers, the votes and what the judges add."""
        level = f"{1 - alpha:.0%}"
        notes = [
            f"{level} intervals, each for its generator alone; {self.covers}.",
            f"{int(self.table.n_labels)} of {self.table.n_battles} battles have a human vote; "
            f"orders shown: {', '.join(POSITIONS)} (generator_a's answer first, second).",
        ]
        explained = self.explained()
        if np.isfinite(explained):
            notes.append(
                f"The judges' cross-fitted prediction explains {explained:.0%} of the variance "
                "of the human score on the voted battles (out of sample)."
            )
        worth = self.total_worth()
        if self.method == "ppi++" and np.isfinite(worth):
            notes.append(
                f"The judges are worth about {worth:.0f} human votes: with them, the "
                f"{self.table.n_labels} votes give the total variance of about "
                f"{self.table.n_labels + worth:.0f} votes alone (judges_worth: per generator)."
            )
        return tuple(notes)

    def summary_tables(self, alpha: float, **options: Any) -> dict[str, pd.DataFrame]:
        """The judges beside the human voters (:meth:`diagnostics`)."""
        return {"judges": self.diagnostics()}


@dataclass(frozen=True, eq=False)
class PairwiseWinRates(PairwiseResult):
    """Each generator's win rate over its battles (a win 1, a tie 1/2), and the joint error.

    See :class:`PairwiseResult` for the attributes.
    """

    title: ClassVar[str] = "Win rates from pairwise verdicts"
    ESTIMATES: ClassVar[str] = "win rates"
    COVERS: ClassVar[dict[str, str]] = {
        "ppi++": (
            f"{_DESIGN} and the judges' errors on them, for the win rates over the battles in "
            "the table (normal interval from the linearised prediction-powered estimate)"
        ),
        "labels_only": f"{_DESIGN}, for the win rates over the battles in the table (normal interval)",
        "mean_of_judges": _UNCORRECTED,
    }

    @property
    def covers(self) -> str:
        """What the interval accounts for, in a sentence (the engine's interval where it is used)."""
        if self.interval_method == "normal" or self.method == "mean_of_judges":
            return self.COVERS[self.method]
        judges = " and the judges' errors on them" if self.method == "ppi++" else ""
        kind = (
            "betting interval of the bounded prediction-powered mean, valid at any number of votes"
            if self.interval_method == "betting"
            else "normal interval of the prediction-powered mean, floored where the votes show "
            "no judge error (docs/intervals.md)"
        )
        return (
            f"{_DESIGN}{judges}, for the win rates over the battles in the table ({kind}; the "
            "joint error behind comparisons and rank sets is normal)"
        )

    def bounds(self, alpha: float, alternative: str) -> tuple[np.ndarray, np.ndarray]:
        """Per generator: the engine's interval of its prediction-powered mean
        (:func:`regression.core.floor.design_mean_interval`: floored by default, or betting,
        Waudby-Smith & Ramdas 2024, on the scores' and predictions' bounds [0, 1]) with its
        votes and their inclusion probabilities (the judges' prediction ``f``; ``lam`` 0 for the
        votes alone), widened to hold the estimate; or the normal interval
        (:attr:`interval_method` ``"normal"``).
        NaN where the generator has no estimate."""
        if self.interval_method == "normal" or self.method == "mean_of_judges":
            return super().bounds(alpha, alternative)
        t = self.table
        battle, generator, sign = battle_sides(t)
        voted = (t.human_row >= 0)[battle]
        f = np.full(t.n_battles, 0.5) if self.prediction is None else self.prediction
        score = 0.5 + sign * (t.human[battle] - 0.5)
        predicted = 0.5 + sign * (f[battle] - 0.5)
        estimate = self.estimate.to_numpy()
        low, high = np.full(estimate.size, np.nan), np.full(estimate.size, np.nan)
        for g in np.flatnonzero(np.isfinite(estimate)):
            mine, on = generator == g, (generator == g) & voted
            _, (lo, hi) = design_mean_interval(
                self.interval_method,
                score[on],
                predicted[on],
                predicted[mine],
                t.inclusion_probability[battle[on]],
                None if self.prediction is not None else 0.0,
                outcome_bounds=(0.0, 1.0),
                prediction_bounds=(0.0, 1.0),
                alpha=alpha,
                seed=self.seed,
                alternative=alternative,
            )
            # a superset of a valid interval: no less valid, and the estimate inside
            low[g], high[g] = min(float(lo), estimate[g]), max(float(hi), estimate[g])
        return low, high


@dataclass(frozen=True, eq=False)
class PairwiseStrengths(PairwiseResult):
    """Each generator's Bradley-Terry-Davidson log-strength, centred to sum to zero, and the
    joint error (:mod:`regression.pairwise.davidson`).

    ``exp(beta_i - beta_j)`` is the odds of ``i`` beating ``j`` among the battles not tied.
    See :class:`PairwiseResult` for the other attributes; ``lam`` is one weight for all
    strengths.

    Attributes
    ----------
    tie_parameter : float
        Davidson's ``nu``: a battle between equals is a tie with probability ``nu / (2 + nu)``.
    """

    tie_parameter: float = float("nan")

    LIMITS: ClassVar[tuple[float, float]] = (-np.inf, np.inf)
    title: ClassVar[str] = "Bradley-Terry strengths from pairwise verdicts"
    ESTIMATES: ClassVar[str] = "strengths"
    COVERS: ClassVar[dict[str, str]] = {
        "ppi++": (
            f"{_DESIGN} and the judges' errors on them, for the Davidson fit to the human votes "
            "on every battle in the table (normal interval from the sandwich of the "
            "prediction-powered M-estimate)"
        ),
        "labels_only": (
            f"{_DESIGN}, for the Davidson fit to the human votes on every battle in the table "
            "(normal interval from the sandwich)"
        ),
        "mean_of_judges": _UNCORRECTED,
    }

    def elo(self, alpha: float = 0.05, *, centre: float = 1000.0) -> pd.DataFrame:
        """The interval on the Elo scale arena leaderboards print, ``centre + 400 / ln(10) *
        beta``: 400 points are odds of 10 to 1 among the battles not tied (the scale of Chatbot
        Arena's and Arena-Hard-Auto's Bradley-Terry ratings, which count a tie as half a win
        each where jurycal fits Davidson's ``nu``).

        Examples
        --------
        >>> import pandas as pd
        >>> from regression.pairwise import PairwiseModel
        >>> verdicts = pd.DataFrame({"item": range(6), "generator_a": ["x", "y", "x"] * 2,
        ...                          "generator_b": ["y", "z", "z"] * 2, "validator": "j",
        ...                          "verdict": ["a", "a", "a", "a", "b", "tie"]})
        >>> human = verdicts[["item", "generator_a", "generator_b"]].assign(
        ...     human=["a", "b", "tie", "b", "a", "a"])
        >>> fit = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
        >>> fit.elo()["estimate"].round(0).to_dict()
        {'x': 1072.0, 'y': 1000.0, 'z': 928.0}
        """
        table = self.interval(alpha)
        points = 400.0 / np.log(10.0)
        for column in ("estimate", "low", "high"):
            table[column] = centre + points * table[column]
        return table

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """:meth:`PairwiseResult.summary_notes` and what the strengths are."""
        nu = self.tie_parameter
        ties = (
            f"the tie parameter nu = {nu:.3g} (equals tie with probability {nu / (2 + nu):.0%})"
            if nu > 1e-6
            else "no ties: the tie parameter nu is 0, plain Bradley-Terry"
        )
        return (
            *super().summary_notes(alpha),
            "Strengths are Davidson (1970) log-strengths beta, centred to sum to zero: "
            "P(i beats j) = e^(beta_i) / (e^(beta_i) + e^(beta_j) + nu e^((beta_i + beta_j) / 2)); "
            f"{ties}.",
        )
