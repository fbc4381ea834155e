"""One judge: naive, Rogan-Gladen and PPI++ estimates of a valid-rate, J / Delta J, comparisons.

A walk through the wing, in the order the data flows:

* :mod:`~regression.single_judge.tables`: the counts everything is computed
  from (test counts, the calibration 2 x 2, the paired 2 x 2);
* :mod:`~regression.single_judge.rogan_gladen` (Lee et al.) and
  :mod:`~regression.single_judge.ppi` (PPI++): the corrected estimators;
* :mod:`~regression.single_judge.diagnostics`: Youden's J, Delta J and the
  warnings of Fiedler section 4.4;
* :mod:`~regression.single_judge.prevalence`: one estimator's estimate and
  interval (:class:`PrevalenceEstimate`), the naive estimate alone;
* :mod:`~regression.single_judge.estimators`: PPI++ (the default, with the
  engine's bounded interval), Rogan-Gladen and naive side by side for one
  model (:func:`estimate_prevalence`);
* :mod:`~regression.single_judge.comparison`: two models through one judge
  (:func:`compare_models`), and what it returns
  (:mod:`~regression.single_judge.comparison_results`);
* :mod:`~regression.single_judge.bootstrap`: bootstraps on count tables;
* :mod:`~regression.single_judge.simulate`: simulated worlds and coverage studies.

The wing never imports the many-judges (latent-trait) wing.
"""

from regression.single_judge.bootstrap import (
    FEW_BOOT,
    BootstrapInterval,
    BootstrapResult,
    bootstrap_warnings,
    count_bootstrap,
    percentile_interval,
    resample_binomial,
    resample_table,
    resample_tables,
)
from regression.single_judge.comparison import (
    SHARED_CALIBRATIONS,
    compare_models,
    shared_calibration_bias,
)
from regression.single_judge.comparison_results import (
    COMPARISON_METHODS,
    DELTA_THETA_LIMITS,
    ComparisonEstimate,
    ModelComparison,
)
from regression.single_judge.diagnostics import (
    LOW_J,
    NEAR_TIE,
    DeltaJResult,
    YoudenJResult,
    delta_j_warnings,
    delta_youden_j,
    judge_warnings,
    near_tie_warnings,
    small_calibration_warnings,
    youden_j,
)
from regression.single_judge.estimators import (
    METHODS,
    SingleJudgeResult,
    estimate_prevalence,
)
from regression.single_judge.ppi import (
    PPI_MIN_PER_CLASS,
    PPIMeanResult,
    SmallCalibrationWarning,
    ppi_binary_bounded,
    ppi_binary_from_counts,
    ppi_mean,
)
from regression.single_judge.prevalence import (
    COVERS,
    PPI_NORMAL_COVERS,
    PrevalenceEstimate,
    naive_estimate,
)
from regression.single_judge.rogan_gladen import (
    allocate_calibration,
    rg_estimate,
    rg_from_rates,
    rg_interval,
    rg_standard_error,
)
from regression.single_judge.simulate import (
    SimulatedComparison,
    SimulatedSingleJudge,
    coverage_study,
    distribution_shift_study,
    simulate_comparison,
    simulate_single_judge,
)
from regression.single_judge.tables import (
    CalibrationTable,
    JudgeCounts,
    PairedJudgeTable,
    as_calibration_table,
    as_judge_counts,
)

__all__ = [
    "SHARED_CALIBRATIONS",
    "BootstrapInterval",
    "BootstrapResult",
    "COMPARISON_METHODS",
    "COVERS",
    "DELTA_THETA_LIMITS",
    "FEW_BOOT",
    "CalibrationTable",
    "ComparisonEstimate",
    "DeltaJResult",
    "JudgeCounts",
    "LOW_J",
    "METHODS",
    "ModelComparison",
    "NEAR_TIE",
    "PPIMeanResult",
    "PPI_NORMAL_COVERS",
    "PPI_MIN_PER_CLASS",
    "PairedJudgeTable",
    "PrevalenceEstimate",
    "SimulatedComparison",
    "SimulatedSingleJudge",
    "SingleJudgeResult",
    "SmallCalibrationWarning",
    "YoudenJResult",
    "allocate_calibration",
    "as_calibration_table",
    "as_judge_counts",
    "bootstrap_warnings",
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
    "ppi_binary_bounded",
    "ppi_binary_from_counts",
    "ppi_mean",
    "resample_binomial",
    "resample_table",
    "resample_tables",
    "rg_estimate",
    "rg_from_rates",
    "rg_interval",
    "rg_standard_error",
    "shared_calibration_bias",
    "simulate_comparison",
    "small_calibration_warnings",
    "simulate_single_judge",
    "youden_j",
]
