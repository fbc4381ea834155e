"""Many judges: the latent-trait regression over the generator x validator matrix.

Agreeableness paper, section 5: each generator i has a precision g_i, each
validator j a TPR v+_j and a TNR v-_j, and validator j calls an output of
generator i valid with probability ``g_i v+_j + (1 - g_i)(1 - v-_j)`` (eq. (1)).
The checked inputs it fits live in :mod:`regression.data`.
"""

from regression.latent.data import LatentData, latent_data
from regression.latent.fit import fit_result
from regression.latent.inputs import FitInputs
from regression.latent.model import LatentTraitModel
from regression.latent.result import INTERVAL_METHODS, LatentTraitResult
from regression.latent.simulate import (
    ItemWorld,
    LatentWorld,
    simulate_item_votes,
    simulate_latent_world,
)
from regression.latent.solver import (
    BACKENDS,
    LOSSES,
    ConvergenceWarning,
    MisfitWarning,
    Restarts,
    Solver,
    UnidentifiedWarning,
    pearson_dispersion,
    select_best,
)
from regression.latent.worlds import TRANSFER_WORLDS, simulate_transfer_world, transfer_world

__all__ = [
    "BACKENDS",
    "INTERVAL_METHODS",
    "LOSSES",
    "TRANSFER_WORLDS",
    "ConvergenceWarning",
    "FitInputs",
    "ItemWorld",
    "LatentData",
    "LatentTraitModel",
    "LatentTraitResult",
    "LatentWorld",
    "MisfitWarning",
    "Restarts",
    "Solver",
    "UnidentifiedWarning",
    "fit_result",
    "latent_data",
    "pearson_dispersion",
    "select_best",
    "simulate_item_votes",
    "simulate_latent_world",
    "simulate_transfer_world",
    "transfer_world",
]
