"""Bias-corrected estimation from LLM-judge verdicts.

Single judge: Rogan-Gladen with the adjusted interval (Lee et al.), PPI++, and
Fiedler's diagnostics and comparisons. Many judges: the estimators of the
generators' precision chosen by name (:mod:`regression.registry`), the
transfer estimator for new generators and the latent-trait regression over the
generator x validator matrix (agreeableness paper, section 5).

The public names are listed once, in ``__init__.pyi``, and load on first use
(:func:`regression.lazy.attach_stub`), so ``import regression`` is cheap and a
command that needs one estimator does not pay for the others. The rest is
imported from its own module (``regression.single_judge``, ``regression.latent``,
...); simulators are under :mod:`regression.simulate`.
"""

from __future__ import annotations

from regression.lazy import attach_stub, moved

_front_getattr, __dir__, __all__ = attach_stub(__name__, __file__)

#: Names that left the front door: each still resolves, for one release, with a
#: FutureWarning naming the module to import it from.
_MOVED = {
    "confusion_from_judgments": "regression.data",
    "ConvergenceWarning": "regression.errors",
    "DuplicateRowError": "regression.errors",
    "LabelError": "regression.errors",
    "MisfitWarning": "regression.errors",
    "MissingColumnError": "regression.errors",
    "MissingValueError": "regression.errors",
    "SettingsWarning": "regression.errors",
    "UnidentifiedWarning": "regression.errors",
    "wald_interval": "regression.intervals",
    "wilson_interval": "regression.intervals",
    "DEFAULT_BASELINES": "regression.leave_out",
    "Split": "regression.leave_out",
    "could_be_best": "regression.ranking",
    "rank_sets": "regression.ranking",
    "coverage_study": "regression.simulate",
    "distribution_shift_study": "regression.simulate",
    "ItemWorld": "regression.simulate",
    "LatentWorld": "regression.simulate",
    "simulate_comparison": "regression.simulate",
    "simulate_item_votes": "regression.simulate",
    "simulate_latent_world": "regression.simulate",
    "simulate_single_judge": "regression.simulate",
    "simulate_transfer_world": "regression.simulate",
    "SimulatedComparison": "regression.simulate",
    "SimulatedSingleJudge": "regression.simulate",
    "transfer_world": "regression.simulate",
    "allocate_calibration": "regression.single_judge",
    "BootstrapResult": "regression.single_judge",
    "CalibrationTable": "regression.single_judge",
    "COMPARISON_METHODS": "regression.single_judge",
    "ComparisonEstimate": "regression.single_judge",
    "count_bootstrap": "regression.single_judge",
    "delta_j_warnings": "regression.single_judge",
    "delta_youden_j": "regression.single_judge",
    "DeltaJResult": "regression.single_judge",
    "judge_warnings": "regression.single_judge",
    "JudgeCounts": "regression.single_judge",
    "LOW_J": "regression.single_judge",
    "naive_estimate": "regression.single_judge",
    "NEAR_TIE": "regression.single_judge",
    "near_tie_warnings": "regression.single_judge",
    "PairedJudgeTable": "regression.single_judge",
    "percentile_interval": "regression.single_judge",
    "ppi_binary_from_counts": "regression.single_judge",
    "PPIMeanResult": "regression.single_judge",
    "PrevalenceEstimate": "regression.single_judge",
    "resample_binomial": "regression.single_judge",
    "resample_table": "regression.single_judge",
    "resample_tables": "regression.single_judge",
    "rg_estimate": "regression.single_judge",
    "rg_standard_error": "regression.single_judge",
    "shared_calibration_bias": "regression.single_judge",
    "youden_j": "regression.single_judge",
    "YoudenJResult": "regression.single_judge",
}


__getattr__ = moved(__name__, _MOVED, _front_getattr)
