""":class:`PairwiseModel`: the front door of the pairwise estimands."""

from __future__ import annotations

import numbers

import pandas as pd

from regression.pairwise.result import PairwiseResult
from regression.pairwise.table import check_pairwise
from regression.registry import PAIRWISE_ESTIMANDS
from regression.settings import Interval, Options, Settings

__all__ = ["PairwiseModel"]


class PairwiseModel(Settings):
    """Win rates or Bradley-Terry strengths from several judges' pairwise verdicts and a few
    human votes, prediction-powered, with one joint error.

    Parameters
    ----------
    estimand : {"win_rate", "bradley_terry"}
        (:data:`regression.registry.PAIRWISE_ESTIMANDS`)
        ``"win_rate"``: the generator's mean human score over its battles in
        the table (a win 1, a tie 1/2; :func:`~regression.pairwise.win_rates`).
        ``"bradley_terry"``: Davidson's Bradley-Terry model with ties, the
        log-strengths centred to sum to zero
        (:func:`~regression.pairwise.bradley_terry`).
    judges : bool
        False: the human votes alone, for comparison.
    seed : int
        Seeds the folds of the cross-fitted predictor.

    Examples
    --------
    >>> verdicts = pd.DataFrame({"item": [1, 2, 3], "generator_a": "x", "generator_b": "y",
    ...                          "validator": "j", "verdict": ["a", "tie", "a"]})
    >>> human = verdicts[["item", "generator_a", "generator_b"]].assign(human=["a", "b", "tie"])
    >>> PairwiseModel().fit_table(verdicts, human).interval()["estimate"].to_dict()
    {'x': 0.5, 'y': 0.5}
    """

    parameter_constraints = {
        "estimand": [Options(tuple(PAIRWISE_ESTIMANDS))],
        "judges": [bool],
        "seed": [Interval(numbers.Integral, 0, None)],
    }

    def __init__(self, *, estimand: str = "win_rate", judges: bool = True, seed: int = 0) -> None:
        self.estimand = estimand
        self.judges = judges
        self.seed = seed

    def fit_table(
        self, verdicts: pd.DataFrame, human: pd.DataFrame | None = None
    ) -> PairwiseResult:
        """Check the tables (:func:`~regression.pairwise.check_pairwise`) and estimate.

        Returns
        -------
        PairwiseResult
            :class:`~regression.pairwise.PairwiseWinRates` or
            :class:`~regression.pairwise.PairwiseStrengths`.

        Raises
        ------
        ValueError
            A setting outside its constraints (named), or bad tables.
        """
        self.check_settings()
        table = check_pairwise(verdicts, human)
        estimate = PAIRWISE_ESTIMANDS[self.estimand].load()
        result: PairwiseResult = estimate(table, judges=self.judges, seed=self.seed)
        return result
