"""The engine (regression.core): lam's guards for every outcome type, and the same numbers as the
formulas the estimators carried before they shared it."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression.core import (
    cross_fit,
    design_lam,
    design_moments,
    design_weights,
    dof_scale,
    guarded_lam,
    hajek_mean,
    joint_covariance,
    lam_by_rule,
    linearised_terms,
    with_pseudo_outcomes,
)
from regression.labels.partial import ppi_design_mean
from regression.pairwise import check_pairwise
from regression.pairwise.win_rate import win_rates
from regression.single_judge.ppi import SmallCalibrationWarning, ppi_binary_from_counts, ppi_mean

# Rounding: every comparison across two ways of summing the same terms allows 1e-12 relative
# (sums of at most a few hundred terms of order 1, each rounded at 2^-53).
RTOL = 1e-12

units = st.integers(min_value=3, max_value=40)


# ---------------------------------------------------------------- lam's guards, every outcome type


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=units, value=st.floats(0.0, 1.0))
def test_constant_prediction_gives_the_difference_estimator(seed, n, value):
    rng = np.random.default_rng(seed)
    outcomes = rng.integers(0, 2, n).astype(float)
    population = np.concatenate([np.full(n, value), rng.random(5)])
    noise = rng.normal(scale=1e-17, size=2)  # the ratio of rounding errors the guard replaces
    lam = guarded_lam(
        noise[0],
        abs(noise[1]),
        predictions=np.full(n, value),
        population=population,
        outcomes=outcomes,
    )
    # exact: lam guarded to 0 or 1 by construction
    assert lam == (1.0 if np.ptp(outcomes) > 0 else 0.0)
    # judges that tell no unit from another: the outcomes stand alone
    flat = guarded_lam(
        0.1, 0.2, predictions=np.full(n, value), population=np.full(n + 5, value), outcomes=outcomes
    )
    assert flat == 0.0  # exact: lam guarded to 0 or 1 by construction


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=units, label=st.sampled_from([0.0, 0.5, 1.0]))
def test_constant_outcomes_give_the_outcomes_alone(seed, n, label):
    rng = np.random.default_rng(seed)
    predictions = rng.random(n)
    lam = guarded_lam(
        rng.normal(),
        rng.random(),
        predictions=predictions,
        population=predictions,
        outcomes=np.full(n, label),
    )
    assert lam == 0.0  # exact: lam guarded to 0 or 1 by construction


@settings(max_examples=60, deadline=None)
@given(cov=st.floats(-1e6, 1e6), var=st.floats(-1.0, 1e6))
def test_lam_is_clipped_to_the_unit_interval(cov, var):
    lam = float(
        lam_by_rule(cov, var, predictions_vary=True, population_varies=True, outcomes_vary=True)
    )
    assert 0.0 <= lam <= 1.0
    if var <= 0:
        assert lam == 0.0  # exact: lam guarded to 0 or 1 by construction


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30), judged=st.sampled_from([0.0, 1.0]))
def test_single_judge_constant_calibration_prediction(seed, n, judged):
    # binary labels, one judge: calibration predictions all one value, test predictions vary
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)
    y[:2] = [0.0, 1.0]
    test = rng.integers(0, 2, 50).astype(float)
    test[:2] = [0.0, 1.0]
    with warnings.catch_warnings():  # a small calibration set widens the interval, not lam
        warnings.simplefilter("ignore", SmallCalibrationWarning)
        fit = ppi_mean(y, np.full(n, judged), test)
    assert fit.lam == 1.0  # exact: lam guarded to 0 or 1 by construction
    tp, fn = (y.sum(), 0) if judged else (0, y.sum())
    fp, tn = (n - y.sum(), 0) if judged else (0, n - y.sum())
    _, _, lam = ppi_binary_from_counts(tp, fn, fp, tn, test.sum(), test.size)
    assert float(lam) == 1.0  # exact: lam guarded to 0 or 1 by construction


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 40), value=st.floats(0.01, 0.99))
def test_labels_constant_prediction(seed, n, value):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(float)
    q_all = np.concatenate([np.full(n, value), rng.random(100)])
    est = ppi_design_mean(y, np.full(n, value), q_all)
    # exact: lam guarded to 0 or 1 by construction
    assert est.lam == (1.0 if np.ptp(y) > 0 else 0.0)


def _one_prediction_board(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """x and y fully voted with an informative judge; z's voted battles all judged ties (its
    prediction is exactly 1/2 there), its unvoted ones decisive (its predictions vary)."""
    rng = np.random.default_rng(seed)
    rows, human = [], []
    for item in range(60):
        truth = rng.choice(["a", "b"])
        judge = truth if rng.random() < 0.8 else ("b" if truth == "a" else "a")
        rows.append((item, "x", "y", judge))
        human.append((item, "x", "y", truth))
    for item in range(60, 100):
        other = "x" if item % 2 else "y"
        voted = item < 72
        rows.append((item, "z", other, "tie" if voted else rng.choice(["a", "b"])))
        if voted:
            human.append((item, "z", other, rng.choice(["a", "b", "tie"])))
    verdicts = pd.DataFrame(rows, columns=["item", "generator_a", "generator_b", "verdict"])
    verdicts["validator"] = "j"
    return verdicts, pd.DataFrame(human, columns=["item", "generator_a", "generator_b", "human"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_pairwise_generator_with_one_prediction_gets_the_guard(seed):
    # the fix: this lam was a ratio of rounding errors (1.0, 0 or anything between by the draw)
    verdicts, human = _one_prediction_board(seed)
    fit = win_rates(check_pairwise(verdicts, human))
    z_votes = human.loc[human["generator_a"] == "z", "human"]
    # exact: lam guarded to 0 or 1 by construction
    assert fit.lam["z"] == (1.0 if z_votes.nunique() > 1 else 0.0)


# ------------------------------------------------- the engine gives the numbers of the old formulas


def _old_labels_terms(y, f, w, c):
    total = w.sum()
    ey = y - (w * y).sum() / total
    ef = f - (w * f).sum() / total
    return (c * ey * ey).sum(), (c * ey * ef).sum(), (c * ef * ef).sum()


def _old_pairwise_lam(w, y, q):
    w = np.concatenate([w, [w.mean(), w.mean()]])
    y = np.concatenate([y, [0.0, 1.0]])
    q = np.concatenate([q, [q.mean(), q.mean()]])
    weights = w * (w - 1.0) + 1e-12
    qc = q - np.average(q, weights=weights)
    yc = y - np.average(y, weights=weights)
    var = np.sum(weights * qc * qc)
    return float(np.clip(np.sum(weights * qc * yc) / var, 0.0, 1.0)) if var > 0 else 0.0


samples = st.tuples(st.integers(0, 2**32 - 1), st.integers(4, 60))


@settings(max_examples=60, deadline=None)
@given(sample=samples)
def test_design_moments_equal_the_labels_formula(sample):
    seed, n = sample
    rng = np.random.default_rng(seed)
    y, f = rng.integers(0, 2, n).astype(float), rng.random(n)
    pi = rng.uniform(0.05, 1.0, n)
    w = 1.0 / pi
    c = (1.0 - pi) * w * w
    np.testing.assert_allclose(design_weights(pi), c, rtol=RTOL, atol=1e-15)
    np.testing.assert_allclose(
        design_moments(y, f, w, c), _old_labels_terms(y, f, w, c), rtol=RTOL, atol=1e-13
    )
    assert hajek_mean(y, w) == pytest.approx((w * y).sum() / w.sum(), rel=RTOL)


@settings(max_examples=60, deadline=None)
@given(sample=samples)
def test_pairwise_tuning_equals_its_old_formula_where_the_predictions_vary(sample):
    seed, n = sample
    rng = np.random.default_rng(seed)
    y = rng.choice([0.0, 0.5, 1.0], n)
    y[:2] = [0.0, 1.0]
    q, w = rng.random(n), 1.0 / rng.uniform(0.05, 0.9, n)
    spread = design_weights(1.0 / w) + 1e-12
    at_mean = float(design_weights(1.0 / w.mean())) + 1e-12
    aug = with_pseudo_outcomes(
        y, q, spread, spread, at=float(q.mean()), centre_weight=at_mean, spread_weight=at_mean
    )
    _, cov, var = design_moments(aug[0], aug[1], aug[2], aug[3])
    lam = guarded_lam(cov, var, predictions=q, population=q, outcomes=y)
    # clipping at 0 or 1 is exact either way; inside, the ratio of sums rounds differently
    assert lam == pytest.approx(_old_pairwise_lam(w, y, q), rel=1e-9, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(sample=samples, tuned=st.booleans())
def test_linearised_terms_equal_the_win_rate_formula(sample, tuned):
    seed, n = sample
    rng = np.random.default_rng(seed)
    r, w = rng.random(n), 1.0 / rng.uniform(0.05, 1.0, n)
    pi = 1.0 / w
    m = np.sum(w * r) / np.sum(w)
    bessel = n / (n - 1.0 - tuned)
    old = np.sqrt(bessel * (1.0 - pi)) / pi * (r - m) / 200.0
    new = linearised_terms(r, w, 200.0, dof_scale(n, 1, tuned=tuned))
    np.testing.assert_allclose(new, old, rtol=RTOL, atol=1e-15)
    phi = np.column_stack([new, -new])  # one unit, two targets of opposite signs
    cov = joint_covariance(phi)
    assert cov[0, 1] == -cov[0, 0]  # exact: the same products with one sign flipped


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 30))
def test_cross_fit_equals_the_fold_loop(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n + 10, 2))
    labelled = np.sort(rng.choice(n + 10, n, replace=False))

    def fit(train):
        beta = x[train].mean(axis=0)
        return lambda at: x[at] @ beta

    folds = np.random.default_rng(seed).permutation(n) % min(5, n)
    old = np.zeros(n + 10)
    other = np.ones(n + 10, dtype=bool)
    other[labelled] = False
    for j in range(int(folds.max()) + 1):
        beta = x[labelled[folds != j]].mean(axis=0)
        old[labelled[folds == j]] = x[labelled[folds == j]] @ beta
        old[other] += x[other] @ beta / (int(folds.max()) + 1)
    np.testing.assert_allclose(cross_fit(fit, n + 10, labelled, seed=seed), old, rtol=RTOL)


def test_labels_tuned_lam_is_between_0_and_1_with_all_agreeing_labels():
    rng = np.random.default_rng(0)
    f = rng.random(30)
    lam = design_lam(np.ones(30), f, rng.random(300), np.full(30, 0.1))
    assert (
        lam == 0.0  # exact: lam guarded to 0 or 1 by construction
    )  # the labels say nothing of the judges' errors


# ---------------------------------------------------------------- the engine is the ground floor

ALLOWED = {"numpy", "scipy", "pandas", "__future__", "collections", "dataclasses", "typing"}
GROUND_FLOOR = {"regression.checks", "regression.errors", "regression.intervals"}


def test_the_engine_imports_nothing_above_it():
    core = Path(__file__).resolve().parents[3] / "regression" / "core"
    found = []
    for path in sorted(core.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                top = name.split(".")[0]
                inside = name.startswith("regression.core") or name in GROUND_FLOOR
                if not (top in ALLOWED or inside):
                    found.append(f"{path.name} imports {name}")
    assert found == []
