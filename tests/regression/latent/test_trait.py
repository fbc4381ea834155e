"""LatentTraitModel: recovery, sparse fits, identifiability, warnings, bad input, intervals."""

import warnings

import numpy as np
import pandas as pd
import pytest

from regression import Anchors, Counts, LatentTraitModel
from regression.datasets import (
    load_agreeableness_judgments,
    load_confusion,
    load_human_precision,
    load_validator_rates,
)
from regression.errors import ConvergenceWarning, MisfitWarning, UnidentifiedWarning
from regression.simulate import simulate_latent_world

TRUTH = load_human_precision()


def _set_row(frame, row, value):
    frame = frame.copy()
    frame.loc[row] = value
    return frame


def _world_fit(world, n_cal=3, **settings):
    cal = list(world.annotated[:n_cal])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    model = LatentTraitModel(**{"loss": "likelihood", "n_restarts": 2, **settings})
    return model.fit(world.counts, anchors=anchors)


def test_recovers_known_parameters_and_error_shrinks_with_items():
    # Simulated worlds where eq. (1) holds: the max error over generators falls with more items.
    errors = {}
    for n_items in (200, 5000):
        worst = []
        for seed in range(3):
            world = simulate_latent_world(14, 14, n_items, seed=seed)
            result = _world_fit(world)
            worst.append(float((result.precision - world.precision).abs().max()))
            assert result.converged and result.n_restarts_converged_to_best == 2
        errors[n_items] = np.mean(worst)
    assert errors[5000] < errors[200] / 2
    assert errors[5000] < 0.02


def test_sparse_matrix_fit_estimates_a_generator_seen_by_few_validators():
    world = simulate_latent_world(40, 20, 1000, observed=0.2, seed=7)
    seen = world.counts.n_labelled.gt(0).sum(axis=1)
    assert seen.min() < 8  # some generators are seen by only a few validators
    result = _world_fit(world)
    assert result.precision.notna().all()
    assert float((result.precision - world.precision).abs().max()) < 0.06


def test_unanchored_fit_warns_and_keeps_positive_youden_j():
    rates = load_validator_rates("none")
    with pytest.warns(UnidentifiedWarning, match="unanchored fit"):
        result = LatentTraitModel(loss="paper", n_restarts=2, start="released").fit(rates)
    assert result.youden_j.mean() > 0
    assert any("unanchored" in w for w in result.warnings)


@pytest.mark.filterwarnings("ignore::regression.errors.MisfitWarning")
def test_non_convergence_is_reported():
    world = simulate_latent_world(6, 5, 300, n_annotated=2, seed=1)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        result = _world_fit(world, n_cal=2, max_iter=2)
    assert not result.converged


def test_misfit_warning_on_the_real_votes():
    # TPR / TNR differ between the paper's generators far beyond binomial noise.
    judgments, human = load_agreeableness_judgments()
    with pytest.warns(MisfitWarning, match="times more than binomial sampling allows"):
        result = LatentTraitModel(loss="likelihood", n_restarts=1).fit_table(
            judgments, human, ["gpt-4o", "gpt-4-turbo"]
        )
    # chi-square over the cells and the anchors, df = observations - parameters
    assert result.dispersion > 2


def test_fit_table_and_fit_on_counts_agree():
    judgments, human = load_agreeableness_judgments()
    from regression import counts_from_judgments

    cal = ["gpt-4o", "claude_3_opus"]
    model = LatentTraitModel(loss="likelihood", n_restarts=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MisfitWarning)
        a = model.fit_table(judgments, human, cal)
        b = model.fit(
            counts_from_judgments(judgments),
            anchors=Anchors.from_human_labels(judgments, human, cal),
        )
    pd.testing.assert_series_equal(  # exact: fit_table counts, then runs fit on the same integer counts
        a.precision, b.precision
    )


def test_rates_without_counts_weigh_cells_equally_and_say_so():
    rates = load_validator_rates("none")
    anchors = Anchors.from_confusion(
        load_confusion("none"), ["gpt-4o"], precision=TRUTH[["gpt-4o"]]
    )
    result = LatentTraitModel(loss="likelihood", n_restarts=1).fit(rates, anchors=anchors)
    assert result.equal_weights
    assert any("every cell weighs the same" in w for w in result.warnings)


def test_new_generator_in_one_call():
    world = simulate_latent_world(14, 10, 2000, seed=3)
    full = _world_fit(world)
    counts = world.counts
    known = Counts(counts.n_valid.iloc[:-1], counts.n_labelled.iloc[:-1])
    partial = _world_fit(
        type(world)(
            known,
            world.confusion,
            world.precision,
            world.sample_precision,
            world.tpr,
            world.tnr,
            world.annotated,
        )
    )
    model = LatentTraitModel(loss="likelihood", n_restarts=2)  # as _world_fit
    extended = model.add_generators(
        partial, counts.rates.iloc[[-1]], counts.n_labelled.iloc[[-1]].astype(float)
    )
    new = counts.generators[-1]
    assert extended.precision.index[-1] == new
    assert extended.precision[new] == pytest.approx(full.precision[new], abs=1e-4)


@pytest.mark.parametrize("method", ["parametric", "profile"])
def test_interval_contains_estimate_and_narrows_with_items(method):
    widths = []
    for n_items in (300, 3000):
        world = simulate_latent_world(8, 6, n_items, n_annotated=3, seed=11)
        result = _world_fit(world, backend="torch")
        table = result.interval(alpha=0.1, method=method, n_boot=60, seed=0)
        assert result.interval_method(method) == method
        assert ((table.low <= table.estimate + 1e-9) & (table.estimate <= table.high + 1e-9)).all()
        widths.append(float((table.high - table.low).mean()))
        upper = result.interval(alpha=0.1, method=method, n_boot=20, seed=0, alternative="less")
        assert (upper.low == 0).all()
    assert widths[1] < widths[0] / 2
    table = result.interval(0.1, method=method, n_boot=20, seed=0)
    assert (table["low"] <= table["high"]).all()


def test_paper_loss_bootstrap_refits_like_the_estimator():
    """The paper loss stalls near its start: refitted from the estimate, every replicate would
    stop at once and the unannotated generators' intervals collapse to a point (the bug this
    guards); auto picks the nonparametric bootstrap, whose replicates centre on the estimate."""
    rates = load_validator_rates("none")
    cal = ["gpt-4o", "gpt-4-turbo", "claude_3_opus"]
    anchors = Anchors.from_confusion(load_confusion("none"), cal, precision=TRUTH[cal])
    result = LatentTraitModel(loss="paper").fit(rates, anchors=anchors)
    table = result.interval(alpha=0.1, n_boot=60, seed=0)
    assert result.interval_method() == "nonparametric"
    assert "redrawing every count from the observed proportions" in result.covers
    unannotated = table.drop(index=list(TRUTH.index))
    assert ((table.low <= table.estimate) & (table.estimate <= table.high)).all()
    assert ((unannotated.high - unannotated.low) > 0.005).all()


def test_parametric_bootstrap_covers_the_truth():
    # 90 % intervals for g in worlds where the model holds; tolerance 3 Monte Carlo SEs.
    hits, total = 0, 0
    for seed in range(8):
        world = simulate_latent_world(8, 6, 500, n_annotated=3, seed=100 + seed)
        result = _world_fit(world, backend="torch", n_restarts=1)
        table = result.interval(alpha=0.1, method="parametric", n_boot=100, seed=seed)
        free = [g for g in world.counts.generators if g not in world.annotated[:3]]
        truth = world.sample_precision[free]
        hits += int(((table.low[free] <= truth) & (truth <= table.high[free])).sum())
        total += len(free)
    coverage = hits / total
    se = np.sqrt(0.9 * 0.1 / total)
    assert coverage >= 0.9 - 3 * se


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: _set_row(r, "gpt-4o", np.inf),
            r"rates must lie in \[0, 1\].*got inf for generator 'gpt-4o'",
        ),
        (lambda r: r.mul(1.2), r"rates must lie in \[0, 1\].*got 1.1"),
        (lambda r: r.assign(**{"gpt-4o": np.nan}), r"validator 'gpt-4o' has no labels"),
        (lambda r: _set_row(r, "gpt-4.1", np.nan), r"generator 'gpt-4.1' has no labels"),
        (lambda r: pd.concat([r, r.iloc[[0]]]), r"generator 'gpt-4-turbo' appears more than once"),
    ],
)
def test_bad_rates_are_named(change, message):
    with pytest.raises(ValueError, match=message):
        LatentTraitModel(loss="paper", n_restarts=1).fit(change(load_validator_rates("none")))


def test_bad_counts_and_anchors_are_named():
    rates = load_validator_rates("none")
    model = LatentTraitModel(loss="likelihood", n_restarts=1)
    n = rates.notna().astype(float) * 100
    with pytest.raises(ValueError, match=r"has no items behind it \(count 0\)"):
        model.fit(rates, counts=_set_row(n, "gpt-4o", 0.0))
    with pytest.raises(ValueError, match=r"counts must be non-negative whole counts; got 2.5"):
        model.fit(rates, counts=n - 97.5)
    with pytest.raises(
        ValueError, match=r"n_valid \(7\) must not be greater than n_labelled \(5\)"
    ):
        Counts(pd.DataFrame({"v": [7]}, index=["g"]), pd.DataFrame({"v": [5]}, index=["g"]))
    with pytest.raises(
        ValueError, match=r"anchors name generator\(s\) \['mystery'\] that are not in the matrix"
    ):
        model.fit(rates, anchors=Anchors(precision={"mystery": 0.9}))
    with pytest.raises(ValueError, match=r"tnr anchors name validator\(s\) \['nobody'\]"):
        model.fit(rates, anchors=Anchors(tnr={"nobody": 0.3}))


def test_calibration_generator_without_invalid_items_is_noted_on_the_result():
    world = simulate_latent_world(8, 5, 300, n_annotated=2, seed=2)
    conf = world.confusion.copy()
    first = conf.generator == world.annotated[0]
    conf.loc[first, "tp"] += conf.loc[first, "fp"]
    conf.loc[first, "fn"] += conf.loc[first, "tn"]
    conf.loc[first, ["fp", "tn"]] = 0
    anchors = Anchors.from_confusion(
        conf, [world.annotated[0]], precision={world.annotated[0]: 1.0}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnidentifiedWarning)
        result = LatentTraitModel(loss="likelihood", n_restarts=1).fit(
            world.counts, anchors=anchors
        )
    assert any("no human-invalid items" in w for w in result.warnings)
    assert any("TNR anchor is undefined and skipped" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"loss": "bce"}, r"loss \('bce'\) not recognized"),
        ({"backend": "jax"}, r"backend \('jax'\) not recognized"),
        ({"start": "zero"}, r"start \('zero'\) not recognized"),
        ({"gradient": "released"}, r"gradient='released' exists only for loss='paper'"),
        ({"lambdas": (1, -1, 1)}, r"lambdas \(\(1, -1, 1\)\) must be three finite numbers >= 0"),
        ({"n_restarts": 0}, r"n_restarts \(0\) not recognized; must be an integer in \[1, inf\]"),
        ({"max_iter": 2.5}, r"max_iter \(2.5\) not recognized; must be an integer in \[1, inf\]"),
    ],
)
def test_bad_settings_are_named(settings, message):
    with pytest.raises(ValueError, match=message):
        LatentTraitModel(**{"loss": "likelihood", **settings}).fit(load_validator_rates("none"))


def test_interval_without_counts_uses_the_pseudo_count_of_the_fit():
    # counts=None: every cell counts as many items as a calibration generator has
    # (here n_items), so fit and bootstrap match the fit given those counts.
    world = simulate_latent_world(8, 6, 400, n_annotated=3, seed=9)
    cal = list(world.annotated)
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    model = LatentTraitModel(loss="likelihood", n_restarts=1)
    with_counts = model.fit(world.counts.rates, counts=world.counts.n_labelled, anchors=anchors)
    without = model.fit(world.counts.rates, anchors=anchors)
    assert without.equal_weights and not with_counts.equal_weights
    np.testing.assert_allclose(without.theta, with_counts.theta, atol=1e-6)
    a = with_counts.interval(alpha=0.1, n_boot=20, seed=1, method="nonparametric")
    b = without.interval(alpha=0.1, n_boot=20, seed=1, method="nonparametric")
    bounds = ["estimate", "low", "high"]
    np.testing.assert_allclose(a[bounds].to_numpy(), b[bounds].to_numpy(), atol=1e-4)
