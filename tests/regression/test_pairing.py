"""Generators judged on the same items: the pairing their comparisons keep (``shared_items``)."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit

from jurycal.cli import main
from regression import LatentTraitModel
from regression.data.anchors import Anchors, paired_precision_correlation
from regression.data.judgments import encode_judgments
from regression.errors import DuplicateRowError
from regression.latent.items import draw_item_weights, encode_items
from regression.ranking import compare
from regression.transfer.joint import positive_definite
from regression.transfer.model import TransferModel

CALIBRATION = ["g0", "g2", "g4"]


def shared_prompt_world(seed, n_items=300, n_generators=6, n_validators=4, spread=2.0):
    """Every generator answers the same prompts; a hard prompt (high b_t) lowers them all."""
    rng = np.random.default_rng(seed)
    ability = np.linspace(1.5, 3.0, n_generators)
    hardness = rng.normal(0.0, spread, n_items)
    human = (rng.random((n_generators, n_items)) < expit(ability[:, None] - hardness)).astype(int)
    tpr = rng.uniform(0.85, 0.98, (n_generators, n_validators))
    tnr = rng.uniform(0.2, 0.6, (n_generators, n_validators))
    names = [f"g{g}" for g in range(n_generators)]
    rows = []
    for g, name in enumerate(names):
        for v in range(n_validators):
            p_valid = np.where(human[g] == 1, tpr[g, v], 1 - tnr[g, v])
            rows.append(
                pd.DataFrame(
                    {
                        "generator": name,
                        "item": np.arange(n_items),
                        "validator": f"v{v}",
                        "label": (rng.random(n_items) < p_valid).astype(int),
                    }
                )
            )
    labels = pd.DataFrame(
        {
            "generator": np.repeat(names, n_items),
            "item": np.tile(np.arange(n_items), n_generators),
            "human": human.ravel(),
        }
    )
    return pd.concat(rows, ignore_index=True), labels


@pytest.fixture(scope="module")
def world():
    judgments, labels = shared_prompt_world(0)
    return judgments, labels[labels["generator"].isin(CALIBRATION)]


def test_the_correlation_is_the_shared_items_correlation_scaled_by_their_share():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    b[:30] = a[:30]  # strongly paired on the first 30 items
    labels = pd.DataFrame(
        {
            "generator": ["a"] * 50 + ["b"] * 40,
            # b labels items 0..29 (shared with a) and 100..109 (its own)
            "item": list(range(50)) + list(range(30)) + list(range(100, 110)),
            "human": list(a) + list(b[:30]) + list(b[30:40]),
        }
    )
    got = paired_precision_correlation(labels, ["a", "b"])
    rho = np.corrcoef(a[:30], b[:30])[0, 1]
    assert got.loc["a", "b"] == pytest.approx(rho * 30 / np.sqrt(50 * 40))
    assert got.loc["b", "a"] == got.loc["a", "b"]  # exact: symmetric by assignment
    assert np.diag(got) == pytest.approx([1.0, 1.0])


def test_no_shared_items_or_constant_labels_give_no_pairing():
    labels = pd.DataFrame(
        {
            "generator": ["a", "a", "b", "b", "c", "c"],
            "item": [1, 2, 3, 4, 1, 2],
            "human": [1, 0, 1, 0, 1, 1],  # c never varies on the items it shares with a
        }
    )
    assert paired_precision_correlation(labels, ["a", "b", "c"]).to_numpy() == pytest.approx(
        np.eye(3)
    )
    repeated = pd.concat([labels, labels.iloc[[0]]])
    # the rows named are the caller's, though c's rows are set aside before the check
    with pytest.raises(
        DuplicateRowError,
        match=r"labels repeats \(generator, item\) = \('a', 1\) at row 6, first seen at row 0",
    ):
        paired_precision_correlation(repeated, ["a", "b"])


def test_the_correlation_matches_the_precisions_joint_sampling_and_pairs_an_interval():
    # Monte Carlo over prompt draws: the estimated correlation is the one the two
    # precisions show across draws, and the paired difference interval covers at 95 %
    # where the unpaired one over-covers
    rng = np.random.default_rng(2)
    n_a, n_shared, n_b_own, reps, spread = 300, 200, 100, 1000, 2.5
    population = rng.normal(0.0, spread, 400_000)
    truth = expit(2.5 - population).mean() - expit(2.0 - population).mean()
    item = np.concatenate([np.arange(n_a), np.arange(n_shared), 1000 + np.arange(n_b_own)])
    generator = ["a"] * n_a + ["b"] * (n_shared + n_b_own)
    estimates, correlations = [], []
    for _ in range(reps):
        hard_a = rng.normal(0.0, spread, n_a)
        hard_b = np.concatenate([hard_a[:n_shared], rng.normal(0.0, spread, n_b_own)])
        a = (rng.random(n_a) < expit(2.5 - hard_a)).astype(int)
        b = (rng.random(hard_b.size) < expit(2.0 - hard_b)).astype(int)
        labels = pd.DataFrame({"generator": generator, "item": item, "human": np.r_[a, b]})
        estimates.append([a.mean(), b.mean()])
        correlations.append(paired_precision_correlation(labels, ["a", "b"]).loc["a", "b"])
    estimates, correlations = np.array(estimates), np.array(correlations)
    assert correlations.mean() > 0.2  # the prompts pair them
    # the Monte Carlo sd of the empirical correlation is about 0.03
    assert correlations.mean() == pytest.approx(np.corrcoef(estimates.T)[0, 1], abs=0.06)
    sd = np.sqrt(estimates * (1 - estimates) / [n_a, n_shared + n_b_own])
    paired = np.sqrt(sd[:, 0] ** 2 + sd[:, 1] ** 2 - 2 * correlations * sd[:, 0] * sd[:, 1])
    unpaired = np.sqrt(sd[:, 0] ** 2 + sd[:, 1] ** 2)
    error = np.abs(estimates[:, 0] - estimates[:, 1] - truth)
    covered = (error <= 1.96 * paired).mean()
    assert 0.93 <= covered <= 0.97  # +-0.7 points of Monte Carlo error
    assert (error <= 1.96 * unpaired).mean() > covered + 0.015
    assert (paired < unpaired).all()


def test_a_fit_with_shared_items_pairs_its_calibration_generators_and_nothing_else(world):
    judgments, labels = world
    apart = TransferModel().fit_table(judgments, labels, CALIBRATION)
    paired = TransferModel().fit_table(judgments, labels, CALIBRATION, shared_items=True)
    assert apart.anchors.precision_correlation is None
    correlation = paired.anchors.precision_correlation
    assert correlation.loc["g0", "g2"] > 0.2
    expected = paired_precision_correlation(labels, CALIBRATION)
    assert correlation.to_numpy() == pytest.approx(expected.to_numpy())
    joint_apart, joint_paired = apart.joint_error(), paired.joint_error()
    own = np.sqrt(np.diag(joint_paired.covariance.loc[CALIBRATION, CALIBRATION]))
    assert joint_paired.covariance.loc[CALIBRATION, CALIBRATION].to_numpy() == pytest.approx(
        own[:, None] * correlation.to_numpy() * own[None, :]
    )
    # the levels and the unlabelled generators' errors are as before
    unlabelled = ["g1", "g3", "g5"]
    assert joint_paired.covariance.loc[unlabelled, unlabelled].to_numpy() == pytest.approx(
        joint_apart.covariance.loc[unlabelled, unlabelled].to_numpy()
    )
    assert np.diag(joint_paired.covariance) == pytest.approx(np.diag(joint_apart.covariance))
    # the draws carry the pairing
    drawn = np.corrcoef(joint_paired.draws[:, [0, 2]].T)[0, 1]
    assert drawn == pytest.approx(correlation.loc["g0", "g2"], abs=0.02)
    pair = [("g0", "g2")]
    assert compare(joint_paired, pairs=pair)["se"].item() < 0.9 * (
        compare(joint_apart, pairs=pair)["se"].item()
    )


def test_the_item_bootstrap_redraws_prompts_when_items_are_shared(world):
    judgments, labels = world
    encoded = encode_judgments(judgments, labels)
    rates = judgments.pivot_table("label", "generator", "validator")
    items, keys = encode_items(encoded, rates, shared_items=True)
    assert items.item_key is not None
    weights = draw_item_weights(items, 20, np.random.default_rng(0))
    # every generator's output on a prompt carries that prompt's multiplicity
    by_prompt = pd.DataFrame(weights.T).groupby(keys.get_level_values(1)).nunique()
    assert (by_prompt == 1).all().all()
    assert weights[:, keys.get_level_values(0) == "g0"].sum(axis=1) == pytest.approx(300)
    alone, _ = encode_items(encoded, rates)
    assert alone.item_key is None


def test_a_latent_trait_fit_with_shared_items_keeps_the_pairing_in_its_joint_error(world):
    judgments, labels = world
    model = LatentTraitModel(loss="likelihood", n_restarts=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        apart = model.fit_table(judgments, labels, CALIBRATION).joint_error(n_boot=200)
        paired = model.fit_table(judgments, labels, CALIBRATION, shared_items=True).joint_error(
            n_boot=200
        )
    pair = [("g0", "g2")]
    assert compare(paired, pairs=pair)["se"].item() < 0.9 * compare(apart, pairs=pair)["se"].item()


def test_anchors_refuse_a_bad_correlation():
    precision = {"a": 0.9, "b": 0.8}
    index = pd.Index(["a", "b"])

    def anchors(values, names=index):
        return Anchors(
            precision=precision,
            precision_correlation=pd.DataFrame(values, index=names, columns=names),
        )

    assert (
        anchors(  # exact: the input value, stored as given
            [[1, 0.3], [0.3, 1]]
        ).precision_correlation.loc[  # exact: the input value, stored as given
            "a", "b"
        ]
        == 0.3
    )
    with pytest.raises(ValueError, match=r"\['a', 'b'\] is 1.5"):
        anchors([[1, 1.5], [1.5, 1]])
    with pytest.raises(ValueError, match="symmetric"):
        anchors([[1, 0.3], [0.1, 1]])
    with pytest.raises(ValueError, match="names 'c', which has no precision anchor"):
        anchors(np.eye(3), pd.Index(["a", "b", "c"]))
    with pytest.raises(ValueError, match="lacks calibration generator 'b'"):
        anchors([[1.0]], pd.Index(["a"]))
    with pytest.raises(ValueError, match="must be a DataFrame"):
        Anchors(precision=precision, precision_correlation=np.eye(2))


def test_no_shared_item_is_said_and_changes_nothing():
    judgments, labels = shared_prompt_world(3, n_items=60)
    # give g2 item ids no other generator uses
    moved = labels.assign(
        item=labels["item"].where(labels["generator"] != "g2", labels["item"] + 10_000)
    )
    moved_votes = judgments.assign(
        item=judgments["item"].where(judgments["generator"] != "g2", judgments["item"] + 10_000)
    )
    anchors = Anchors.from_human_labels(
        moved_votes, moved[moved["generator"].isin(["g0", "g2"])], shared_items=True
    )
    assert anchors.precision_correlation.to_numpy() == pytest.approx(np.eye(2))
    assert any("no two calibration generators share" in note for note in anchors.notes)


def test_a_pairing_no_matrix_can_hold_is_shrunk_toward_independence():
    # pairwise estimates from different shared items: 0.9, 0.9 and -0.9 fit no correlation matrix
    bad = np.array([[1.0, 0.9, 0.9], [0.9, 1.0, -0.9], [0.9, -0.9, 1.0]])
    shrunk = positive_definite(bad)
    np.linalg.cholesky(shrunk)
    assert np.sign(shrunk) == pytest.approx(np.sign(bad))
    assert np.abs(shrunk - np.eye(3)).max() < 0.9
    fine = np.array([[1.0, 0.4], [0.4, 1.0]])
    assert positive_definite(fine) == pytest.approx(fine)


def test_rank_on_the_command_line_pairs_shared_items(world, tmp_path, capsys):
    judgments, labels = world
    judgments.to_csv(tmp_path / "judgments.csv", index=False)
    labels.to_csv(tmp_path / "human.csv", index=False)
    argv = ["rank", str(tmp_path / "judgments.csv"), str(tmp_path / "human.csv"), "--json"]
    argv += ["--pairs", "g0:g2"]
    se = {}
    for flag in ([], ["--shared-items"]):
        assert main(argv + flag) == 0
        se[bool(flag)] = json.loads(capsys.readouterr().out)["pairs"][0]["se"]
    assert se[True] < 0.9 * se[False]


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(
        st.tuples(st.sampled_from("abc"), st.integers(0, 12), st.sampled_from([0, 1, None])),
        max_size=60,
        unique_by=lambda row: row[:2],
    )
)
def test_any_labels_give_a_correlation_matrix_the_joint_error_can_draw_from(labels):
    table = pd.DataFrame(labels, columns=["generator", "item", "human"], dtype=object)
    table["human"] = pd.to_numeric(table["human"])
    got = paired_precision_correlation(table, ["a", "b", "c"]).to_numpy()
    assert got == pytest.approx(got.T)
    assert np.diag(got) == pytest.approx(1.0)
    assert (np.abs(got) <= 1 + 1e-12).all()
    np.linalg.cholesky(positive_definite(got))


def test_a_generator_added_later_keeps_the_pairing(world):
    judgments, labels = world
    fit = TransferModel().fit_table(
        judgments[judgments["generator"] != "g5"], labels, CALIBRATION, shared_items=True
    )
    votes = judgments[judgments["generator"] == "g5"]
    extended = TransferModel().add_generators(
        fit,
        votes.pivot_table("label", "generator", "validator"),
        votes.pivot_table("label", "generator", "validator", aggfunc="count"),
    )
    assert extended.anchors.precision_correlation is fit.anchors.precision_correlation
    covariance = extended.joint_error().covariance
    assert covariance.loc["g0", "g2"] == pytest.approx(fit.joint_error().covariance.loc["g0", "g2"])
    assert covariance.loc["g0", "g2"] > 0
