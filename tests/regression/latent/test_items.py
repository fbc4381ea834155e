"""The item-level bootstrap of the latent-trait fit: encoding, replicates, widths, coverage."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from regression import Anchors, LatentTraitModel, counts_from_judgments
from regression.data.judgments import encode_judgments
from regression.latent.items import draw_item_weights, encode_items, item_replicates
from regression.simulate import simulate_item_votes, simulate_latent_world

ARRAYS = ("rate", "n", "g_val", "g_n", "tpr_val", "tpr_n", "tnr_val", "tnr_n")


def _messy_world(seed=0):
    """A small item world with missing labels and a human-labelled item nobody judged."""
    world = simulate_item_votes(6, 4, 40, n_annotated=3, difficulty=1.0, seed=seed)
    judgments = world.judgments.copy()
    judgments["label"] = judgments["label"].astype("Int8")
    rng = np.random.default_rng(seed)
    judgments.loc[rng.random(len(judgments)) < 0.1, "label"] = pd.NA
    extra = pd.DataFrame({"generator": [world.annotated[0]], "item": [999], "human": [0]})
    human = pd.concat([world.human_labels, extra], ignore_index=True)
    return world, judgments, human


def _fit(judgments, human, cal, **settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LatentTraitModel(**{"loss": "likelihood", "n_restarts": 1, **settings}).fit_table(
            judgments, human, cal
        )


def _data(result):
    inputs = result.inputs
    return inputs.data()


def test_unit_weights_reproduce_counts_and_anchors_exactly():
    world, judgments, human = _messy_world()
    cal = list(world.annotated[:2])
    result = _fit(judgments, human, cal)
    items = result.inputs.items
    # The union of judged and human-labelled items: 6 x 40 judged, plus item 999.
    assert items.n_items == 6 * 40 + 1
    data = _data(result)  # built from counts_from_judgments and Anchors.from_human_labels
    (replicate,) = item_replicates(data, items, np.ones((1, items.n_items)))
    for name in ARRAYS:
        np.testing.assert_array_equal(  # exact: same seed, same path
            getattr(replicate, name), getattr(data, name), err_msg=name
        )
    assert data.g_n[0] == 41  # the unjudged human-labelled item counts in the precision anchor


def _brute_force(judgments, human, keys, weights, cal, rates):
    """Resample the tables themselves: item copy c of (generator, item) becomes item (item, c)."""
    chosen = pd.DataFrame(
        {
            "generator": keys.get_level_values(0),
            "item": keys.get_level_values(1),
            "copies": weights.astype(int),
        }
    )
    chosen = chosen.loc[chosen.index.repeat(chosen["copies"])]
    chosen = chosen.assign(copy=chosen.groupby(["generator", "item"]).cumcount())

    def resample(table):
        out = table.merge(chosen[["generator", "item", "copy"]], on=["generator", "item"])
        return out.assign(item=list(zip(out["item"], out["copy"], strict=True)))

    votes, labels = resample(judgments), resample(human)
    counts = counts_from_judgments(votes)
    anchors = Anchors.from_human_labels(votes, labels, cal)
    n = counts.n_labelled.reindex(index=rates.index, columns=rates.columns, fill_value=0)
    k = counts.n_valid.reindex(index=rates.index, columns=rates.columns, fill_value=0)
    return n, k, anchors


def test_replicates_equal_a_brute_force_resampling_of_the_tables():
    world, judgments, human = _messy_world(seed=3)
    cal = list(world.annotated)
    result = _fit(judgments, human, cal)
    items, keys = encode_items(encode_judgments(judgments, human), result.inputs.rates)
    data = _data(result)
    weights = draw_item_weights(items, 2, np.random.default_rng(7))
    # exact: multinomial counts as floats: integer sums are exact
    assert (weights.sum(axis=1) == items.n_items).all()
    rates = result.inputs.rates
    rows, cols = data.rows, data.cols
    for b, replicate in enumerate(item_replicates(data, items, weights)):
        n, k, anchors = _brute_force(judgments, human, keys, weights[b], cal, rates)
        n_cells = n.to_numpy(dtype=float)[rows, cols]
        np.testing.assert_allclose(replicate.n, n_cells, rtol=0, atol=1e-12)
        seen = n_cells > 0
        rate = k.to_numpy(dtype=float)[rows, cols][seen] / n_cells[seen]
        np.testing.assert_allclose(replicate.rate[seen], rate, rtol=0, atol=1e-12)
        for value, count, idx, labels in (
            ("precision", "precision_n", data.g_idx, rates.index),
            ("tpr", "tpr_n", data.tpr_idx, rates.columns),
            ("tnr", "tnr_n", data.tnr_idx, rates.columns),
        ):
            name = {"precision": "g"}.get(value, value)
            expected = getattr(anchors, value).reindex(labels[idx])
            expected_n = getattr(anchors, count).reindex(labels[idx]).fillna(0.0)
            np.testing.assert_allclose(getattr(replicate, f"{name}_n"), expected_n, atol=1e-12)
            kept = expected_n.to_numpy() > 0
            np.testing.assert_allclose(
                getattr(replicate, f"{name}_val")[kept], expected.to_numpy()[kept], atol=1e-12
            )


def _mean_widths(world, n_boot=60):
    cal = list(world.annotated)
    result = _fit(world.judgments, world.human_labels, cal, backend="torch")
    free = [g for g in result.precision.index if g not in cal]
    widths = {}
    for method in ("nonparametric", "items"):
        table = result.interval(0.1, method=method, n_boot=n_boot, seed=1).loc[free]
        widths[method] = float((table.high - table.low).mean())
    return widths


def test_items_widen_the_interval_only_when_an_items_votes_move_together():
    # Every validator judges the same items, which carry a strong shared shift.
    correlated = _mean_widths(simulate_item_votes(8, 6, 300, difficulty=3.0, seed=5))
    assert correlated["items"] > 1.4 * correlated["nonparametric"]
    # Every validator judges its own items: cells are independent, the two bootstraps agree.
    independent = _mean_widths(simulate_item_votes(8, 6, 300, shared=False, seed=5))
    ratio = independent["items"] / independent["nonparametric"]
    assert 0.75 < ratio < 1.33


def test_item_bootstrap_covers_where_the_count_bootstrap_does_not():
    # 90 % intervals for the 5 unannotated generators of 14 worlds (70 intervals),
    # target: each generator's true precision. Tolerance: 3 Monte Carlo SEs.
    hits = {"nonparametric": 0, "items": 0}
    total = 0
    for seed in range(14):
        world = simulate_item_votes(8, 6, 300, difficulty=3.0, seed=200 + seed)
        cal = list(world.annotated)
        result = _fit(world.judgments, world.human_labels, cal, backend="torch")
        free = [g for g in result.precision.index if g not in cal]
        truth = world.precision[free]
        for method in hits:
            table = result.interval(0.1, method=method, n_boot=50, seed=seed).loc[free]
            hits[method] += int(((table.low <= truth) & (truth <= table.high)).sum())
        total += len(free)
    margin = 3 * np.sqrt(0.9 * 0.1 / total)
    coverage = {method: count / total for method, count in hits.items()}
    assert coverage["items"] >= 0.9 - margin
    assert coverage["nonparametric"] < 0.9 - margin


def test_same_seed_same_interval():
    world = simulate_item_votes(6, 4, 60, n_annotated=2, difficulty=1.0, seed=4)
    result = _fit(world.judgments, world.human_labels, list(world.annotated), backend="torch")
    a = result.interval(0.1, method="items", n_boot=20, seed=11)
    b = result.interval(0.1, method="items", n_boot=20, seed=11)
    c = result.interval(0.1, method="items", n_boot=20, seed=12)
    pd.testing.assert_frame_equal(a, b)  # exact: same seed, same path
    assert not np.allclose(a[["low", "high"]].to_numpy(), c[["low", "high"]].to_numpy())
    assert ((a.low <= a.estimate + 1e-9) & (a.estimate <= a.high + 1e-9)).all()
    upper = result.interval(0.1, method="items", n_boot=20, seed=11, alternative="less")
    assert (upper.low == 0).all()
    lower = result.interval(0.1, method="items", n_boot=20, seed=11, alternative="greater")
    assert (lower.high == 1).all() and (lower.low >= a.low - 1e-12).all()


def test_results_without_item_votes_refuse():
    world = simulate_latent_world(6, 4, 200, n_annotated=2, seed=1)
    cal = list(world.annotated)
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    matrix = LatentTraitModel(loss="likelihood", n_restarts=1).fit(world.counts, anchors=anchors)
    with pytest.raises(ValueError, match=r"method='items' resamples items.*fit_table"):
        matrix.interval(method="items", n_boot=5)
    items = simulate_item_votes(6, 4, 50, n_annotated=2, seed=2)
    old = items.judgments["generator"] != "g5"
    base = _fit(items.judgments[old], items.human_labels, list(items.annotated))
    counts = counts_from_judgments(items.judgments[~old])
    model = LatentTraitModel(loss="likelihood", n_restarts=1)  # as _fit
    extended = model.add_generators(base, counts.rates, counts.n_labelled.astype(float))
    with pytest.raises(ValueError, match=r"extended with add_generators\(\)"):
        extended.interval(method="items", n_boot=5)
    with pytest.raises(ValueError, match=r"method \('item'\) not recognized.*'items'"):
        base.interval(method="item")


def test_report_sentence_says_what_the_item_bootstrap_covers():
    world = simulate_item_votes(6, 4, 60, n_annotated=2, seed=4)
    result = _fit(world.judgments, world.human_labels, list(world.annotated), backend="torch")
    text = result.interval_covers("items", n_boot=200)
    assert text.startswith("item bootstrap intervals (200 replicates")
    assert "correlation" in text and "not model misfit" in text


def test_simulate_item_votes_rejects_bad_difficulty():
    with pytest.raises(ValueError, match=r"difficulty \(-1.0\) must be a finite number >= 0"):
        simulate_item_votes(difficulty=-1.0)


def test_cli_fit_and_estimate_with_item_intervals(tmp_path, capsys):
    from jurycal.cli import main

    world = simulate_item_votes(6, 4, 80, n_annotated=3, difficulty=1.0, seed=8)
    world.judgments.to_csv(tmp_path / "judgments.csv", index=False)
    world.human_labels.to_csv(tmp_path / "human.csv", index=False)
    files = [str(tmp_path / "judgments.csv"), str(tmp_path / "human.csv")]
    options = [
        "--estimator",
        "likelihood",
        "--interval",
        "items",
        "--n-boot",
        "10",
        "--backend",
        "torch",
    ]
    options += ["--restarts", "1"]
    card = tmp_path / "card.md"
    assert main(["fit", *files, *options, "--json", "--report", str(card)]) == 0
    rows = json.loads(capsys.readouterr().out)["generators"]
    assert all(r["low"] <= r["estimate"] <= r["high"] for r in rows)
    assert "item bootstrap intervals (10 replicates" in card.read_text()
    # estimate: add_generators keeps no item votes, so the CLI fits the whole table instead.
    argv = ["estimate", *files, "--generator", "g5", *options, "--json"]
    assert main(argv) == 0
    rows = {r["generator"]: r for r in json.loads(capsys.readouterr().out)["generators"]}
    assert rows["g5"]["role"] == "unlabelled"
    assert rows["g5"]["low"] <= rows["g5"]["estimate"] <= rows["g5"]["high"]
