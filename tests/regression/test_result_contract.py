"""Every estimate answers the one result contract of regression.results (issue 19, item 1).

One test per clause, run on every result type, so that a caller (the CLI, the
report, a notebook) can use any result without asking which one it holds.
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ensemble import ensemble_precision
from jurycal.report import Report, add_estimate
from regression import LatentTraitModel, TransferModel, estimate_prevalence, ppi_mean
from regression.results import INTERVAL_COLUMNS, METHODS, EstimateResult, Summary
from regression.simulate import simulate_item_votes
from regression.single_judge import CalibrationTable

CAL = CalibrationTable(tp=40, fn=10, fp=15, tn=35)
TEST = [1] * 540 + [0] * 460


@cache
def _world() -> Any:
    return simulate_item_votes(5, 4, 60, n_annotated=3, difficulty=0.5, seed=4)


def _quiet(fit: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every warning is on the result (tested below)
        return fit()


def _single(method: str) -> Callable[[], Any]:
    return lambda: estimate_prevalence(CAL, TEST, method=method)


def _ppi() -> Any:
    rng = np.random.default_rng(0)
    y = rng.binomial(1, 0.6, 80)
    yhat = np.where(rng.random(80) < 0.85, y, 1 - y)
    return ppi_mean(y, yhat, rng.binomial(1, 0.6, 500))


def _ensemble() -> Any:
    labels = [1, 1, 0, 1, np.nan, 1, 0, 0, 1, 1, 1, 0]
    return ensemble_precision(labels, generator=list("aaaaabbbbccc"))


def _transfer() -> Any:
    world = _world()
    return _quiet(lambda: TransferModel().fit_table(world.judgments, world.human_labels))


def _partial_transfer() -> Any:
    # half of one annotated generator's labels: it becomes partially labelled (regression.labels)
    world = _world()
    human = world.human_labels
    partial = world.annotated[-1]
    own = human[human["generator"] == partial]
    labels = pd.concat(
        [human[human["generator"] != partial], own.sample(len(own) // 2, random_state=0)]
    )
    return _quiet(lambda: TransferModel().fit_table(world.judgments, labels))


def _latent() -> Any:
    world = _world()
    model = LatentTraitModel(loss="likelihood", n_restarts=2)
    return _quiet(
        lambda: model.fit_table(world.judgments, world.human_labels, list(world.annotated))
    )


def _pairwise(estimand: str) -> Callable[[], Any]:
    def fit() -> Any:
        from regression import PairwiseModel
        from regression.datasets import load_arena_pairwise

        verdicts, human = load_arena_pairwise()
        votes = human.sample(200, random_state=0)
        return PairwiseModel(estimand=estimand).fit_table(verdicts, votes)

    return fit


FITS: dict[str, Callable[[], Any]] = {
    "single-judge rogan-gladen": _single("rogan-gladen"),
    "single-judge ppi++": _single("ppi++"),
    "single-judge naive": _single("naive"),
    "ppi mean": _ppi,
    "ensemble precision": _ensemble,
    "transfer": _transfer,
    "transfer, partial labels": _partial_transfer,
    "latent trait": _latent,
    "pairwise win rates": _pairwise("win_rate"),
    "pairwise bradley-terry": _pairwise("bradley_terry"),
}

_RESULTS: dict[str, Any] = {}


def _result(name: str) -> Any:
    if name not in _RESULTS:  # fitted once per module: the latent fits take a while
        _RESULTS[name] = FITS[name]()
    return _RESULTS[name]


@pytest.fixture(params=list(FITS))
def result(request: pytest.FixtureRequest) -> Any:
    return _result(request.param)


def test_the_fits_are_the_types_the_contract_names():
    names = {name: type(_result(name)).__name__ for name in FITS}
    assert names["single-judge naive"] == "SingleJudgeResult"
    assert names["ppi mean"] == "PPIMeanResult"
    assert names["ensemble precision"] == "EnsemblePrecision"
    assert names["transfer"] == names["transfer, partial labels"] == "TransferResult"
    assert names["latent trait"] == "LatentTraitResult"
    assert names["pairwise win rates"] == "PairwiseWinRates"
    assert names["pairwise bradley-terry"] == "PairwiseStrengths"
    assert _result("transfer, partial labels").partial.estimates  # a partially labelled row


def test_is_an_estimate_result(result):
    assert isinstance(result, EstimateResult)


def test_interval_has_the_contract_columns_and_methods(result):
    table = result.interval()
    assert isinstance(table, pd.DataFrame) and len(table) >= 1
    assert tuple(table.columns[: len(INTERVAL_COLUMNS)]) == INTERVAL_COLUMNS
    assert set(table["method"]) <= set(METHODS)
    assert result.method in METHODS
    assert result.method in set(table["method"])


def test_the_estimate_lies_in_its_interval(result):
    table = result.interval()
    finite = table[["estimate", "low", "high"]].notna().all(axis=1)
    assert finite.any()
    rows = table[finite]
    assert (rows["low"] <= rows["estimate"] + 1e-12).all()
    assert (rows["estimate"] <= rows["high"] + 1e-12).all()


def test_a_lower_level_gives_a_narrower_interval(result):
    wide, narrow = result.interval(alpha=0.05), result.interval(alpha=0.5)
    both = wide[["low", "high"]].notna().all(axis=1) & narrow[["low", "high"]].notna().all(axis=1)
    assert both.any()
    assert (narrow.loc[both, "low"] >= wide.loc[both, "low"] - 1e-9).all()
    assert (narrow.loc[both, "high"] <= wide.loc[both, "high"] + 1e-9).all()
    # and strictly narrower somewhere: the level is not ignored
    assert (
        (narrow.loc[both, "high"] - narrow.loc[both, "low"])
        < (wide.loc[both, "high"] - wide.loc[both, "low"])
    ).any()


def test_one_sided_intervals_keep_one_bound(result):
    two = result.interval(0.1)
    upper = result.interval(0.1, alternative="less")
    finite = two[["low", "high"]].notna().all(axis=1) & upper["high"].notna()
    assert (upper.loc[finite, "high"] <= two.loc[finite, "high"] + 1e-9).all()


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 2])
def test_a_bad_alpha_is_refused_by_name(result, alpha):
    with pytest.raises(ValueError, match=rf"alpha \({re.escape(repr(alpha))}\)"):
        result.interval(alpha=alpha)


def test_a_bad_alternative_is_refused(result):
    with pytest.raises(ValueError, match=r"alternative \('up'\) not recognized"):
        result.interval(0.05, alternative="up")


def test_summary_renders_text_markdown_and_html_with_its_title(result):
    summary = result.summary()
    assert isinstance(summary, Summary) and summary.title
    assert summary.title in summary.as_text()
    assert summary.title in summary.as_markdown()
    assert html.escape(summary.title) in summary.as_html()
    assert str(summary) == summary.as_text()
    assert tuple(summary.warnings) == tuple(result.warnings)
    # the report card renders any result's summary the same way
    card = Report("card")
    add_estimate(card, summary)
    assert summary.title in card.to_markdown() and html.escape(summary.title) in card.to_html()


def test_summary_follows_alpha(result):
    assert "90%" in " ".join(result.summary(0.1).notes)


def test_to_frame_has_low_and_high(result):
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) >= 1
    assert {"estimate", "low", "high"} <= set(frame.columns)
    assert not {"ci_low", "ci_high"} & set(frame.columns)


def test_diagnostics_is_a_table(result):
    table = result.diagnostics()
    assert isinstance(table, pd.DataFrame) and len(table) >= 1


def test_warnings_and_covers_are_text(result):
    assert isinstance(result.warnings, tuple)
    assert all(isinstance(w, str) and w for w in result.warnings)
    assert isinstance(result.covers, str) and result.covers.strip()


def test_summary_options_are_keywords_summary_accepts(result):
    options = type(result).SUMMARY_OPTIONS
    assert isinstance(options, tuple) and all(isinstance(o, str) for o in options)
    if "truth" in options:
        truth = pd.Series(0.5, index=result.interval().index)
        assert isinstance(result.summary(0.05, truth=truth), Summary)


def test_ci_is_the_first_row_of_interval_for_one_row_results():
    for name in ("single-judge rogan-gladen", "single-judge ppi++", "ppi mean"):
        res = _result(name)
        row = res.interval(res.alpha, alternative=res.alternative).iloc[0]
        assert (row["low"], row["high"]) == pytest.approx(tuple(res.ci))


# --- every warning raised while fitting is kept on the result --------------------------------


def test_a_warning_of_ppi_mean_is_kept_on_the_result():
    with pytest.warns(Warning) as caught:
        res = ppi_mean([1, 0], [1, 0], [1] * 60 + [0] * 40)
    assert [str(w.message) for w in caught] == list(res.warnings)
    assert res.summary().warnings == res.warnings


def test_the_latent_fits_warnings_are_kept_on_the_result():
    world = _world()
    model = LatentTraitModel(loss="likelihood", n_restarts=1, max_iter=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = model.fit_table(world.judgments, world.human_labels, list(world.annotated))
    assert caught
    assert {str(w.message) for w in caught} <= set(res.warnings)
