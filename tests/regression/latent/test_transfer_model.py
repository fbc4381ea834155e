"""The default estimator for new generators through the public API (issue 12's 'Done when')."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from regression import make_estimator
from regression.data import Anchors, counts_from_judgments
from regression.datasets import (
    ANNOTATED_GENERATORS,
    load_agreeableness_judgments,
    load_confusion,
    load_human_precision,
    load_paper_regression_errors,
    load_validator_rates,
)
from regression.latent import (
    LatentTraitModel,
    MisfitWarning,
    simulate_latent_world,
    transfer_world,
)
from regression.leave_out import leave_out_evaluation
from regression.simulate import simulate_item_votes
from regression.transfer import TransferModel, TransferResult
from regression.transfer.adapter import transfer_data
from regression.transfer.estimators import leave_one_out, offset_mean

TRUTH = load_human_precision()


def bundled_anchors(calibration, level="none"):
    return Anchors.from_confusion(load_confusion(level), calibration, precision=TRUTH[calibration])


def world_anchors(world, calibration):
    return Anchors.from_confusion(
        world.confusion, calibration, precision=world.sample_precision[calibration]
    )


@pytest.fixture(scope="module", params=["none", "feedback+lines+labels"])
def bundled_sweep(request):
    level = request.param
    table = leave_out_evaluation(
        load_validator_rates(level),
        confusion=load_confusion(level),
        precision=TRUTH,
        sizes=[2, 3, 4, 5],
        models={"transfer": TransferModel(), "offset": TransferModel(method="offset")},
        baselines={},
    )
    return level, table


def test_bundled_leave_s_out_meets_the_issue(bundled_sweep):
    """Issue 12: <= offset + 0.3 points at every s, s = 5 <= paper's released + 0.5, coverage >= 90 %."""
    level, table = bundled_sweep
    means = table.groupby(["method", "s"])["max_abs_error"].mean().unstack("s")
    released = load_paper_regression_errors()
    released = released[released["repair_level"] == level]
    paper_s5 = released.loc[released["calibration_size"] == 5, "max_abs_error"].mean()
    for s in (2, 3, 4, 5):
        assert means.loc["transfer", s] <= means.loc["offset", s] + 0.003, (level, s)
    assert means.loc["transfer", 5] <= paper_s5 + 0.005
    coverage = table[table["method"] == "transfer"].groupby("s")["coverage"].mean()
    assert (coverage >= 0.9).all(), coverage


def test_default_model_is_the_transfer_estimator():
    cal = list(ANNOTATED_GENERATORS[:3])
    result = TransferModel().fit(load_validator_rates("none"), anchors=bundled_anchors(cal))
    assert isinstance(result, TransferResult)
    assert result.method == "transfer"
    held = [g for g in ANNOTATED_GENERATORS if g not in cal]
    # errors on held-out annotated generators: a few points, not the likelihood's 13-28
    assert (result.precision[held] - TRUTH[held]).abs().max() < 0.05
    # a calibration generator reports its own human precision
    assert result.precision[cal].to_numpy() == pytest.approx(TRUTH[cal].to_numpy())


def test_fit_table_and_the_self_check():
    judgments, human = load_agreeableness_judgments()
    cal = list(ANNOTATED_GENERATORS[:4])
    result = TransferModel().fit_table(judgments, human, cal)
    check = result.self_check
    assert list(check.index)[0] == "transfer"
    assert set(check.columns) == {"n", "rms", "min_abs", "max_abs"}
    assert (check["n"] == 4).all()
    # the self-check is the leave-one-out error of each estimator, recomputed here
    data = transfer_data(result.rates, result.n, result.anchors)
    expected = np.sqrt(np.mean(leave_one_out(data, offset_mean) ** 2))
    assert check.loc["offset", "rms"] == pytest.approx(expected)
    text = result.self_check_text()
    assert "on your 4 calibration generators" in text and "offset-corrected mean of judges" in text
    # items behind each cell come from the votes: the n column is filled
    assert result.to_frame()["n"].notna().all()


def test_one_calibration_generator_says_no_self_check():
    result = TransferModel().fit(load_validator_rates("none"), anchors=bundled_anchors(["gpt-4o"]))
    assert "no self-check possible" in result.self_check_text()
    assert any("no self-check" in w for w in result.warnings)
    table = result.interval(0.05)
    assert table.drop(index="gpt-4o")[["low", "high"]].isna().all().all()
    assert result.self_check.empty


def test_interval_columns_covers_and_one_sided_bounds():
    result = TransferModel().fit(
        load_validator_rates("none"), anchors=bundled_anchors(list(ANNOTATED_GENERATORS[:4]))
    )
    two = result.interval(0.05)
    assert list(two.columns) == ["estimate", "low", "high", "method", "role", "n_labels"]
    assert set(two["method"]) == {"transfer"} and "transfer between generators" in result.covers
    calibration = list(ANNOTATED_GENERATORS[:4])
    assert set(two.loc[calibration, "role"]) == {"calibration"}
    assert (two.loc[calibration, "n_labels"] > 0).all()
    assert (two.loc[~two.index.isin(calibration), "n_labels"] == 0).all()
    upper = result.interval(0.05, alternative="less")
    lower = result.interval(0.05, alternative="greater")
    free = ~two.index.isin(ANNOTATED_GENERATORS[:4])
    assert (upper.loc[free, "low"] == 0).all() and (lower.loc[free, "high"] == 1).all()
    # a one-sided 95 % bound lies inside the two-sided 95 % interval
    assert (upper.loc[free, "high"] <= two.loc[free, "high"] + 1e-12).all()
    ci = result.interval(0.1)
    assert (ci["high"] - ci["low"] <= two["high"] - two["low"] + 1e-12).all()


def test_diagnostics_say_where_the_estimate_rests():
    weak = transfer_world("uninformative", seed=3)
    cal = list(weak.annotated[:5])
    result = TransferModel().fit(weak.counts, anchors=world_anchors(weak, cal))
    free = result.diagnostics().drop(index=cal)
    assert (free["follows_judges"] < 0.5).all()
    assert free["note"].str.contains("rests mostly on the calibration generators").all()
    strong = transfer_world("fixed", seed=3)
    result = TransferModel().fit(strong.counts, anchors=world_anchors(strong, cal))
    assert result.diagnostics().drop(index=cal)["follows_judges"].median() > 0.7


@pytest.mark.float_sensitive
def test_add_generators_matches_a_fit_on_all_rows():
    world = transfer_world("random", seed=2, n_generators=8, n_validators=6, n_items=300)
    cal = list(world.annotated[:3])
    rates, n = world.counts.rates, world.counts.n_labelled
    first, rest = list(rates.index[:6]), list(rates.index[6:])
    anchors = world_anchors(world, cal)
    part = TransferModel().fit(rates.loc[first], n.loc[first], anchors=anchors)
    grown = TransferModel().add_generators(part, rates.loc[rest], n.loc[rest])
    full = TransferModel().fit(rates, n, anchors=anchors)
    # adding generators to a fit against fitting them all at once: two routes
    pd.testing.assert_series_equal(grown.precision, full.precision, check_exact=False, rtol=1e-10)
    with pytest.raises(ValueError, match="already in the fit"):
        TransferModel().add_generators(part, rates.loc[first[:1]], n.loc[first[:1]])


def test_inputs_it_cannot_use_are_named():
    rates = load_validator_rates("none")
    with pytest.raises(ValueError, match="at least one calibration generator"):
        TransferModel().fit(rates)
    pooled_only = Anchors(precision={"gpt-4o": 0.93}, tpr={"gpt-4o": 0.9}, tnr={"gpt-4o": 0.2})
    with pytest.raises(ValueError, match="each\\s+calibration generator's own confusion table"):
        TransferModel().fit(rates, anchors=pooled_only)
    with pytest.raises(ValueError, match=r"method \('median'\) not recognized"):
        TransferModel(method="median").fit(rates, anchors=bundled_anchors(["gpt-4o"]))
    with pytest.raises(ValueError, match=r"transfer estimator has no setting backend"):
        make_estimator("transfer", backend="jax")


def test_leave_out_scores_the_baselines_and_s0_is_undefined():
    world = transfer_world("systematic", seed=1, n_generators=8, n_validators=5, n_items=300)
    table = leave_out_evaluation(
        world.counts,
        confusion=world.confusion,
        precision=world.sample_precision[list(world.annotated)],
        sizes=[0, 2],
        models={
            m: TransferModel(method=m) for m in ("transfer", "calibration_mean", "mean_of_judges")
        },
        baselines={},
    )
    s0 = table[table["s"] == 0]
    assert s0["max_abs_error"].isna().all()
    s2 = table[table["s"] == 2].groupby("method")
    assert s2["max_abs_error"].mean().notna().all()
    assert s2["coverage"].mean()[["transfer", "calibration_mean"]].notna().all()
    assert s2["coverage"].mean()[["mean_of_judges"]].isna().all()  # no interval to score


def test_pearson_dispersion_counts_the_calibration_data():
    """Issue 12: a 5 x 6 world where eq. (1) holds must not warn of misfit (it did in half the seeds)."""
    warned = {0.0: 0, 0.5: 0}
    for spread in warned:
        for seed in range(20):
            world = simulate_latent_world(5, 6, 300, n_annotated=2, spread=spread, seed=seed)
            anchors = world_anchors(world, list(world.annotated))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                LatentTraitModel(loss="likelihood", n_restarts=1).fit(world.counts, anchors=anchors)
            warned[spread] += any(issubclass(w.category, MisfitWarning) for w in caught)
    # the test's level is 1e-3: 20 seeds warn at most once by chance (P(>= 2) < 2e-4)
    assert warned[0.0] <= 1
    assert warned[0.5] >= 10


def test_fig6_style_plot_draws_every_estimator():
    from regression.latent.plots import plot_leave_out

    world = transfer_world("fixed", seed=0, n_generators=8, n_validators=5, n_items=300)
    methods = ("transfer", "offset", "calibration_mean")
    table = leave_out_evaluation(
        world.counts,
        confusion=world.confusion,
        precision=world.sample_precision[list(world.annotated)],
        sizes=[2, 3],
        models={m: TransferModel(method=m) for m in methods},
        baselines={},
    )
    figure = plot_leave_out(table)
    labels = figure.axes[1].get_legend_handles_labels()[1]
    assert set(methods) <= set(labels)


def test_added_generators_keep_the_partially_labelled_estimates():
    world = simulate_item_votes(6, 4, 80, n_annotated=3, difficulty=0.5, seed=4)
    human = world.human_labels
    partial = world.annotated[-1]
    own = human[human["generator"] == partial]
    labels = pd.concat(
        [human[human["generator"] != partial], own.sample(len(own) // 2, random_state=0)]
    )
    new = [g for g in world.judgments["generator"].unique() if g not in world.annotated][0]
    old = world.judgments[world.judgments["generator"] != new]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        base = TransferModel().fit_table(old, labels)
    assert partial in base.partial.estimates
    counts = counts_from_judgments(world.judgments[world.judgments["generator"] == new])
    added = TransferModel().add_generators(base, counts.rates, counts.n_labelled.astype(float))
    assert added.partial is base.partial
    # exact: the partially labelled estimates are base's, carried over
    assert added.precision[partial] == base.precision[partial]
    table = added.interval()
    assert table.loc[partial, "role"] == "partially labelled"
    assert table.loc[partial, "method"] == "partial"
    assert table.loc[new, "role"] == "unlabelled"
