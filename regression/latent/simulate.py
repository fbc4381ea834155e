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

from regression.checks import check_probability
from regression.data.counts import Counts

__all__ = [
    "ItemWorld",
    "LatentWorld",
    "draw_traits",
    "latent_world",
    "simulate_item_votes",
    "simulate_latent_world",
]


@dataclass(frozen=True, eq=False)
class LatentWorld:
    """A simulated world: the counts one would observe and the truth behind them.

    Attributes
    ----------
    counts : Counts
        Generators x validators; absent cells have ``n_labelled == 0``.
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
    >>> world.counts.n_labelled.shape, len(world.confusion)
    ((5, 4), 8)
    """
    if not 0 < observed <= 1:
        raise ValueError(f"observed ({observed!r}) must lie in (0, 1].")
    rng = np.random.default_rng(seed)
    gens, vals, g, tpr, tnr = draw_traits(
        (n_generators, n_validators, n_items, n_annotated), (g_range, tpr_range, tnr_range), rng
    )
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
    return latent_world(gens, vals, (g, tpr, tnr), (valid, tp, fp), n_items, n_annotated, present)


def latent_world(
    generators: pd.Index,
    validators: pd.Index,
    traits: tuple[np.ndarray, np.ndarray, np.ndarray],
    draws: tuple[np.ndarray, np.ndarray, np.ndarray],
    n_items: int,
    n_annotated: int,
    present: np.ndarray | None = None,
) -> LatentWorld:
    """A :class:`LatentWorld` from drawn counts (shared by the world simulators).

    Parameters
    ----------
    generators, validators : Index
    traits : (g, tpr, tnr)
        True precision per generator and each validator's TPR / TNR.
    draws : (valid, tp, fp)
        Valid items per generator; per cell, valid items called valid and
        invalid items called valid.
    n_items : int
        Items per generator, every one judged by every validator that ran.
    n_annotated : int
        The first ``n_annotated`` generators get a confusion table.
    present : ndarray of bool, optional
        Cells that were run (default: all).
    """
    g, tpr, tnr = traits
    valid, tp, fp = draws
    shape = (len(generators), len(validators))
    present = np.ones(shape, dtype=bool) if present is None else present
    n_labelled = np.where(present, n_items, 0)
    n_valid = np.where(present, tp + fp, 0)
    counts = Counts(
        pd.DataFrame(n_valid, generators, validators),
        pd.DataFrame(n_labelled, generators, validators),
    )
    ann = np.arange(n_annotated)
    confusion = pd.DataFrame(
        {
            "generator": np.repeat(generators[ann].to_numpy(), len(validators)),
            "validator": np.tile(validators.to_numpy(), n_annotated),
            "tp": tp[ann].ravel(),
            "fn": (valid[ann, None] - tp[ann]).ravel(),
            "fp": fp[ann].ravel(),
            "tn": ((n_items - valid)[ann, None] - fp[ann]).ravel(),
        }
    )
    return LatentWorld(
        counts=counts,
        confusion=confusion,
        precision=pd.Series(g, index=generators, name="precision"),
        sample_precision=pd.Series(valid / n_items, index=generators, name="sample_precision"),
        tpr=pd.Series(tpr, index=validators, name="tpr"),
        tnr=pd.Series(tnr, index=validators, name="tnr"),
        annotated=tuple(generators[ann]),
    )


@dataclass(frozen=True, eq=False)
class ItemWorld:
    """A simulated world at the item level: every vote, and the truth behind it.

    Attributes
    ----------
    judgments : DataFrame
        ``generator, item, validator, label``: the judgments table, one row per vote.
    human_labels : DataFrame
        ``generator, item, human`` for every item of the annotated generators.
    precision : Series
        The true g of every generator: the valid share of the population its
        items are drawn from.
    sample_precision : Series
        The valid share of each generator's drawn items.
    tpr, tnr : Series
        Each validator's TPR and TNR on an item of average difficulty (shift 0);
        with ``difficulty > 0`` the shares over items differ from them, the same
        for every generator.
    annotated : tuple of str
    """

    judgments: pd.DataFrame
    human_labels: pd.DataFrame
    precision: pd.Series
    sample_precision: pd.Series
    tpr: pd.Series
    tnr: pd.Series
    annotated: tuple[str, ...]


def simulate_item_votes(
    n_generators: int = 8,
    n_validators: int = 6,
    n_items: int = 300,
    *,
    n_annotated: int = 3,
    difficulty: float = 0.0,
    shared: bool = True,
    g_range: tuple[float, float] = (0.6, 0.95),
    tpr_range: tuple[float, float] = (0.8, 0.98),
    tnr_range: tuple[float, float] = (0.3, 0.8),
    seed: int | np.random.Generator | None = 0,
) -> ItemWorld:
    """Draw every vote of a latent-trait world, with items that move all their votes together.

    Item t of generator i is valid with probability g_i and has a shift
    ``s_t ~ N(0, difficulty)``; validator j calls it valid with probability
    ``expit(logit(TPR_j) + s_t)`` if it is valid, ``expit(logit(1 - TNR_j) + s_t)``
    if not (App. C.1, eqs. (4)-(6), with an item effect on the logit scale). An
    item with a large shift looks valid to every validator at once. Given the
    item, votes are independent; over items, each cell is binomial with the
    same TPR / TNR for every generator, so eq. (1) holds cell by cell, but the
    cells of one generator share its items (and on the annotated generators the
    anchors share them too).

    Parameters
    ----------
    n_generators, n_validators : int
    n_items : int
        Items per generator and validator.
    n_annotated : int
        The first ``n_annotated`` generators get human labels on every item.
    difficulty : float
        Standard deviation of the item shift (logit scale); 0 = no shift.
    shared : bool
        True (default): every validator judges the same ``n_items`` items of a
        generator. False: every validator judges its own ``n_items`` items, so
        no two cells share an item (votes independent across cells).
    g_range, tpr_range, tnr_range : (float, float)
        Uniform ranges of the true parameters.
    seed : int, Generator or None

    Examples
    --------
    >>> world = simulate_item_votes(3, 2, 5, n_annotated=1, seed=1)
    >>> len(world.judgments), len(world.human_labels)
    (30, 5)
    >>> len(simulate_item_votes(3, 2, 5, n_annotated=1, shared=False).human_labels)
    10
    """
    if not (np.isfinite(difficulty) and difficulty >= 0):
        raise ValueError(f"difficulty ({difficulty!r}) must be a finite number >= 0.")
    rng = np.random.default_rng(seed)
    gen_index, val_index, g, tpr, tnr = draw_traits(
        (n_generators, n_validators, n_items, n_annotated), (g_range, tpr_range, tnr_range), rng
    )
    gens, vals = gen_index.to_numpy(dtype=object), val_index.to_numpy(dtype=object)
    # Items: (generator, t, 1) when shared, (generator, t, validator) otherwise.
    width = 1 if shared else n_validators
    shape = (n_generators, n_items, width)
    valid = rng.random(shape) < g[:, None, None]
    shift = rng.normal(0.0, difficulty, shape) if difficulty > 0 else np.zeros(shape)
    base = np.where(valid, logit(tpr)[None, None, :], logit(1.0 - tnr)[None, None, :])
    votes = rng.random((n_generators, n_items, n_validators)) < expit(base + shift)
    item = np.arange(n_items)[None, :, None] * width + (
        np.arange(n_validators)[None, None, :] if not shared else 0
    )
    full = (n_generators, n_items, n_validators)
    judgments = pd.DataFrame(
        {
            "generator": np.broadcast_to(gens[:, None, None], full).ravel(),
            "item": np.broadcast_to(item, full).ravel(),
            "validator": np.broadcast_to(vals[None, None, :], full).ravel(),
            "label": votes.ravel().astype(np.int64),
        }
    )
    ann = n_annotated
    human = pd.DataFrame(
        {
            "generator": np.repeat(gens[:ann], n_items * width),
            "item": np.tile(np.arange(n_items * width), ann),
            "human": valid[:ann].reshape(ann, n_items * width).ravel().astype(np.int64),
        }
    )
    return ItemWorld(
        judgments=judgments,
        human_labels=human,
        precision=pd.Series(g, index=gen_index, name="precision"),
        sample_precision=pd.Series(
            valid.reshape(n_generators, -1).mean(axis=1), index=gen_index, name="sample_precision"
        ),
        tpr=pd.Series(tpr, index=val_index, name="tpr"),
        tnr=pd.Series(tnr, index=val_index, name="tnr"),
        annotated=tuple(gens[:ann]),
    )


def draw_traits(
    sizes: tuple[int, int, int, int],
    ranges: tuple[tuple[float, float], ...],
    rng: np.random.Generator | np.random.RandomState,
) -> tuple[pd.Index, pd.Index, np.ndarray, np.ndarray, np.ndarray]:
    """Check a world's sizes and ranges; its generator and validator names and true g, TPR, TNR.

    Every simulator of :mod:`regression.latent` draws its traits here, so the
    same seed gives the same generators and judges in each of them.

    ``sizes`` is ``(n_generators, n_validators, n_items, n_annotated)``, ``ranges``
    the uniform ranges of g, TPR and TNR, drawn in that order.
    """
    n_generators, n_validators, n_items, n_annotated = sizes
    for name, value in (
        ("n_generators", n_generators),
        ("n_validators", n_validators),
        ("n_items", n_items),
    ):
        if int(value) < 1:
            raise ValueError(f"{name} ({value!r}) must be at least 1.")
    if not 0 <= n_annotated <= n_generators:
        raise ValueError(f"n_annotated ({n_annotated!r}) must lie in [0, n_generators].")
    for name, bounds in zip(("g_range", "tpr_range", "tnr_range"), ranges, strict=True):
        check_probability(name, bounds)
    gens = pd.Index(
        [f"g{i:0{len(str(n_generators))}d}" for i in range(n_generators)], name="generator"
    )
    vals = pd.Index(
        [f"v{j:0{len(str(n_validators))}d}" for j in range(n_validators)], name="validator"
    )
    g_range, tpr_range, tnr_range = ranges
    g = rng.uniform(*g_range, n_generators)
    tpr = rng.uniform(*tpr_range, n_validators)
    tnr = rng.uniform(*tnr_range, n_validators)
    return gens, vals, g, tpr, tnr
