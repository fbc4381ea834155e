"""The result's tables, the judgments encoded once, and the progress bars."""

import warnings

import numpy as np
import pandas as pd
import pytest

import regression.data.judgments as judgments_module
from regression import LatentTraitModel, leave_out_evaluation
from regression.data import counts_from_judgments, encode_judgments
from regression.data.anchors import confusion_from_encoded, confusion_from_judgments
from regression.simulate import simulate_item_votes


def _world(seed=0):
    return simulate_item_votes(6, 4, 40, n_annotated=3, difficulty=1.0, seed=seed)


def _fit(world, calibration, **settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LatentTraitModel(**{"loss": "likelihood", "n_restarts": 2, **settings})
        return model.fit_table(world.judgments, world.human_labels, calibration)


def test_to_frame_has_one_row_per_generator_with_roles_interval_and_items():
    world = _world()
    calibration = list(world.annotated[:2])
    result = _fit(world, calibration)
    truth = world.human_labels.groupby("generator")["human"].mean()
    table = result.to_frame(0.1, truth=truth)
    assert list(table.columns) == [
        "estimate",
        "low",
        "high",
        "method",
        "role",
        "n_labels",
        "human",
        "n",
        "abs_error",
    ]
    assert list(table.index) == list(result.precision.index)
    np.testing.assert_allclose(table["estimate"], result.precision.to_numpy())
    interval = result.interval(0.1)
    np.testing.assert_allclose(table["low"], interval["low"].to_numpy())
    np.testing.assert_allclose(table["high"], interval["high"].to_numpy())
    # the interval table is the contract's, whatever the estimator
    assert list(interval.columns) == ["estimate", "low", "high", "method", "role", "n_labels"]
    assert set(interval["method"]) == {result.method} == {"likelihood"}
    assert set(interval.loc[calibration, "role"]) == {"calibration"}
    assert (interval.loc[calibration, "n_labels"] > 0).all()
    assert "profile-likelihood" in result.covers
    roles = table["role"]
    assert set(roles[calibration]) == {"calibration"}
    assert roles[world.annotated[2]] == "held out"
    assert (roles[[g for g in roles.index if g not in world.annotated]] == "unlabelled").all()
    held = table[table["role"] == "held out"].iloc[0]
    assert held["abs_error"] == pytest.approx(abs(held["estimate"] - held["human"]))
    assert table.loc[table["role"] != "held out", "abs_error"].isna().all()
    # n: the most items any validator labelled for the generator (40 items each, all labelled)
    counts = counts_from_judgments(world.judgments).n_labelled.max(axis=1)
    np.testing.assert_array_equal(  # exact: integer counts; a bar changes no number, one path
        table["n"], counts.reindex(result.precision.index)
    )


def test_to_frame_without_truth_uses_the_anchors_and_without_interval_has_no_bounds():
    world = _world(1)
    calibration = list(world.annotated)
    result = _fit(world, calibration)
    table = result.to_frame(method=None)
    assert table[["low", "high"]].isna().all().all()
    anchors = result.inputs.anchors.precision
    np.testing.assert_allclose(table.loc[calibration, "human"], anchors[calibration])
    assert table.loc[~table.index.isin(calibration), "human"].isna().all()


def test_summary_prints_the_fit_the_table_the_validators_and_the_warnings():
    world = _world(2)
    result = _fit(world, list(world.annotated))
    summary = result.summary(method="parametric", n_boot=20)
    text = str(summary)
    assert text.startswith(f"Latent-trait regression ({result.loss_name} loss)")
    assert f"Latent-trait fit ({result.loss_name} loss): training loss" in text
    assert (
        "95% intervals: bootstrap intervals (20 replicates redrawing every count from the fit)"
        in text
    )
    assert list(summary.tables) == ["precision", "validators", "fit"]
    assert summary.as_html().startswith("<h2>") and summary.as_markdown().startswith("## ")
    for name in [*map(str, result.precision.index), *map(str, result.tpr.index)]:
        assert name in text
    assert f"{result.precision.iloc[0]:.4f}" in text
    unanchored = _fit(world, [])
    assert "warning: unanchored fit" in str(unanchored.summary(method=None))


def test_fit_table_checks_and_encodes_the_table_once(monkeypatch):
    world = _world(3)
    calls = {"coerce_binary": 0, "check_human_labels": 0}
    for name in calls:
        original = getattr(judgments_module, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(judgments_module, name, counted)
    _fit(world, list(world.annotated))
    assert calls == {"coerce_binary": 1, "check_human_labels": 1}


def test_a_bad_label_gives_one_error_naming_it_and_its_position():
    world = _world(4)
    judgments = world.judgments.astype({"label": object})
    judgments.loc[7, "label"] = "maybe"
    with pytest.raises(ValueError, match=r"label must be .*got 'maybe' at position 7") as info:
        LatentTraitModel(loss="likelihood", n_restarts=1).fit_table(judgments, world.human_labels)
    assert str(info.value).count("maybe") == 1
    human = world.human_labels.astype({"human": object})
    human.loc[3, "human"] = 2
    with pytest.raises(ValueError, match=r"human must be .*got 2 at position 3"):
        LatentTraitModel(loss="likelihood", n_restarts=1).fit_table(world.judgments, human)


def test_the_encoded_confusion_matches_a_merge_of_the_tables():
    world = _world(5)
    judgments = world.judgments.copy()
    judgments.loc[::7, "label"] = np.nan
    confusion = confusion_from_encoded(encode_judgments(judgments, world.human_labels))
    votes = judgments.dropna(subset=["label"]).merge(world.human_labels, on=["generator", "item"])
    label, truth = votes["label"].to_numpy(), votes["human"].to_numpy()
    votes = votes.assign(
        tp=(label == 1) & (truth == 1),
        fn=(label == 0) & (truth == 1),
        fp=(label == 1) & (truth == 0),
        tn=(label == 0) & (truth == 0),
    )
    expected = votes.groupby(["generator", "validator"], sort=False)[["tp", "fn", "fp", "tn"]]
    expected = expected.sum().astype(np.int64).reset_index()
    pd.testing.assert_frame_equal(  # exact: integer counts; a bar changes no number, one path
        confusion, expected, check_dtype=False
    )
    pd.testing.assert_frame_equal(  # exact: integer counts; a bar changes no number, one path
        confusion_from_judgments(judgments, world.human_labels), confusion
    )


def test_progress_bars_show_only_when_asked(capsys):
    world = _world(6)
    settings = dict(
        sizes=[1], models={"m": LatentTraitModel(loss="likelihood", n_restarts=1)}, baselines={}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quiet = leave_out_evaluation(
            world.judgments, world.human_labels, progress=False, **settings
        )
        assert capsys.readouterr().err == ""
        shown = leave_out_evaluation(world.judgments, world.human_labels, progress=True, **settings)
        err = capsys.readouterr().err
    assert "leave-s-out" in err and "subsets" in err
    pd.testing.assert_frame_equal(  # exact: integer counts; a bar changes no number, one path
        quiet, shown
    )  # a bar changes no number
    result = _fit(world, list(world.annotated))
    quiet_ci = result.interval(method="parametric", n_boot=5, progress=False)
    assert capsys.readouterr().err == ""
    shown_ci = result.interval(method="parametric", n_boot=5, progress=True)
    assert "fits" in capsys.readouterr().err
    pd.testing.assert_frame_equal(  # exact: integer counts; a bar changes no number, one path
        quiet_ci, shown_ci
    )


def test_progress_none_follows_whether_stderr_is_a_terminal(monkeypatch):
    from regression.progress import show_progress

    class Terminal:
        def __init__(self, answer):
            self.answer = answer

        def isatty(self):
            return self.answer

    monkeypatch.setattr("sys.stderr", Terminal(True))
    assert show_progress(None) is True and show_progress(False) is False
    monkeypatch.setattr("sys.stderr", Terminal(False))
    assert show_progress(None) is False and show_progress(True) is True


def test_interval_n_boot_is_checked_by_the_shared_rule():
    world = _world(7)
    result = _fit(world, list(world.annotated))
    with pytest.raises(ValueError, match=r"n_boot \(1\) must lie in 2\.\.1,000,000"):
        result.interval(method="parametric", n_boot=1)
