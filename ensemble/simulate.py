"""Simulated votes: generators x validators x items, with correlated validators and missing votes.

The agreeableness paper's released votes (``regression.datasets.load_item_votes``)
have only 1-4 % of votes missing, too few to show section 4's point that
majority voting is fragile to missing data (its Fig. 5a has 9.4 %). This
simulator makes data with any amount of missingness so the claims can be
checked:

* each item of generator i is valid with probability ``precision[i]`` (the
  human label);
* validator j labels a valid item valid with probability TPR_j and an invalid
  item invalid with probability TNR_j, on the logit scale shifted by the item's
  difficulty ``d ~ Normal(0, difficulty_sd)``:
  ``P(correct) = expit(logit(rate_j) - d)``. A hard item (d > 0) fools every
  validator at once, so their errors correlate (App. B.1: 28 % of the invalid
  items were missed by all 14 validators). With ``difficulty_sd = 0`` the
  validators are independent given the label and TPR_j / TNR_j are exact;
  otherwise they are the rates on an item of median difficulty;
* each vote of validator j on an item of generator i is missing with
  probability ``expit(logit(missing_rate[i, j]) + u)``, where the item's
  ``u ~ Normal(0, missing_item_sd)`` (App. B.2, Fig. 8: missingness differs by
  validator; in the released votes it also differs by generator and clusters
  on items). With ``missing_item_sd = 0`` votes go missing independently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.special import expit, logit

from regression.checks import JUDGMENT_COLUMNS, SeedLike, as_rng, check_counts, check_probability

__all__ = ["SimulatedVotes", "simulate_votes"]


@dataclass(frozen=True)
class SimulatedVotes:
    """Simulated data in jurycal's data model.

    Attributes
    ----------
    votes : DataFrame
        Items x validators (1.0 / 0.0 / NaN), indexed by (generator, item).
    human : DataFrame
        The true item labels: ``generator, item, human``.
    precision : Series
        The generating precision per generator (the realised fraction of valid
        items is ``human.groupby("generator")["human"].mean()``).
    """

    votes: pd.DataFrame
    human: pd.DataFrame
    precision: pd.Series

    def judgments(self) -> pd.DataFrame:
        """The votes as the long judgments table (``generator, item, validator, label``)."""
        long = self.votes.rename_axis(columns="validator").stack(future_stack=True)
        table = long.rename("label").reset_index()
        table["label"] = table["label"].astype("Int8")
        return table[list(JUDGMENT_COLUMNS)]


def simulate_votes(
    precision: Any,
    tpr: Any,
    tnr: Any,
    n_items: Any,
    *,
    difficulty_sd: float = 0.0,
    missing_rate: Any = 0.0,
    missing_item_sd: float = 0.0,
    seed: SeedLike = None,
) -> SimulatedVotes:
    """Draw votes of V validators on the items of G generators.

    Parameters
    ----------
    precision : array-like or Series, shape (G,)
        Each generator's probability that an item is valid. A Series names the generators.
    tpr, tnr : array-like or Series, shape (V,)
        Each validator's TPR (v+) and TNR (v-) on an item of median difficulty.
        A Series names the validators.
    n_items : int or array-like of int, shape (G,)
        Items per generator.
    difficulty_sd : float
        Standard deviation of the item difficulty on the logit scale (0: independent validators).
    missing_rate : float or array-like, shape (V,) or (G, V)
        Probability that a vote is missing, per validator (and generator), on
        an item of median missingness.
    missing_item_sd : float
        Standard deviation of an item effect on the logit of the missing rate
        (0: votes go missing independently). Large values cluster the missing
        votes on a few items, as in the released data, where some items lost
        12 or 13 of their 14 votes.
    seed : int, Generator, RandomState or None
        Randomness: a generator is used as it is, anything else seeds
        ``np.random.default_rng``; the same seed gives the same votes.

    Returns
    -------
    SimulatedVotes

    Raises
    ------
    ValueError
        For a rate outside [0, 1], a negative item count or ``difficulty_sd``,
        or shapes that do not fit.

    Notes
    -----
    The model is in the module docstring; the rates follow the agreeableness
    paper's Fig. 4 (TPR >= 96 %, TNR <= 25 % for most validators) when chosen so.

    Examples
    --------
    >>> sim = simulate_votes([0.9, 0.8], tpr=[0.95] * 5, tnr=[0.3] * 5, n_items=100,
    ...                      missing_rate=0.1, seed=1)
    >>> sim.votes.shape, len(sim.human), len(sim.judgments())
    ((200, 5), 200, 1000)
    """
    names_g = _names(precision, "g")
    names_v = _names(tpr, "v")
    g = check_probability("precision", np.atleast_1d(np.asarray(precision, dtype=float)))
    q1 = check_probability("tpr", np.atleast_1d(np.asarray(tpr, dtype=float)))
    q0 = check_probability("tnr", np.atleast_1d(np.asarray(tnr, dtype=float)))
    if g.ndim != 1 or q1.ndim != 1 or q1.shape != q0.shape:
        raise ValueError(
            f"precision must be 1-D and tpr, tnr 1-D of one length; got shapes {g.shape}, "
            f"{q1.shape}, {q0.shape}."
        )
    n_generators, n_validators = g.size, q1.size
    counts = np.broadcast_to(check_counts("n_items", n_items), (n_generators,))
    if counts.sum() == 0:
        raise ValueError("n_items must give at least one item in all.")
    sd = _check_sd("difficulty_sd", difficulty_sd)
    missing_sd = _check_sd("missing_item_sd", missing_item_sd)
    rate = check_probability("missing_rate", missing_rate)
    try:
        missing = np.broadcast_to(rate, (n_generators, n_validators))
    except ValueError:
        raise ValueError(
            f"missing_rate must be a scalar, shape ({n_validators},) or "
            f"({n_generators}, {n_validators}); got shape {rate.shape}."
        ) from None
    rng = as_rng(seed)
    codes = np.repeat(np.arange(n_generators), counts)
    valid = rng.random(codes.size) < g[codes]
    difficulty = rng.normal(0.0, sd, codes.size) if sd > 0 else np.zeros(codes.size)
    own_rate = np.where(valid[:, None], q1, q0)
    correct = rng.random(own_rate.shape) < expit(logit(own_rate) - difficulty[:, None])
    votes = np.where(correct, valid[:, None], ~valid[:, None]).astype(float)
    item_effect = (
        rng.normal(0.0, missing_sd, codes.size) if missing_sd > 0 else np.zeros(codes.size)
    )
    p_missing = expit(logit(missing[codes]) + item_effect[:, None])
    votes[rng.random(votes.shape) < p_missing] = np.nan
    items = np.concatenate([np.arange(c) for c in counts]) if codes.size else np.zeros(0, int)
    generator = np.asarray(names_g, dtype=object)[codes]
    index = pd.MultiIndex.from_arrays([generator, items], names=["generator", "item"])
    return SimulatedVotes(
        votes=pd.DataFrame(votes, index=index, columns=pd.Index(names_v, name="validator")),
        human=pd.DataFrame({"generator": generator, "item": items, "human": valid.astype(np.int8)}),
        precision=pd.Series(g, index=pd.Index(names_g, name="generator"), name="precision"),
    )


def _check_sd(name: str, value: float) -> float:
    sd = float(value)
    if not (np.isfinite(sd) and sd >= 0):
        raise ValueError(f"{name} must be finite and >= 0; got {value!r}.")
    return sd


def _names(values: Any, prefix: str) -> list[Any]:
    if isinstance(values, pd.Series):
        return list(values.index)
    return [f"{prefix}{i}" for i in range(np.atleast_1d(np.asarray(values)).size)]
