"""`--estimator` chooses from the registry, and the fit path reads, checks and encodes once."""

import json
import warnings
from dataclasses import astuple, replace

import pandas as pd
import pytest

import regression.checks
import regression.data.judgments
import regression.labels.design
from jurycal.cli import main
from regression import TransferModel
from regression.data import counts_from_encoded
from regression.simulate import simulate_item_votes


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("estimator")
    world = simulate_item_votes(6, 4, 80, n_annotated=3, seed=2)
    # labels as text, as files often hold them: converting them is real work
    judgments = world.judgments.assign(
        label=world.judgments["label"].map({1.0: "valid", 0.0: "invalid"})
    )
    judgments.to_csv(root / "j.csv", index=False)
    world.human_labels.to_csv(root / "h.csv", index=False)
    return root, world


def _fit(root, capsys, *options):
    code = main(["fit", str(root / "j.csv"), str(root / "h.csv"), "--json", *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_estimator_names_a_registered_estimator(files, capsys):
    root, world = files
    code, out, err = _fit(root, capsys, "--estimator", "transfer")
    assert code == 0, err
    payload = json.loads(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = TransferModel().fit_table(world.judgments, world.human_labels)
    rows = {r["generator"]: r["estimate"] for r in payload["generators"]}
    assert rows == pytest.approx(expected.precision.to_dict(), abs=1e-9)
    code, out, err = _fit(
        root, capsys, "--estimator", "likelihood", "--restarts", "1", "--interval", "none"
    )
    assert code == 0, err
    assert json.loads(out)["method"] == "likelihood"


def test_an_option_the_estimator_has_not_is_refused_naming_it(files, capsys):
    root, _ = files
    code, out, err = _fit(root, capsys, "--estimator", "transfer", "--restarts", "3")
    assert code == 1 and out == ""
    assert "--restarts set(s) the likelihood and paper-loss fits" in err
    assert "Add --estimator likelihood (or paper)" in err


def test_the_fit_path_converts_and_checks_the_labels_once(files, capsys, monkeypatch):
    root, _ = files
    calls = {"coerce_binary": [], "check_human_labels": 0, "encode_judgments": 0, "label_design": 0}

    def count(module, name):
        original = getattr(module, name)

        def counted(*args, **kwargs):
            if name == "coerce_binary":
                calls[name].append(args[0])  # which column
            else:
                calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)

    # each function where it is looked up: the module that calls it
    count(regression.data.judgments, "coerce_binary")
    count(regression.checks, "coerce_binary")
    count(regression.data.judgments, "check_human_labels")
    count(regression.data.judgments, "encode_judgments")
    count(regression.labels.design, "encode_judgments")
    count(regression.labels, "label_design")
    code, _, err = _fit(root, capsys, "--estimator", "transfer")
    assert code == 0, err
    assert sorted(calls["coerce_binary"]) == ["human", "label"]
    assert calls["check_human_labels"] == 1
    assert calls["encode_judgments"] == 1
    assert calls["label_design"] == 1


def test_a_bad_label_is_named_by_its_file_line_once_checked(files, capsys, tmp_path):
    root, world = files
    human = world.human_labels.astype({"human": object})
    human.loc[2, "human"] = "maybe"
    human.to_csv(tmp_path / "h.csv", index=False)
    code = main(["fit", str(root / "j.csv"), str(tmp_path / "h.csv")])
    err = capsys.readouterr().err
    assert code == 1
    assert f"human-label file {str(tmp_path / 'h.csv')!r} line 4, column 'human': human must" in err


def test_a_repeated_label_is_named_by_its_file_line(files, capsys, tmp_path):
    root, world = files
    human = world.human_labels
    pd.concat([human.head(3), human.head(1)]).to_csv(tmp_path / "h.csv", index=False)
    code = main(["fit", str(root / "j.csv"), str(tmp_path / "h.csv")])
    err = capsys.readouterr().err
    assert code == 1
    # the header is line 1, so row 3 (0-based) is line 5
    assert (
        f"human-label file {str(tmp_path / 'h.csv')!r} line 5, column 'item': human_labels repeats "
        "(generator, item) = ('g0', 0), first seen at line 2; an item has one human label." in err
    )


@pytest.mark.parametrize("estimator", ["transfer", "likelihood"])
def test_estimate_reads_once_and_fits_once(files, capsys, monkeypatch, estimator):
    """``estimate``: the tables checked and encoded once; one fit of the others and the new
    generator added to it, never a second full fit."""
    import regression.latent.model
    import regression.latent.result
    import regression.transfer.model
    import regression.transfer.result

    root, world = files
    calls: dict[str, int] = {}

    def count(owner, name):
        original = getattr(owner, name)

        def counted(*args, **kwargs):
            key = f"{getattr(owner, '__name__', '')}.{name}"
            calls[key] = calls.get(key, 0) + 1
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)

    count(regression.labels.design, "encode_judgments")  # where label_design looks it up
    count(regression.data.judgments, "encode_judgments")
    count(regression.data.judgments, "check_human_labels")
    count(regression.labels, "label_design")
    count(regression.transfer.model.TransferModel, "fit_table")
    count(regression.transfer.model.TransferModel, "add_generators")
    count(regression.latent.model.LatentTraitModel, "fit_table")
    count(regression.latent.model.LatentTraitModel, "add_generators")
    new = _unlabelled(world)
    options = ["--estimator", estimator, "--json", "--generator", new]
    if estimator == "likelihood":
        options += ["--interval", "items", "--n-boot", "10", "--restarts", "1"]
    code = main(["estimate", str(root / "j.csv"), str(root / "h.csv"), *options])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    encoded = ["labels.design", "data.judgments"]
    assert sum(calls.get(f"regression.{m}.encode_judgments", 0) for m in encoded) == 1
    assert calls["regression.data.judgments.check_human_labels"] == 1
    assert calls["regression.labels.label_design"] == 1
    model = {"transfer": "TransferModel", "likelihood": "LatentTraitModel"}[estimator]
    assert calls == {**calls, f"{model}.fit_table": 1, f"{model}.add_generators": 1}
    assert len([key for key in calls if key.endswith(("fit_table", "add_generators"))]) == 2
    rows = {r["generator"]: r for r in json.loads(captured.out)["generators"]}
    assert rows[new]["low"] < rows[new]["estimate"] < rows[new]["high"]  # items kept: an interval


@pytest.mark.parametrize("transfer_bias", [None, "held-out"])
def test_adding_a_partially_labelled_generator_keeps_its_labels(files, transfer_bias):
    """``add_generators(design=...)`` estimates a new partially labelled generator from its
    labels as a fit of the whole table does, with the model's ``transfer_bias``."""
    from regression.labels import label_design

    _, world = files
    judgments, human = world.judgments, world.human_labels
    new = _unlabelled(world)
    items = judgments[judgments["generator"].astype(str) == new].drop_duplicates("item")
    votes = items[["generator", "item"]].head(30).assign(human=[1.0, 0.0, 1.0] * 10)
    design = label_design(judgments, pd.concat([human, votes], ignore_index=True))
    calibration = design.calibration
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = TransferModel(transfer_bias=transfer_bias)
        base = model.fit_table(design.without([new]), None, calibration)
        counts = counts_from_encoded(design.encoded)
        added = model.add_generators(
            base, counts.rates.loc[[new]], counts.n_labelled.loc[[new]].astype(float), design=design
        )
        whole = model.fit_table(design, None, calibration)
    assert added.interval().loc[new, "role"] == "partially labelled"
    pd.testing.assert_frame_equal(
        added.interval().loc[whole.precision.index], whole.interval(), check_exact=False
    )
    # the numbers; the labelled sample the betting interval bets on is compared by the intervals
    got, want = (
        astuple(replace(fit.partial.estimates[new], sample=None)) for fit in (added, whole)
    )
    assert got == pytest.approx(want, nan_ok=True)


def test_a_design_without_a_generator_is_the_design_of_the_smaller_tables(files):
    from regression.labels import label_design

    _, world = files
    judgments, human = world.judgments.sample(frac=1.0, random_state=0), world.human_labels
    for generator in judgments["generator"].unique()[[0, -1]]:
        smaller = label_design(
            judgments[judgments["generator"] != generator],
            human[human["generator"] != generator],
        )
        dropped = label_design(judgments, human).without([generator])
        pd.testing.assert_frame_equal(  # exact: strings and integer counts
            dropped.items, smaller.items
        )
        assert (dropped.votes == smaller.votes).all()  # exact: votes and labels are 0, 1 or NaN
        pd.testing.assert_series_equal(  # exact: strings and integer counts
            dropped.roles, smaller.roles
        )
        # exact: validator names
        assert dropped.encoded.validators.equals(smaller.encoded.validators)
        # exact: votes and labels are 0, 1 or NaN
        assert (dropped.encoded.label == smaller.encoded.label).all()


def _unlabelled(world):
    labelled = set(world.human_labels["generator"].astype(str))
    return next(g for g in world.judgments["generator"].astype(str).unique() if g not in labelled)


def test_a_partially_labelled_generator_is_not_said_to_rest_on_the_calibration(files):
    _, world = files
    new = _unlabelled(world)
    items = world.judgments[world.judgments["generator"].astype(str) == new]
    # 23 of 30 valid, near the transfer's 0.77: the transfer narrows the interval and gets weight
    # (thirty valid labels would put it 0.23 from the labels, and leave it out)
    votes = items.drop_duplicates("item")[["generator", "item"]].head(30)
    votes = votes.assign(human=[1.0] * 23 + [0.0] * 7)
    labels = pd.concat([world.human_labels, votes], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        note = TransferModel().fit_table(world.judgments, labels).diagnostics().loc[new, "note"]
        bounded = TransferModel(transfer_bias=0.05).fit_table(world.judgments, labels)
    assert note.startswith("partially labelled") and "not on the transfer" in note
    assert "within the bias bound" in bounded.diagnostics().loc[new, "note"]
