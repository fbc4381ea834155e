"""Simulated worlds of graded scores: judges on their own scales, a few human ratings, known truth.

Each output has a latent quality ``z ~ N(mu_g, 1)`` (``mu_g`` the generator's
level). The human rating is ``z`` read on the rating scale through a skewed
link, rounded to the scale's integers: with ``pile`` near 1 most outputs get
the top rating (the skew that leaves ten ratings all 5s). The judges see ``z``
with noise, each through its own monotone, non-linear scale:

- ``grade``: a 1-10 grade, ``1 + 9 Phi(z + e)^2``, rounded (lenient at the top);
- ``rubric``: a 0-1 rubric score ``sigmoid(2 (z + e))``, lenient to the first
  generator (``leniency`` added to its ``z``: a judge that likes one model);
- ``reward``: a reward model's logit ``z^3 / 3 + e``, unbounded;
- ``noise``: a judge that predicts nothing (pure noise), with ``noise_judge``.

The truth of a generator is its mean rating over all its outputs (every
output is rated in the world; the table of ratings holds a uniform sample of
``n_rated`` per generator).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

__all__ = ["ScoreWorld", "score_world"]


@dataclass(frozen=True)
class ScoreWorld:
    """A simulated world.

    Attributes
    ----------
    scores : DataFrame
        ``generator, item, validator, score``.
    ratings : DataFrame
        ``generator, item, human``: the rated sample.
    all_ratings : DataFrame
        Every output's rating (the sample and the rest).
    truth : Series
        Per generator: the mean rating over all its outputs.
    scale : (float, float)
    """

    scores: pd.DataFrame
    ratings: pd.DataFrame
    all_ratings: pd.DataFrame
    truth: pd.Series
    scale: tuple[float, float]


def score_world(
    n_generators: int = 5,
    n_items: int = 100,
    n_rated: int = 10,
    *,
    scale: tuple[int, int] = (1, 5),
    pile: float = 0.6,
    leniency: float = 1.0,
    noise: float = 0.7,
    noise_judge: bool = True,
    unrated: int = 0,
    seed: int = 0,
) -> ScoreWorld:
    """A world of ``n_generators`` x ``n_items`` outputs, ``n_rated`` rated per generator.

    Parameters
    ----------
    n_generators, n_items, n_rated : int
    scale : (int, int)
        The integer rating scale.
    pile : float in [0, 1)
        How far the ratings pile at the top (0: symmetric around the middle).
    leniency : float
        The rubric judge's boost to the first generator's quality (0: none).
    noise : float
        The judges' noise standard deviation on ``z``.
    noise_judge : bool
        Add a judge that predicts nothing.
    unrated : int
        The last ``unrated`` generators get no ratings.
    seed : int

    Examples
    --------
    >>> world = score_world(n_generators=3, n_items=40, n_rated=8, seed=1)
    >>> sorted(world.scores["validator"].unique())
    ['grade', 'noise', 'reward', 'rubric']
    >>> len(world.ratings), bool(world.truth.between(1, 5).all())
    (24, True)
    """
    rng = np.random.default_rng(seed)
    generators = [f"model-{g}" for g in range(n_generators)]
    mu = np.linspace(-0.6, 0.6, n_generators)
    low, high = scale
    rows, rating_rows = [], []
    for g, name in enumerate(generators):
        z = rng.normal(mu[g], 1.0, n_items)
        # a skewed link: the share of the scale reached grows fast with z when pile is high
        share = special.expit(1.5 * z + 3.0 * pile) ** (1.0 - pile)
        rating = np.round(low + (high - low) * share)
        items = [f"q{i}" for i in range(n_items)]
        rating_rows.append(pd.DataFrame({"generator": name, "item": items, "human": rating}))
        seen = z + rng.normal(0.0, noise, n_items)
        judges = {
            "grade": np.round(1 + 9 * special.ndtr(seen) ** 2),
            "rubric": special.expit(
                2 * (z + rng.normal(0.0, noise, n_items) + leniency * (g == 0))
            ),
            "reward": z**3 / 3 + rng.normal(0.0, noise, n_items),
        }
        if noise_judge:
            judges["noise"] = rng.normal(0.0, 1.0, n_items)
        for judge, score in judges.items():
            rows.append(
                pd.DataFrame({"generator": name, "item": items, "validator": judge, "score": score})
            )
    all_ratings = pd.concat(rating_rows, ignore_index=True)
    truth = all_ratings.groupby("generator", sort=False)["human"].mean().rename("truth")
    rated_generators = generators[: n_generators - unrated]
    sample = [
        frame.sample(n_rated, random_state=int(rng.integers(2**31)))
        for name, frame in all_ratings.groupby("generator", sort=False)
        if name in rated_generators
    ]
    ratings = pd.concat(sample, ignore_index=True) if sample else all_ratings.iloc[:0]
    return ScoreWorld(
        scores=pd.concat(rows, ignore_index=True),
        ratings=ratings,
        all_ratings=all_ratings,
        truth=truth,
        scale=(float(low), float(high)),
    )
