""":class:`PairwiseModel`: the front door of the pairwise estimands."""

from __future__ import annotations

import numbers

import pandas as pd

from regression.pairwise.result import PairwiseResult
from regression.pairwise.table import check_pairwise
from regression.registry import BOUNDED_INTERVAL_METHODS, PAIRWISE_ESTIMANDS
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
        Seeds the folds of the cross-fitted predictor and the betting interval's orders.
    interval_method : {"floored", "betting", "normal"}
        (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`, docs/intervals.md) The win
        rates' interval: ``"floored"`` (default), the engine's normal interval floored where
        the votes show no judge error; ``"betting"``, the betting interval of the bounded prediction-powered mean (valid at
        any number of votes, Waudby-Smith & Ramdas 2024), or ``"normal"``, from the linearised
        variance (it rests on the votes' own spread, and under-covers with few votes). The
        Bradley-Terry strengths are an M-estimator, neither a mean nor bounded: their interval
        is the normal one from the sandwich whatever this says.

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
        "interval_method": [Options(BOUNDED_INTERVAL_METHODS)],
    }

    def __init__(
        self,
        *,
        estimand: str = "win_rate",
        judges: bool = True,
        seed: int = 0,
        interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    ) -> None:
        self.estimand = estimand
        self.judges = judges
        self.seed = seed
        self.interval_method = interval_method

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
        # the strengths' interval is normal (an M-estimator): the option is the win rates'
        options = {"interval_method": self.interval_method} if self.estimand == "win_rate" else {}
        result: PairwiseResult = estimate(table, judges=self.judges, seed=self.seed, **options)
        return result
