"""Many judges: the latent-trait regression over the generator x validator matrix.

Agreeableness paper, section 5: each generator i has a precision g_i, each
validator j a TPR v+_j and a TNR v-_j, and validator j calls an output of
generator i valid with probability ``g_i v+_j + (1 - g_i)(1 - v-_j)`` (eq. (1)).
"""

from regression.latent.anchors import (
    CONFUSION_COLUMNS,
    Anchors,
    ConfusionCounts,
    confusion_from_judgments,
)
from regression.latent.counts import Counts, counts_from_encoded, counts_from_judgments
from regression.latent.data import LatentData, latent_data, matrix_inputs
from regression.latent.judgments import EncodedJudgments, encode_judgments
from regression.latent.leave_out import (
    DEFAULT_BASELINES,
    Split,
    default_models,
    leave_out_evaluation,
)
from regression.latent.model import MODEL_LOSSES, LatentTraitModel
from regression.latent.result import INTERVAL_METHODS, FitInputs, LatentTraitResult, fit_result
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
from regression.latent.transfer import ESTIMATORS, Estimate, TransferData
from regression.latent.transfer_model import TransferModel, TransferResult, transfer_data
from regression.latent.worlds import TRANSFER_WORLDS, simulate_transfer_world, transfer_world

__all__ = [
    "BACKENDS",
    "CONFUSION_COLUMNS",
    "INTERVAL_METHODS",
    "LOSSES",
    "MODEL_LOSSES",
    "Anchors",
    "ConfusionCounts",
    "ESTIMATORS",
    "Estimate",
    "TRANSFER_WORLDS",
    "TransferData",
    "TransferModel",
    "TransferResult",
    "default_models",
    "simulate_transfer_world",
    "transfer_data",
    "transfer_world",
    "ConvergenceWarning",
    "Counts",
    "DEFAULT_BASELINES",
    "EncodedJudgments",
    "FitInputs",
    "ItemWorld",
    "LatentData",
    "LatentTraitModel",
    "LatentTraitResult",
    "LatentWorld",
    "MisfitWarning",
    "Restarts",
    "Solver",
    "Split",
    "UnidentifiedWarning",
    "confusion_from_judgments",
    "counts_from_encoded",
    "counts_from_judgments",
    "encode_judgments",
    "fit_result",
    "latent_data",
    "matrix_inputs",
    "pearson_dispersion",
    "select_best",
    "leave_out_evaluation",
    "simulate_item_votes",
    "simulate_latent_world",
]
