"""Simulated worlds in which the judges' TPR / TNR move between generators.

The worlds the default estimator for new generators (:mod:`regression.transfer.estimators`)
is measured on. Generator i has precision g_i and ``n_items`` outputs, of which
``a_i ~ Bin(n_items, g_i)`` are valid; validator j calls a valid output valid
with probability TPR_ij and an invalid one invalid with probability TNR_ij
(agreeableness paper, App. C.1, eqs. (4)-(6)), where on the logit scale

    logit TPR_ij = logit TPR_j + u_i + e_ij,
    logit TNR_ij = logit TNR_j - u_i - slope (g_i - mean g) + e'_ij,

with ``u_i ~ N(0, shared^2)`` a generator-level shift shared by every judge
(positive: every judge is more lenient with generator i), ``slope`` a
systematic drift (TNR falls as precision rises when positive) and
``e, e' ~ N(0, spread^2)`` each pair's own deviation. ``shared = slope =
spread = 0`` is the fixed model of section 5.

:data:`TRANSFER_WORLDS` names the six kinds of world of ``docs/new-generators.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
from scipy.special import expit, logit

from regression.checks import SeedLike, as_rng
from regression.latent.simulate import LatentWorld, draw_traits, latent_world

__all__ = ["TRANSFER_WORLDS", "simulate_transfer_world", "transfer_world"]

#: Settings of :func:`simulate_transfer_world` for each kind of world.
TRANSFER_WORLDS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        # eq. (1) holds: every generator shares each judge's TPR / TNR
        "fixed": MappingProxyType({}),
        # each (generator, judge) pair deviates at random
        "random": MappingProxyType({"spread": 0.5}),
        # TNR falls as precision rises, plus a generator-level shift
        "systematic": MappingProxyType({"slope": 4.0, "shared": 0.3, "spread": 0.2}),
        # like the agreeableness data: high precision, low TNR falling steeply with it
        "agreeable": MappingProxyType(
            {
                "g_range": (0.85, 0.97),
                "tnr_range": (0.1, 0.4),
                "slope": 6.0,
                "shared": 0.3,
                "spread": 0.2,
            }
        ),
        # J = TPR + TNR - 1 in [-0.15, 0.15]
        "uninformative": MappingProxyType(
            {"tpr_range": (0.45, 0.6), "tnr_range": (0.4, 0.55), "spread": 0.3}
        ),
        # J in [0.4, 0.85] and precision spread widely
        "informative": MappingProxyType(
            {
                "g_range": (0.3, 0.95),
                "tpr_range": (0.7, 0.95),
                "tnr_range": (0.7, 0.9),
                "spread": 0.4,
            }
        ),
    }
)


def simulate_transfer_world(
    n_generators: int = 14,
    n_validators: int = 14,
    n_items: int = 500,
    *,
    n_annotated: int = 6,
    g_range: tuple[float, float] = (0.6, 0.95),
    tpr_range: tuple[float, float] = (0.8, 0.98),
    tnr_range: tuple[float, float] = (0.3, 0.8),
    spread: float = 0.0,
    shared: float = 0.0,
    slope: float = 0.0,
    ties: int = 0,
    seed: SeedLike = 0,
) -> LatentWorld:
    """Draw a fully observed world whose judges' TPR / TNR depend on the generator.

    Parameters
    ----------
    n_generators, n_validators, n_items : int
        Matrix size and outputs per generator (every validator judges all of them).
    n_annotated : int
        The first ``n_annotated`` generators get a confusion table.
    g_range, tpr_range, tnr_range : (float, float)
        Uniform ranges of the true precision and of each judge's own TPR / TNR.
    spread : float
        Standard deviation of each pair's own logit deviation.
    shared : float
        Standard deviation of the generator-level logit shift ``u_i``.
    slope : float
        Logit TNR falls by ``slope`` per unit of precision above the mean.
    ties : int
        The last ``ties`` generators get the true precision of the first one
        (tied generators, for the studies of comparisons and rank sets).
    seed : int, Generator or None

    Returns
    -------
    LatentWorld
        ``tpr`` and ``tnr`` are the judges' own levels; ``sample_precision`` the
        valid share of each generator's drawn items (what full human labels report).

    Raises
    ------
    ValueError
        A size below 1, ``n_annotated`` outside [0, n_generators], a range
        outside [0, 1], a negative (or non-finite) ``spread``, ``shared``, or
        ``ties`` outside [0, n_generators - 1].

    Examples
    --------
    >>> world = simulate_transfer_world(5, 4, 100, n_annotated=2, spread=0.5, seed=1)
    >>> world.counts.n_labelled.shape, len(world.confusion)
    ((5, 4), 8)
    """
    for name, sd in (("spread", spread), ("shared", shared)):
        if not (np.isfinite(sd) and sd >= 0):
            raise ValueError(f"{name} ({sd!r}) must be a finite number >= 0.")
    if not np.isfinite(slope):
        raise ValueError(f"slope ({slope!r}) must be finite.")
    if not 0 <= ties < n_generators:
        raise ValueError(f"ties ({ties!r}) must lie in [0, n_generators - 1].")
    rng = as_rng(seed)
    shape = (n_generators, n_validators)
    gens, vals, g, tpr, tnr = draw_traits(
        (n_generators, n_validators, n_items, n_annotated), (g_range, tpr_range, tnr_range), rng
    )
    if ties:
        g[n_generators - ties :] = g[0]
    shift = (
        rng.normal(0.0, shared, n_generators)[:, None] if shared > 0 else np.zeros((shape[0], 1))
    )
    drift = slope * (g - g.mean())[:, None]
    noise_p = rng.normal(0.0, spread, shape) if spread > 0 else np.zeros(shape)
    noise_n = rng.normal(0.0, spread, shape) if spread > 0 else np.zeros(shape)
    tpr_ij = expit(logit(tpr)[None, :] + shift + noise_p)
    tnr_ij = expit(logit(tnr)[None, :] - shift - drift + noise_n)
    valid = rng.binomial(n_items, g)
    tp = rng.binomial(np.broadcast_to(valid[:, None], shape), tpr_ij)
    fp = rng.binomial(np.broadcast_to((n_items - valid)[:, None], shape), 1.0 - tnr_ij)
    return latent_world(gens, vals, (g, tpr, tnr), (valid, tp, fp), n_items, n_annotated)


def transfer_world(kind: str, seed: SeedLike = 0, **settings: Any) -> LatentWorld:
    """The world of :data:`TRANSFER_WORLDS` named ``kind``; ``settings`` override its entries.

    Raises
    ------
    ValueError
        ``kind`` not recognized.

    Examples
    --------
    >>> transfer_world("systematic", seed=3, n_items=200).counts.n_labelled.iloc[0, 0]
    np.int64(200)
    """
    if kind not in TRANSFER_WORLDS:
        raise ValueError(
            f"kind ({kind!r}) not recognized; must be one of {tuple(TRANSFER_WORLDS)}."
        )
    return simulate_transfer_world(**{**TRANSFER_WORLDS[kind], **settings, "seed": seed})
