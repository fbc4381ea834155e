"""Bias-corrected estimation from LLM-judge verdicts.

Single judge: Rogan-Gladen with the adjusted interval (Lee et al.), PPI++, and
Fiedler's diagnostics and comparisons. Many judges: the latent-trait regression
over the generator x validator matrix (agreeableness paper, section 5).
"""

from regression.intervals import ConfidenceInterval, wald_interval, wilson_interval

# isort: split
# --- Many judges: latent-trait regression (agreeableness paper, section 5) ---------
from regression.anchors import Anchors, confusion_from_judgments
from regression.counts import Counts, counts_from_judgments
from regression.latent_simulate import LatentWorld, simulate_latent_world
from regression.latent_trait import (
    ConvergenceWarning,
    LatentTraitModel,
    LatentTraitResult,
    MisfitWarning,
    UnidentifiedWarning,
)
from regression.leave_out import DEFAULT_BASELINES, Split, leave_out_evaluation

# --- end latent-trait regression ----------------------------------------------------

__all__ = [
    "ConfidenceInterval",
    "wald_interval",
    "wilson_interval",
    # many judges: latent-trait regression
    "Anchors",
    "ConvergenceWarning",
    "Counts",
    "DEFAULT_BASELINES",
    "LatentTraitModel",
    "LatentTraitResult",
    "LatentWorld",
    "MisfitWarning",
    "Split",
    "UnidentifiedWarning",
    "confusion_from_judgments",
    "counts_from_judgments",
    "leave_out_evaluation",
    "simulate_latent_world",
]
