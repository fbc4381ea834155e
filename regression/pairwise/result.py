"""The win-rate result on the result contract (:mod:`regression.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from regression.intervals import normal_bounds
from regression.pairwise.table import PairwiseTable
from regression.pairwise.verdicts import POSITIONS
from regression.results import JointError, Summary, interval_frame

__all__ = ["PairwiseWinRates"]

_COVERS = {
    "ppi++": (
        "the random choice of the voted battles (design-based, inverse-probability weighted) and "
        "the judges' errors on them, for the win rates over the battles in the table (normal "
        "interval from the linearised prediction-powered estimate)"
    ),
    "labels_only": (
        "the random choice of the voted battles (design-based, inverse-probability weighted), for "
        "the win rates over the battles in the table (normal interval)"
    ),
    "mean_of_judges": "nothing: no human votes, the judges' own verdicts uncorrected",
}


@dataclass(frozen=True, eq=False)
class PairwiseWinRates:
    """Each generator's win rate over its battles, and the joint error of the estimates.

    Attributes
    ----------
    estimate : Series
        Per generator: the win rate (a win 1, a tie 1/2).
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

    SUMMARY_OPTIONS: ClassVar[tuple[str, ...]] = ()

    @property
    def covers(self) -> str:
        """What the interval accounts for, in a sentence."""
        return _COVERS[self.method]

    @property
    def se(self) -> pd.Series:
        """Per generator: the standard error."""
        return pd.Series(
            np.sqrt(np.diag(self.covariance.to_numpy())), index=self.estimate.index, name="se"
        )

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """Per generator: ``estimate, low, high, method, n_labels`` (normal, clipped to [0, 1]).

        Each interval holds for its generator alone; for all at once use
        :meth:`joint_error` (simultaneous bands, comparisons, rank sets).
        """
        low, high = normal_bounds(self.estimate.to_numpy(), self.se.to_numpy(), alpha, alternative)
        table = interval_frame(self.estimate.index, self.estimate, low, high, self.method)
        table["n_labels"] = self.n_labels.to_numpy()
        return table

    def worth(self) -> pd.Series:
        """Per generator: the human votes the judges are worth, ``n (V_votes / V - 1)``.

        0 where the judges add nothing (``lam`` 0); NaN without an interval.
        """
        ratio = (self.se_labels_only / self.se) ** 2
        return (self.n_labels * (ratio - 1.0)).clip(lower=0.0).rename("judges_worth")

    def to_frame(self, alpha: float = 0.05) -> pd.DataFrame:
        """Per generator: the interval, ``se``, ``n_battles``, ``lam`` and ``judges_worth``."""
        table = self.interval(alpha)
        table["se"] = self.se
        table["n_battles"] = self.n_battles
        table["lam"] = self.lam
        table["judges_worth"] = self.worth()
        return table

    def joint_error(self) -> JointError:
        """The estimates' joint error: normal, with :attr:`covariance`."""
        return JointError(self.estimate, self.covariance, covers=self.covers)

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

    def summary(self, alpha: float = 0.05) -> Summary:
        """The win rates, the judges' diagnostics and what the interval covers."""
        level = f"{100 * (1 - alpha):g} %"
        notes = (
            f"{level} intervals, each for its generator alone; {self.covers}.",
            f"{int(self.table.n_labels)} of {self.table.n_battles} battles have a human vote; "
            f"orders shown: {', '.join(POSITIONS)} (generator_a's answer first, second).",
        )
        return Summary(
            "Win rates from pairwise verdicts",
            {"win rates": self.to_frame(alpha), "judges": self.diagnostics()},
            notes=notes,
            warnings=self.warnings,
        )
