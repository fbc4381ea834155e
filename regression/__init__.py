"""Bias-corrected estimation from LLM-judge verdicts.

Single judge: Rogan-Gladen with the adjusted interval (Lee et al.), PPI++, and
Fiedler's diagnostics and comparisons. Many judges: the latent-trait regression
over the generator x validator matrix (agreeableness paper, section 5).

The names below load on first use (SPEC 1 style), so ``import regression`` is cheap
and a command that needs one estimator does not pay for the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regression.data import (
        Anchors,
        Counts,
        confusion_from_judgments,
        counts_from_judgments,
    )
    from regression.intervals import (
        ConfidenceInterval,
        wald_interval,
        wilson_interval,
    )
    from regression.latent import (
        ConvergenceWarning,
        ItemWorld,
        LatentTraitModel,
        LatentTraitResult,
        LatentWorld,
        MisfitWarning,
        UnidentifiedWarning,
        simulate_item_votes,
        simulate_latent_world,
        simulate_transfer_world,
        transfer_world,
    )
    from regression.leave_out import (
        DEFAULT_BASELINES,
        Split,
        leave_out_evaluation,
    )
    from regression.single_judge import (
        COMPARISON_METHODS,
        LOW_J,
        NEAR_TIE,
        BootstrapResult,
        CalibrationTable,
        ComparisonEstimate,
        DeltaJResult,
        JudgeCounts,
        ModelComparison,
        PairedJudgeTable,
        PPIMeanResult,
        PrevalenceEstimate,
        SimulatedComparison,
        SimulatedSingleJudge,
        SingleJudgeResult,
        YoudenJResult,
        allocate_calibration,
        compare_models,
        count_bootstrap,
        coverage_study,
        delta_j_warnings,
        delta_youden_j,
        distribution_shift_study,
        estimate_prevalence,
        judge_warnings,
        naive_estimate,
        near_tie_warnings,
        percentile_interval,
        ppi_binary_from_counts,
        ppi_mean,
        resample_binomial,
        resample_table,
        resample_tables,
        rg_estimate,
        rg_interval,
        rg_standard_error,
        shared_calibration_bias,
        simulate_comparison,
        simulate_single_judge,
        youden_j,
    )
    from regression.transfer import (
        TransferModel,
        TransferResult,
    )

#: Public name -> the module that defines it.
_EXPORTS = {
    "Anchors": "regression.data",
    "confusion_from_judgments": "regression.data",
    "Counts": "regression.data",
    "counts_from_judgments": "regression.data",
    "ConfidenceInterval": "regression.intervals",
    "wald_interval": "regression.intervals",
    "wilson_interval": "regression.intervals",
    "ConvergenceWarning": "regression.latent",
    "ItemWorld": "regression.latent",
    "LatentTraitModel": "regression.latent",
    "LatentTraitResult": "regression.latent",
    "LatentWorld": "regression.latent",
    "MisfitWarning": "regression.latent",
    "simulate_item_votes": "regression.latent",
    "simulate_latent_world": "regression.latent",
    "simulate_transfer_world": "regression.latent",
    "transfer_world": "regression.latent",
    "UnidentifiedWarning": "regression.latent",
    "DEFAULT_BASELINES": "regression.leave_out",
    "leave_out_evaluation": "regression.leave_out",
    "Split": "regression.leave_out",
    "allocate_calibration": "regression.single_judge",
    "BootstrapResult": "regression.single_judge",
    "CalibrationTable": "regression.single_judge",
    "compare_models": "regression.single_judge",
    "COMPARISON_METHODS": "regression.single_judge",
    "ComparisonEstimate": "regression.single_judge",
    "count_bootstrap": "regression.single_judge",
    "coverage_study": "regression.single_judge",
    "delta_j_warnings": "regression.single_judge",
    "delta_youden_j": "regression.single_judge",
    "DeltaJResult": "regression.single_judge",
    "distribution_shift_study": "regression.single_judge",
    "estimate_prevalence": "regression.single_judge",
    "judge_warnings": "regression.single_judge",
    "JudgeCounts": "regression.single_judge",
    "LOW_J": "regression.single_judge",
    "ModelComparison": "regression.single_judge",
    "naive_estimate": "regression.single_judge",
    "NEAR_TIE": "regression.single_judge",
    "near_tie_warnings": "regression.single_judge",
    "PairedJudgeTable": "regression.single_judge",
    "percentile_interval": "regression.single_judge",
    "ppi_binary_from_counts": "regression.single_judge",
    "ppi_mean": "regression.single_judge",
    "PPIMeanResult": "regression.single_judge",
    "PrevalenceEstimate": "regression.single_judge",
    "resample_binomial": "regression.single_judge",
    "resample_table": "regression.single_judge",
    "resample_tables": "regression.single_judge",
    "rg_estimate": "regression.single_judge",
    "rg_interval": "regression.single_judge",
    "rg_standard_error": "regression.single_judge",
    "shared_calibration_bias": "regression.single_judge",
    "simulate_comparison": "regression.single_judge",
    "simulate_single_judge": "regression.single_judge",
    "SimulatedComparison": "regression.single_judge",
    "SimulatedSingleJudge": "regression.single_judge",
    "SingleJudgeResult": "regression.single_judge",
    "youden_j": "regression.single_judge",
    "YoudenJResult": "regression.single_judge",
    "TransferModel": "regression.transfer",
    "TransferResult": "regression.transfer",
}

__all__ = [
    "allocate_calibration",
    "Anchors",
    "BootstrapResult",
    "CalibrationTable",
    "compare_models",
    "COMPARISON_METHODS",
    "ComparisonEstimate",
    "ConfidenceInterval",
    "confusion_from_judgments",
    "ConvergenceWarning",
    "count_bootstrap",
    "Counts",
    "counts_from_judgments",
    "coverage_study",
    "DEFAULT_BASELINES",
    "delta_j_warnings",
    "delta_youden_j",
    "DeltaJResult",
    "distribution_shift_study",
    "estimate_prevalence",
    "ItemWorld",
    "judge_warnings",
    "JudgeCounts",
    "LatentTraitModel",
    "LatentTraitResult",
    "LatentWorld",
    "leave_out_evaluation",
    "LOW_J",
    "MisfitWarning",
    "ModelComparison",
    "naive_estimate",
    "NEAR_TIE",
    "near_tie_warnings",
    "PairedJudgeTable",
    "percentile_interval",
    "ppi_binary_from_counts",
    "ppi_mean",
    "PPIMeanResult",
    "PrevalenceEstimate",
    "resample_binomial",
    "resample_table",
    "resample_tables",
    "rg_estimate",
    "rg_interval",
    "rg_standard_error",
    "shared_calibration_bias",
    "simulate_comparison",
    "simulate_item_votes",
    "simulate_latent_world",
    "simulate_single_judge",
    "simulate_transfer_world",
    "SimulatedComparison",
    "SimulatedSingleJudge",
    "SingleJudgeResult",
    "Split",
    "transfer_world",
    "TransferModel",
    "TransferResult",
    "UnidentifiedWarning",
    "wald_interval",
    "wilson_interval",
    "youden_j",
    "YoudenJResult",
]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'regression' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
