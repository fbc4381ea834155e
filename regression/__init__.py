"""Bias-corrected estimation from LLM-judge verdicts.

Single judge: Rogan-Gladen with the adjusted interval (Lee et al.), PPI++, and
Fiedler's diagnostics and comparisons. Many judges: the latent-trait regression
over the generator x validator matrix (agreeableness paper, section 5).
"""

from regression.bootstrap import (
    BootstrapResult,
    count_bootstrap,
    percentile_interval,
    resample_binomial,
    resample_table,
    resample_tables,
)
from regression.comparison import (
    COMPARISON_METHODS,
    ComparisonEstimate,
    ModelComparison,
    compare_models,
    shared_calibration_bias,
)
from regression.diagnostics import (
    LOW_J,
    NEAR_TIE,
    DeltaJResult,
    YoudenJResult,
    delta_j_warnings,
    delta_youden_j,
    judge_warnings,
    near_tie_warnings,
    youden_j,
)
from regression.intervals import ConfidenceInterval, wald_interval, wilson_interval
from regression.latent import (
    DEFAULT_BASELINES,
    Anchors,
    ConvergenceWarning,
    Counts,
    ItemWorld,
    LatentTraitModel,
    LatentTraitResult,
    LatentWorld,
    MisfitWarning,
    Split,
    UnidentifiedWarning,
    confusion_from_judgments,
    counts_from_judgments,
    leave_out_evaluation,
    simulate_item_votes,
    simulate_latent_world,
)
from regression.ppi import PPIMeanResult, ppi_binary_from_counts, ppi_mean
from regression.rogan_gladen import (
    allocate_calibration,
    rg_estimate,
    rg_interval,
    rg_standard_error,
)
from regression.simulate import (
    SimulatedComparison,
    SimulatedSingleJudge,
    coverage_study,
    distribution_shift_study,
    simulate_comparison,
    simulate_single_judge,
)
from regression.single_judge import (
    PrevalenceEstimate,
    SingleJudgeResult,
    estimate_prevalence,
    naive_estimate,
)
from regression.tables import CalibrationTable, JudgeCounts, PairedJudgeTable

__all__ = [
    "ConfidenceInterval",
    "wald_interval",
    "wilson_interval",
    # single judge: Rogan-Gladen, PPI++, diagnostics, comparisons, bootstrap, simulation
    "BootstrapResult",
    "COMPARISON_METHODS",
    "CalibrationTable",
    "ComparisonEstimate",
    "DeltaJResult",
    "JudgeCounts",
    "LOW_J",
    "ModelComparison",
    "NEAR_TIE",
    "PPIMeanResult",
    "PairedJudgeTable",
    "PrevalenceEstimate",
    "SimulatedComparison",
    "SimulatedSingleJudge",
    "SingleJudgeResult",
    "YoudenJResult",
    "allocate_calibration",
    "compare_models",
    "count_bootstrap",
    "coverage_study",
    "delta_j_warnings",
    "delta_youden_j",
    "distribution_shift_study",
    "estimate_prevalence",
    "judge_warnings",
    "naive_estimate",
    "near_tie_warnings",
    "percentile_interval",
    "ppi_binary_from_counts",
    "ppi_mean",
    "resample_binomial",
    "resample_table",
    "resample_tables",
    "rg_estimate",
    "rg_interval",
    "rg_standard_error",
    "shared_calibration_bias",
    "simulate_comparison",
    "simulate_single_judge",
    "youden_j",
    # many judges: latent-trait regression
    "Anchors",
    "ConvergenceWarning",
    "Counts",
    "DEFAULT_BASELINES",
    "LatentTraitModel",
    "LatentTraitResult",
    "ItemWorld",
    "LatentWorld",
    "MisfitWarning",
    "Split",
    "UnidentifiedWarning",
    "confusion_from_judgments",
    "counts_from_judgments",
    "leave_out_evaluation",
    "simulate_item_votes",
    "simulate_latent_world",
]
