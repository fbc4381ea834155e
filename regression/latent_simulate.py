"""Simulated latent-trait worlds: known g, TPR and TNR, counts drawn from the model.

Used by the tests (recovery of known parameters) and the benchmark (leave-s-out
error of each loss where the truth is known). Each generator i has n_items
outputs, of which ``a_i ~ Bin(n_items, g_i)`` are valid; validator j calls a
valid output valid with probability TPR_ij and an invalid one valid with
probability 1 - TNR_ij (agreeableness paper, App. C.1, eqs. (4)-(6)). With
``spread = 0`` every generator shares TPR_j, TNR_j (the paper's stability
assumption, section 5); ``spread > 0`` gives each pair its own values around
them on the logit scale (a world where the model is misspecified, as the real
data are).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit, logit

from regression._validation import check_probability
from regression.counts import Counts

__all__ = ["LatentWorld", "simulate_latent_world"]


@dataclass(frozen=True, eq=False)
class LatentWorld:
    """A simulated world: the counts one would observe and the truth behind them.

    Attributes
    ----------
    counts : Counts
        Generators x validators; absent cells have ``n_labeled == 0``.
    confusion : DataFrame
        ``generator, validator, tp, fn, fp, tn`` for the annotated generators.
    precision : Series
        The true g of every generator.
    sample_precision : Series
        ``a_i / n_items``: the share of each generator's drawn items that are
        valid (what full human labels would report).
    tpr, tnr : Series
        Each validator's TPR and TNR (their centres when ``spread > 0``).
    annotated : tuple of str
    """

    counts: Counts
    confusion: pd.DataFrame
    precision: pd.Series
    sample_precision: pd.Series
    tpr: pd.Series
    tnr: pd.Series
    annotated: tuple[str, ...]


def simulate_latent_world(
    n_generators: int = 14,
    n_validators: int = 14,
    n_items: int = 1000,
    *,
    n_annotated: int = 6,
    observed: float = 1.0,
    g_range: tuple[float, float] = (0.6, 0.95),
    tpr_range: tuple[float, float] = (0.8, 0.98),
    tnr_range: tuple[float, float] = (0.3, 0.8),
    spread: float = 0.0,
    seed: int | np.random.Generator | None = 0,
) -> LatentWorld:
    """Draw a world from the latent-trait model.

    Parameters
    ----------
    n_generators, n_validators, n_items : int
        Matrix size and outputs per generator.
    n_annotated : int
        The first ``n_annotated`` generators get a confusion table.
    observed : float
        Share of cells that were run; the others are absent. Every generator
        and validator keeps at least one cell, and annotated generators are
        fully observed.
    g_range, tpr_range, tnr_range : (float, float)
        Uniform ranges of the true parameters.
    spread : float
        Standard deviation, on the logit scale, of each (generator, validator)
        pair's TPR / TNR around the validator's own; 0 = the model holds.
    seed : int, Generator or None

    Examples
    --------
    >>> world = simulate_latent_world(5, 4, 100, n_annotated=2, seed=1)
    >>> world.counts.n_labeled.shape, len(world.confusion)
    ((5, 4), 8)
    """
    for name, value in (
        ("n_generators", n_generators),
        ("n_validators", n_validators),
        ("n_items", n_items),
    ):
        if int(value) < 1:
            raise ValueError(f"{name} ({value!r}) must be at least 1.")
    if not 0 <= n_annotated <= n_generators:
        raise ValueError(f"n_annotated ({n_annotated!r}) must lie in [0, n_generators].")
    if not 0 < observed <= 1:
        raise ValueError(f"observed ({observed!r}) must lie in (0, 1].")
    for name, bounds in (("g_range", g_range), ("tpr_range", tpr_range), ("tnr_range", tnr_range)):
        check_probability(name, bounds)
    rng = np.random.default_rng(seed)
    gens = pd.Index(
        [f"g{i:0{len(str(n_generators))}d}" for i in range(n_generators)], name="generator"
    )
    vals = pd.Index(
        [f"v{j:0{len(str(n_validators))}d}" for j in range(n_validators)], name="validator"
    )
    g = rng.uniform(*g_range, n_generators)
    tpr = rng.uniform(*tpr_range, n_validators)
    tnr = rng.uniform(*tnr_range, n_validators)
    shape = (n_generators, n_validators)
    if spread > 0:
        tpr_ij = expit(logit(tpr)[None, :] + rng.normal(0, spread, shape))
        tnr_ij = expit(logit(tnr)[None, :] + rng.normal(0, spread, shape))
    else:
        tpr_ij = np.broadcast_to(tpr, shape)
        tnr_ij = np.broadcast_to(tnr, shape)
    valid = rng.binomial(n_items, g)
    tp = rng.binomial(np.broadcast_to(valid[:, None], shape), tpr_ij)
    fp = rng.binomial(np.broadcast_to((n_items - valid)[:, None], shape), 1 - tnr_ij)
    present = rng.random(shape) < observed
    present[:n_annotated] = True
    present[np.arange(n_generators), rng.integers(0, n_validators, n_generators)] = True
    present[rng.integers(0, n_generators, n_validators), np.arange(n_validators)] = True
    n_labeled = np.where(present, n_items, 0)
    n_valid = np.where(present, tp + fp, 0)
    counts = Counts(pd.DataFrame(n_valid, gens, vals), pd.DataFrame(n_labeled, gens, vals))
    ann = np.arange(n_annotated)
    confusion = pd.DataFrame(
        {
            "generator": np.repeat(gens[ann].to_numpy(), n_validators),
            "validator": np.tile(vals.to_numpy(), n_annotated),
            "tp": tp[ann].ravel(),
            "fn": (valid[ann, None] - tp[ann]).ravel(),
            "fp": fp[ann].ravel(),
            "tn": ((n_items - valid)[ann, None] - fp[ann]).ravel(),
        }
    )
    return LatentWorld(
        counts=counts,
        confusion=confusion,
        precision=pd.Series(g, index=gens, name="precision"),
        sample_precision=pd.Series(valid / n_items, index=gens, name="sample_precision"),
        tpr=pd.Series(tpr, index=vals, name="tpr"),
        tnr=pd.Series(tnr, index=vals, name="tnr"),
        annotated=tuple(gens[ann]),
    )
