"""The paper's released leave-s-out errors, reproduced split by split (Fig. 6 / App. D.1).

Run: ``python benchmarks/run.py released_leave_out``. For both repair levels the paper
released errors for (``none`` and ``feedback+lines+labels``), every calibration subset of
the six annotated generators (s = 0..5, 63 splits) is fitted with
``LatentTraitModel.paper_release()`` (the released optimiser settings) and its max abs error
on the held-out annotated generators set beside the released one
(``paper_regression_errors.csv``). Prints, per level, the mean MaxAE per s (ours and
released) and the gap statistics that :data:`CRITERIA` bound, and stops with an error if a
bound fails, so ``make bench`` fails when the reproduction does.

Why bounds on the bulk and not split by split: the released numbers are L-BFGS-B's stall
points on the RMSE loss's kinks, and where a fit stalls moves with the floating-point path
(the OpenBLAS kernel and thread count, and scipy's C port of L-BFGS-B, not the Fortran the
paper ran). Over OPENBLAS_CORETYPE Prescott / Sandybridge / Haswell / Zen x 1 and 2 threads,
and SkylakeX (AVX-512) with 1, single splits move by up to a few points while the bulk
reproduces the release: the median |gap| over the 63 splits is 0.03-0.12 points, the signed
median within 0.02, 84-97 % of splits lie within 0.5 points, and the per-s means within 0.1-0.6
points.

``tests/regression/latent/test_leave_out.py`` runs :func:`released_gaps` on a subset of the
splits and checks the same :data:`CRITERIA`.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from jurycal.datasets import (
    ANNOTATED_GENERATORS,
    load_confusion,
    load_human_precision,
    load_paper_regression_errors,
    load_validator_rates,
)
from regression import LatentTraitModel, leave_out_evaluation

#: The repair levels the paper released leave-s-out errors for.
LEVELS = ("none", "feedback+lines+labels")

#: What holds on every kernel (module docstring), in percentage points: no systematic shift
#: (|signed median gap|), most splits reproduced (median |gap|, share within 0.5 points),
#: per-s means close, and the paper's own claim (section 5.2) that calibration is what makes
#: the model work (the s = 0 error over 5 times every calibrated s's).
CRITERIA = {
    "|median gap|": ("<=", 0.1),
    "median |gap|": ("<=", 0.2),
    "share |gap| <= 0.5": (">=", 0.75),
    "max |per-s mean gap|": ("<=", 1.0),
    "s=0 / worst calibrated s": (">", 5.0),
}


def released_gaps(level: str, sizes: Iterable[int] = range(0, 6)) -> pd.DataFrame:
    """Our max abs error beside the released one, one row per calibration subset.

    Parameters
    ----------
    level : str
        A repair level of :data:`LEVELS`.
    sizes : iterable of int
        The calibration sizes s to fit (every subset of each size).

    Returns
    -------
    pandas.DataFrame
        ``s, calibration_generators, max_abs_error, released, gap`` (gap in percentage
        points), one row per subset.
    """
    sizes = list(sizes)
    table = leave_out_evaluation(
        load_validator_rates(level),
        confusion=load_confusion(level),
        precision=load_human_precision(),
        annotated=list(ANNOTATED_GENERATORS),
        sizes=sizes,
        models={"paper": LatentTraitModel.paper_release()},
        baselines={},
    )
    paper = load_paper_regression_errors()
    paper = paper[(paper.repair_level == level) & paper.calibration_size.isin(sizes)]
    merged = table.merge(
        paper.rename(columns={"calibration_size": "s", "max_abs_error": "released"}),
        on=["s", "calibration_generators"],
        validate="one_to_one",
    )
    if len(merged) != len(table) or len(merged) != len(paper):
        raise ValueError(
            f"level {level!r}: {len(table)} fitted splits, {len(paper)} released, "
            f"{len(merged)} matched: the released file and the fits disagree on the splits"
        )
    merged["gap"] = (merged.max_abs_error - merged.released) * 100
    return merged[["s", "calibration_generators", "max_abs_error", "released", "gap"]]


def summarise(gaps: pd.DataFrame) -> dict[str, float]:
    """The statistics :data:`CRITERIA` bound, from :func:`released_gaps`'s table."""
    per_s = gaps.groupby("s")[["max_abs_error", "released"]].mean() * 100
    calibrated = per_s.max_abs_error[per_s.index > 0]
    return {
        "|median gap|": abs(gaps.gap.median()),
        "median |gap|": gaps.gap.abs().median(),
        "share |gap| <= 0.5": (gaps.gap.abs() <= 0.5).mean(),
        "max |per-s mean gap|": (per_s.max_abs_error - per_s.released).abs().max(),
        "s=0 / worst calibrated s": per_s.max_abs_error[0] / calibrated.max(),
    }


def failed_criteria(summary: dict[str, float]) -> list[str]:
    """The :data:`CRITERIA` a :func:`summarise` result breaks, each with its value."""
    failed = []
    for name, (sense, bound) in CRITERIA.items():
        value = summary[name]
        holds = {"<=": value <= bound, ">=": value >= bound, ">": value > bound}[sense]
        if not holds:
            failed.append(f"{name} = {value:.3f}, not {sense} {bound}")
    return failed


def main() -> None:
    pd.set_option("display.width", 200)
    rows, means, failures = [], [], []
    for level in LEVELS:
        gaps = released_gaps(level)
        per_s = gaps.groupby("s")[["max_abs_error", "released"]].mean() * 100
        per_s.insert(0, "level", level)
        means.append(per_s.rename(columns={"max_abs_error": "ours"}).round(2))
        summary = summarise(gaps)
        rows.append({"level": level, "splits": len(gaps), **summary})
        failures += [f"{level}: {failure}" for failure in failed_criteria(summary)]
    print("### Mean MaxAE (%) per s: LatentTraitModel.paper_release() and the released file\n")
    print(pd.concat(means).to_string())
    print("\n### Gap ours - released per split (percentage points) and its bounds\n")
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    bounds = ", ".join(f"{name} {sense} {bound}" for name, (sense, bound) in CRITERIA.items())
    print(f"\nbounds (every kernel): {bounds}")
    if failures:
        raise AssertionError(
            "the released leave-s-out errors no longer reproduce: " + "; ".join(failures)
        )


if __name__ == "__main__":
    main()
