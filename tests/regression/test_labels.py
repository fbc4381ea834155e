"""Partial human labels: checks, the estimator's coverage near p = 1, active draws, plans, the fit_table hook."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from ppi_py import ppi_mean_ci

from regression import TransferModel, plan_labels, suggest_labels
from regression.core import betting_interval
from regression.core.floor import unseen_share
from regression.datasets import load_agreeableness_judgments
from regression.errors import InputError
from regression.intervals import wilson_interval
from regression.labels import (
    PartialLabels,
    active_probabilities,
    label_design,
    ppi_design_mean,
    score_interval,
    systematic_sample,
)
from regression.latent.simulate import simulate_item_votes


@pytest.fixture(scope="module")
def bundled():
    return load_agreeableness_judgments()


@pytest.fixture(scope="module")
def strong():
    return simulate_item_votes(
        4,
        5,
        600,
        n_annotated=4,
        g_range=(0.75, 0.97),
        tpr_range=(0.88, 0.95),
        tnr_range=(0.85, 0.92),
        seed=3,
    )


def _partial(human, generator, n, seed=0):
    own = human[human["generator"] == generator].sample(n, random_state=seed)
    return pd.concat([human[human["generator"] != generator], own], ignore_index=True)


# --- checks ---------------------------------------------------------------------------


def test_roles_and_counts(bundled):
    judgments, human = bundled
    design = label_design(judgments, _partial(human, "gpt-4o", 50))
    assert design.roles["gpt-4o"] == "partially labelled"
    assert design.roles["claude_3_opus"] == "calibration"
    assert design.n_labels()["gpt-4o"] == 50


def test_label_without_judgments_names_row(bundled):
    judgments, human = bundled
    extra = pd.concat(
        [human.head(3), pd.DataFrame({"generator": ["gpt-4o"], "item": ["nope"], "human": [1]})]
    )
    with pytest.raises(InputError, match="row 3") as info:
        label_design(judgments, extra.reset_index(drop=True))
    assert info.value.row == 3


@pytest.mark.parametrize("bad", [0.0, 1.5, -0.2, "x"])
def test_probability_outside_unit_interval(bundled, bad):
    judgments, human = bundled
    labels = human.head(4).copy()
    labels["inclusion_probability"] = [0.5, 0.5, bad, 0.5]
    with pytest.raises(InputError, match="row 2"):
        label_design(judgments, labels)


def test_probability_on_some_rows_of_a_generator(bundled):
    judgments, human = bundled
    labels = human.head(4).copy()
    labels["inclusion_probability"] = [0.5, None, 0.5, 0.5]
    with pytest.raises(InputError, match="row 1"):
        label_design(judgments, labels)


def test_duplicate_label(bundled):
    judgments, human = bundled
    labels = pd.concat([human.head(3), human.head(1)], ignore_index=True)
    with pytest.raises(ValueError, match="row 3"):
        label_design(judgments, labels)


# --- the estimator ----------------------------------------------------------------------


def test_all_valid_labels_give_labels_alone_wilson():
    q = np.full(1000, 0.9)
    q[:100] = 0.6
    est = ppi_design_mean(np.ones(50), q[200:250], q, interval_method="normal")
    assert est.lam == 0.0  # exact: lam set to 0 by construction
    low, high = est.bounds()
    # the labels alone at the boundary: about their own Wilson interval (the finite population
    # correction gained, two pseudo-labels' doubt paid)
    assert low == pytest.approx(float(wilson_interval(50, 50).low), abs=0.005)
    assert high == 1.0  # exact: clipped to 1, so a truth of 1 is inside


def test_all_valid_labels_give_labels_alone_betting():
    # every label agrees: lam is 0 in every bet (the rule set), each draw's value its label,
    # so the interval is the labels' own betting interval (same seed, same orders)
    q = np.full(1000, 0.9)
    q[:100] = 0.6
    low, high = ppi_design_mean(
        np.ones(50), q[200:250], q, interval_method="betting", seed=3
    ).bounds()
    own = betting_interval(np.ones(50), (0, 1), seed=3)
    assert low == pytest.approx(float(own.low), abs=1e-9)  # brentq's tolerance
    assert high == 1.0  # exact: the upper end is the bound itself
    assert 0.85 < low < 0.95


def test_all_valid_labels_keep_the_floor_of_a_missed_share():
    # every label agrees and the labelled predictions hold one value: the narrowest floored
    # interval leans on the labels alone, and its lower end is the shift of the share of items
    # 50 uniform labels miss with chance 2.5 % (the hypergeometric chance of no success, 50 of
    # 1,000 drawn without replacement)
    q = np.full(1000, 0.9)
    q[:100] = 0.6
    low, high = ppi_design_mean(np.ones(50), q[200:250], q).bounds()
    assert low == pytest.approx(1 - unseen_share(0.05, 50 / 1000, 1000, uniform=True), rel=1e-9)
    assert high == 1.0  # exact: clipped to 1


def test_judges_worth_is_zero_by_structure_where_lam_is_zero():
    """Where lam is 0 the judges add nothing: their worth is set to 0, not left to n_eff - n_labels
    (2.6 here: the labels' own effective size on the interval's scale is not their count)."""
    q = np.full(1000, 0.9)
    q[:100] = 0.6
    agreeing = ppi_design_mean(np.ones(50), q[200:250], q)  # every label valid: lam 0
    rng = np.random.default_rng(3)
    sure = np.where(rng.random(1000) < 0.7, 0.98, 0.02)  # judges that are nearly always right
    truth = (rng.random(1000) < sure).astype(float)
    useful = ppi_design_mean(truth[:50], sure[:50], sure)
    roles = pd.Series({"a": "partially labelled", "b": "partially labelled"})
    labels = PartialLabels(roles, pd.Series({"a": 50, "b": 50}), {"a": agreeing, "b": useful})
    worth = labels.worth()
    assert worth.loc["a", "lam"] == 0 and worth.loc["a", "judges_worth"] == 0  # exact: set to 0
    assert worth.loc["b", "lam"] > 0 and worth.loc["b", "judges_worth"] > 100


def test_useless_judges_cost_nothing():
    rng = np.random.default_rng(1)
    y = (rng.random(60) < 0.8).astype(float)
    q_all = rng.random(800)
    est = ppi_design_mean(y, q_all[:60], q_all, interval_method="normal")
    low, high = est.bounds()
    wl, wh = wilson_interval(int(y.sum()), 60)
    assert high - low <= float(wh - wl) + 1e-9
    # the betting default: predictable lam stays near 0, so about the labels' own betting width
    low, high = ppi_design_mean(y, q_all[:60], q_all).bounds()
    own = betting_interval(y, (0, 1))
    assert high - low <= 1.1 * float(own.high - own.low)


def test_matches_ppi_py_with_weights():
    rng = np.random.default_rng(2)
    q_all = rng.uniform(0.3, 0.99, 2000)
    y_all = (rng.random(2000) < q_all).astype(float)
    pi = active_probabilities(q_all, 150)
    pick = systematic_sample(pi, rng)
    est = ppi_design_mean(y_all[pick], q_all[pick], q_all, pi[pick], lam=0.7)
    w = 1 / pi[pick]
    low, high = ppi_mean_ci(y_all[pick], q_all[pick], q_all, alpha=0.05, lam=0.7, w=w / w.mean())
    centre = (float(low[0]) + float(high[0])) / 2
    assert est.ppi == pytest.approx(centre, abs=1e-9)
    # ppi_py's sandwich variance is with replacement; ours is the Poisson design variance
    assert est.se == pytest.approx((float(high[0]) - float(low[0])) / (2 * 1.959964), rel=0.15)


@pytest.mark.parametrize("p", [0.9, 0.97, 0.995])
@pytest.mark.parametrize("judges", ["strong", "none"])
def test_coverage_near_one(p, judges):
    """95 % intervals at n = 50 cover >= 93 % minus 3 MC standard errors."""
    rng = np.random.default_rng(int(p * 1000))
    big_n, n, reps = 1000, 50, 600
    if judges == "strong":
        q = np.where(rng.random(big_n) < p, 0.98, 1 - 0.98 * p / (1 - p) * 0.02)
        q = np.clip(q, 0.001, 0.999)
    else:
        q = np.full(big_n, p)
    hits = 0
    for _ in range(reps):
        y_all = (rng.random(big_n) < q).astype(float)
        pick = rng.choice(big_n, n, replace=False)
        low, high = ppi_design_mean(y_all[pick], q[pick], q).bounds()
        hits += low <= y_all.mean() <= high
    se = np.sqrt(0.95 * 0.05 / reps)
    floor = 0.93 if p < 0.99 else 0.90  # binomial discreteness at 0.995 (Wilson itself ~0.91-0.95)
    assert hits / reps >= floor - 3 * se


def test_score_interval_never_collapses():
    low, high = score_interval(1.0, 50)
    assert high - low > 0.05


# --- fit_table hook ---------------------------------------------------------------------


def test_fit_table_partial_rows(bundled):
    judgments, human = bundled
    result = TransferModel().fit_table(judgments, _partial(human, "gpt-4o", 50))
    table = result.interval(alpha=0.05)
    assert {"estimate", "low", "high", "role", "n_labels"} <= set(table.columns)
    assert table.loc["gpt-4o", "role"] == "partially labelled"
    assert table.loc["gpt-4o", "n_labels"] == 50
    assert table.loc["claude_3_opus", "role"] == "calibration"
    row = table.loc["gpt-4o"]
    assert row["low"] < row["estimate"] < row["high"]
    wl, wh = wilson_interval(50, 50)
    assert row["high"] - row["low"] < 0.25
    # the worth is the size whose Wilson interval is as wide as the default one; the bundled
    # judges predict gpt-4o's labels weakly, and near a precision of 0.93 the default keeps the
    # Wald side toward 1, so 50 labels and the votes are worth about 40 labels alone
    worth = result.partial.worth()
    assert 30 < worth.loc["gpt-4o", "n_eff"] <= 60


def test_default_gives_the_transfer_no_weight(bundled):
    """No assumption on the transfer's bias: the labels-and-votes interval, whatever T says."""
    from regression.labels import combine_transfer

    base = ppi_design_mean(np.r_[np.ones(48), np.zeros(2)], np.full(50, 0.9), np.full(900, 0.9))
    for transfer in (0.80, base.ppi, 0.99):
        combined = combine_transfer(base, transfer, 0.02)
        assert (
            combined.estimate == base.ppi
            and combined.n_transfer  # exact: set by construction (lam 0, clipped bounds, no transfer); same seed
            == 0.0
        )
        assert combined.guarantee == "labels and votes: valid for any transfer bias"
        # exact: no weight: the labels-and-votes estimate itself
        assert combined.bounds() == base.bounds()
    judgments, human = bundled
    result = TransferModel().fit_table(judgments, _partial(human, "gpt-4o", 50))
    worth = result.partial.worth()
    assert worth.loc["gpt-4o", "transfer_worth"] == 0.0  # exact: no transfer weight by construction


# --- suggest and plan -------------------------------------------------------------------


def test_suggest_labels_budget_and_probabilities(bundled):
    judgments, human = bundled
    labels = human[human["generator"] != "gpt-4o"]
    table = suggest_labels(judgments, labels, 40, seed=0)
    assert list(table.columns) == ["generator", "item", "inclusion_probability"]
    assert len(table) == 40
    assert (table["inclusion_probability"] > 0).all() and (
        table["inclusion_probability"] <= 1
    ).all()
    again = suggest_labels(judgments, labels, 40, seed=0)
    pd.testing.assert_frame_equal(  # exact: set by construction (lam 0, clipped bounds, no transfer); same seed
        table, again
    )
    # the rows come back with their labels and fit as partial labels
    back = table.merge(human, on=["generator", "item"])
    result = TransferModel().fit_table(judgments, pd.concat([labels, back], ignore_index=True))
    assert result.interval().loc["gpt-4o", "n_labels"] == 40


def test_suggest_never_an_item_already_labelled(bundled):
    judgments, human = bundled
    labels = _partial(human, "gpt-4o", 30)
    table = suggest_labels(judgments, labels, 25, seed=1)
    held = set(map(tuple, labels[["generator", "item"]].to_numpy()))
    assert not held & set(map(tuple, table[["generator", "item"]].to_numpy()))


def test_systematic_sample_probabilities():
    pi = np.array([0.9, 0.1, 0.5, 0.5, 1.0])
    rng = np.random.default_rng(0)
    counts = np.zeros(5)
    for _ in range(4000):
        picks = systematic_sample(pi, rng)
        assert len(picks) == 3
        counts[picks] += 1
    np.testing.assert_allclose(counts / 4000, pi, atol=0.03)


def test_plan_matches_obtained_width(strong, benchmark):
    """Predicted widths within 20 % of the mean widths obtained over repeated draws."""
    study = benchmark("label_study").label_study(
        strong.judgments,
        strong.human_labels,
        (25, 50, 100),
        40,
        generators=["g0", "g2"],
        seed=0,
        interval_method="normal",  # the plan of the normal interval: its 40 draws, this tolerance
    )
    uniform = study[study["design"] == "uniform"]
    ratio = uniform["width"] / uniform["planned"]
    assert ((ratio > 0.8) & (ratio < 1.2)).all(), study


def test_plan_labels_table(strong):
    """For the normal interval, active choice needs fewer labels on strong judges; for the
    betting interval, more (its importance-weighted draws have wider bounds: docs/labels.md)."""
    labels = strong.human_labels[strong.human_labels["generator"] != "g1"]
    plan = plan_labels(strong.judgments, labels, 0.05, interval_method="normal")
    assert plan.loc["g1", "active"] <= plan.loc["g1", "uniform"]
    assert plan.loc["g1", "uniform"] >= 1


def test_plan_is_labels_and_votes_alone(strong):
    """The plan gives the transfer no weight, as the fit's default: its figures are labels_needed on
    q, and its width now is that of the interval the fit of the labels held shows."""
    from regression.labels import fit_partial
    from regression.labels.plan import labels_needed
    from regression.labels.predict import predict_generator

    labels = strong.human_labels[strong.human_labels["generator"] != "g1"]
    own = strong.human_labels[strong.human_labels["generator"] == "g1"].sample(30, random_state=0)
    labels = pd.concat([labels, own], ignore_index=True)
    plan = plan_labels(strong.judgments, labels, 0.06)
    q = predict_generator(label_design(strong.judgments, labels), "g1")[0]
    row = plan.loc["g1"]
    # exact: the plan calls labels_needed on the same q
    assert row["uniform"] == labels_needed(q, 0.06, "uniform")
    # exact: the plan calls labels_needed on the same q
    assert row["active"] == labels_needed(q, 0.06, "active")
    shown = fit_partial(label_design(strong.judgments, labels)).interval().loc["g1"]
    assert np.isclose(row["width_now"], shown["high"] - shown["low"], rtol=1e-12)
    assert row["width_now"] > 0.06 and row["more_uniform"] == row["uniform"] - 30
    # narrow enough already: what is held is what it needs, nothing to buy
    wide = plan_labels(strong.judgments, labels, 0.9).loc["g1"]
    assert wide["width_now"] <= 0.9
    assert wide["uniform"] == wide["active"] == 30 and wide["more_uniform"] == 0


def test_plan_labels_with_every_generator_labelled_is_an_empty_table(strong):
    """Nothing to plan: an empty table with the plan's columns (it raised KeyError 'generator')."""
    annotated = list(strong.annotated)
    judgments = strong.judgments[strong.judgments["generator"].isin(annotated)]
    plan = plan_labels(judgments, strong.human_labels, 0.05)
    assert plan.empty
    assert plan.index.name == "generator"
    assert list(plan.columns[:3]) == ["role", "n_items", "n_labels"]


def test_cross_fit_without_other_labels(strong):
    """With no other generator labelled, the generator's own labels fit the predictor, fold by fold."""
    from regression.labels.partial import estimate_generator
    from regression.labels.predict import predict_generator

    own = strong.human_labels[strong.human_labels["generator"] == "g0"].sample(80, random_state=0)
    design = label_design(strong.judgments, own)
    q, labelled, how = predict_generator(design, "g0")
    assert how == "cross-fitted" and labelled.size == 80
    est = estimate_generator(design, "g0")
    truth = strong.human_labels.query("generator == 'g0'")["human"].mean()
    low, high = est.bounds()
    assert est.n_eff_ppi > 2 * 80  # strong judges are worth more than the labels
    assert low - 0.05 < truth < high + 0.05


def test_no_calibration_generator(bundled):
    """Every generator partially labelled: fit_table says what to do; fit_partial estimates them."""
    from regression.labels import fit_partial

    judgments, human = bundled
    labels = human.groupby("generator").sample(60, random_state=0)
    with pytest.raises(ValueError, match="fit_partial"):
        TransferModel().fit_table(judgments, labels)
    table = fit_partial(label_design(judgments, labels)).interval()
    assert set(table["role"]) == {"partially labelled"} and (table["n_labels"] == 60).all()
    truth = human.groupby("generator")["human"].mean().reindex(table.index)
    assert ((table["low"] - 0.1 < truth) & (truth < table["high"] + 0.1)).all()


# --- the numbers the docs promise (issue 27, item 5) ----------------------------------


def test_suggest_spends_exactly_the_budget(bundled):
    """A budget not a multiple of the split's step is spent to the label (1889 gave 1881)."""
    judgments, human = bundled
    labels = human[~human["generator"].isin(["gpt-4o", "claude_3_opus"])]
    table = suggest_labels(judgments, labels, 1889, seed=0)
    assert len(table) == 1889
    assert not table.duplicated(["generator", "item"]).any()


def test_budget_past_the_items_says_why(bundled):
    from regression.core import BudgetWarning

    judgments, human = bundled
    labels = _partial(human, "gpt-4o", 0)
    free = int((judgments[judgments["generator"] == "gpt-4o"]["item"]).nunique())
    with pytest.warns(BudgetWarning, match=f"more than the {free:,} unlabelled items"):
        table = suggest_labels(judgments, labels, free + 10, seed=0)
    assert len(table) == free


def test_plan_and_suggest_agree(bundled):
    """Where suggest would draw uniformly, plan's active figure is no more than its uniform one."""
    from regression.labels.plan import drawn_design
    from regression.labels.predict import predict_generator

    judgments, human = bundled
    labels = human[human["generator"] != "gpt-4o"]
    plan = plan_labels(judgments, labels, 0.12)
    row = plan.loc["gpt-4o"]
    q = predict_generator(label_design(judgments, labels), "gpt-4o")[0]
    if drawn_design(q, int(row["uniform"])) == "uniform":
        assert row["active"] <= row["uniform"]
    table = suggest_labels(judgments, labels, int(row["active"]), seed=0)
    uniform = np.allclose(table["inclusion_probability"], table["inclusion_probability"].iloc[0])
    assert uniform == (drawn_design(q, int(row["active"])) == "uniform")


def test_estimate_one_in_floating_point_keeps_its_edge():
    """An all-valid sample's estimate can come out 1 - 1e-16 (a power-tuning weight of 1e-17 times
    a mean prediction): its interval still ends at 1 (a moved benchmark world of precision 1
    covered 0.75 at 100 labels before)."""
    assert (
        float(  # exact: set by construction (lam 0, clipped bounds, no transfer); same seed
            score_interval(1 - 1e-16, 100).high
        )
        == 1.0
    )
    assert (
        float(  # exact: set by construction (lam 0, clipped bounds, no transfer); same seed
            score_interval(1e-16, 100).low
        )
        == 0.0
    )
    assert float(score_interval(1 - 1e-6, 100).high) < 1.0
