"""Simulated arenas with known win rates: many generators, unbalanced battles, three biased judges.

Every battle of a world has a human verdict, drawn from the Davidson (1970)
model with ties: generator ``a`` wins with probability proportional to
``exp(s_a)``, ``b`` to ``exp(s_b)``, a tie to ``nu * exp((s_a + s_b) / 2)``.
So the truth, each generator's mean human score over its battles in the table
(a win 1, a tie 1/2), is known; the human votes are a uniform sample of those
verdicts. Pairs are unbalanced: generator ``g`` enters a battle with a
probability drawn from a Dirichlet, so some pairs are played far more than
others, and a few generators share a strength (equal in expectation).

Each judge judges every battle in both orders. It copies the human verdict
with its ``accuracy``; otherwise it draws its own Davidson verdict from the
strengths it perceives (the true ones plus its per-generator leniency, with
its own tie parameter); then, with its ``first_bias``, it overrides the
verdict with the answer shown first. ``noise=True`` gives judges that predict
nothing: every generator looks alike to them (no verdict copied, no
strength perceived), so their verdicts are independent of the battle, with
their tie rates and position bias.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["PairwiseWorld", "pairwise_world"]

_WORDS = np.array(["b", "tie", "a"])


@dataclass(frozen=True, eq=False)
class PairwiseWorld:
    """A simulated arena.

    Attributes
    ----------
    verdicts : DataFrame
        ``item, generator_a, generator_b, validator, verdict, position``: every judge on every
        battle, both orders.
    human : DataFrame
        ``item, generator_a, generator_b, human``: the revealed votes, a uniform sample.
    votes : DataFrame
        The human verdict of every battle (the population the sample is drawn from).
    truth : Series
        Per generator: its mean human score over its battles in the table.
    strength : Series
        Per generator: the Davidson strength the human verdicts were drawn with.
    """

    verdicts: pd.DataFrame
    human: pd.DataFrame
    votes: pd.DataFrame
    truth: pd.Series
    strength: pd.Series


def _davidson(rng: np.random.Generator, diff: np.ndarray, nu: float | np.ndarray) -> np.ndarray:
    """Scores of generator_a (1, 1/2, 0) drawn from Davidson's model at strength difference ``diff``."""
    win = np.exp(diff / 2)
    lose = np.exp(-diff / 2)
    total = win + lose + nu
    u = rng.random(diff.size) * total
    return np.where(u < win, 1.0, np.where(u < win + nu, 0.5, 0.0))


def pairwise_world(
    n_generators: int = 12,
    n_battles: int = 3000,
    n_votes: int = 600,
    *,
    accuracy: tuple[float, ...] = (0.6, 0.45, 0.3),
    first_bias: tuple[float, ...] = (0.3, 0.05, 0.15),
    tie: tuple[float, ...] = (0.2, 0.6, 0.05),
    human_tie: float = 0.4,
    leniency_sd: float = 0.3,
    spread: float = 0.6,
    noise: bool = False,
    seed: int = 0,
) -> PairwiseWorld:
    """A seeded arena (see the module docstring).

    Parameters
    ----------
    n_generators : int
        Generators, named ``g00, g01, ...``.
    n_battles : int
        Battles, each one item played by one pair.
    n_votes : int
        Battles with a revealed human vote, drawn uniformly.
    accuracy, first_bias, tie : tuple of float
        Per judge (one entry each): the share of battles it copies the human
        verdict on, the share it picks the answer shown first, and its
        Davidson tie parameter.
    human_tie : float
        The human voters' Davidson tie parameter (0.4: about 17 % ties between equals).
    leniency_sd : float
        The spread of each judge's per-generator leniency (added to the strength it perceives).
    spread : float
        The spread of the true strengths.
    noise : bool
        Judges that predict nothing.
    seed : int

    Examples
    --------
    >>> world = pairwise_world(8, 400, 100, seed=1)
    >>> len(world.human), sorted(world.verdicts["validator"].unique())
    (100, ['judge-1', 'judge-2', 'judge-3'])
    >>> bool(world.truth.between(0, 1).all())
    True
    """
    if not 2 <= n_generators <= n_battles:
        raise ValueError(f"n_generators ({n_generators}) must be in [2, n_battles].")
    if not 0 <= n_votes <= n_battles:
        raise ValueError(f"n_votes ({n_votes}) must be in [0, n_battles ({n_battles})].")
    rng = np.random.default_rng(seed)
    strength = rng.normal(0.0, spread, n_generators)
    twins = rng.choice(n_generators, size=(max(n_generators // 6, 1), 2), replace=False)
    strength[twins[:, 1]] = strength[twins[:, 0]]  # true ties in strength
    # half even, half Dirichlet: some pairs far more played, every generator in some battles
    popularity = 0.5 / n_generators + 0.5 * rng.dirichlet(np.ones(n_generators))
    a = rng.choice(n_generators, n_battles, p=popularity)
    b = np.empty(n_battles, dtype=int)
    for g in range(n_generators):
        mine = a == g
        rest = popularity.copy()
        rest[g] = 0.0
        b[mine] = rng.choice(n_generators, int(mine.sum()), p=rest / rest.sum())
    truth_score = _davidson(rng, strength[a] - strength[b], human_tie)
    names = np.array([f"g{g:02d}" for g in range(n_generators)])
    battles = pd.DataFrame({"item": np.arange(n_battles), "generator_a": names[a],
                            "generator_b": names[b]})  # fmt: skip
    rows = []
    for j, (acc, bias, nu) in enumerate(zip(accuracy, first_bias, tie, strict=True)):
        leniency = rng.normal(0.0, leniency_sd, n_generators)
        seen = np.zeros(n_generators) if noise else strength + leniency
        for position in (0, 1):
            own = _davidson(rng, seen[a] - seen[b], nu)
            copy = (rng.random(n_battles) < acc) & (not noise)
            verdict = np.where(copy, truth_score, own)
            first = 1.0 if position == 0 else 0.0  # a's score when the answer shown first wins
            verdict = np.where(rng.random(n_battles) < bias, first, verdict)
            rows.append(battles.assign(validator=f"judge-{j + 1}",
                                       verdict=_WORDS[(2 * verdict).astype(int)],
                                       position=("ab", "ba")[position]))  # fmt: skip
    votes = battles.assign(human=_WORDS[(2 * truth_score).astype(int)])
    voted = np.sort(rng.choice(n_battles, n_votes, replace=False))
    sides = np.concatenate([truth_score, 1.0 - truth_score])
    played = np.concatenate([a, b])
    total = np.bincount(played, weights=sides, minlength=n_generators)
    count = np.bincount(played, minlength=n_generators)
    with np.errstate(invalid="ignore", divide="ignore"):
        truth = pd.Series(total / count, index=pd.Index(names, name="generator"), name="truth")
    return PairwiseWorld(
        verdicts=pd.concat(rows, ignore_index=True),
        human=votes.iloc[voted].reset_index(drop=True),
        votes=votes,
        truth=truth,
        strength=pd.Series(strength, index=truth.index, name="strength"),
    )
