"""Every exported result is on the one result base, and answers its contract on a real fit.

Which classes are results is read from the packages, not listed by hand. The rule: a
class in the ``__all__`` of ``repair``, ``ensemble``, ``regression`` or any of their
modules is a *result type* when it is a subclass of :class:`regression.results.Result`,
or its name ends in ``Result``, or it defines any of ``interval``, ``confidence_interval``,
``ci`` or ``summary``. Every result type must subclass ``Result``. A result type that
other result types subclass is a *base* (``Result``, ``OneEstimate``, ...), checked
through them; every other one must have a fit in :data:`FITS`, so that a new result
that is not on the base, or not fitted here, fails :func:`test_every_result_type_is_on_the_base`
or :func:`test_every_concrete_result_type_has_a_fit`.

The contract, checked on each fit: ``interval(alpha)`` has the columns ``estimate, low,
high, method`` (method names from :data:`regression.results.METHODS`), ``low <= estimate
<= high`` where defined, a smaller ``alpha`` never narrows it (and narrows it
somewhere), one-sided intervals keep one bound, bad levels and sides are refused by
name; ``to_frame(alpha)`` holds ``interval(alpha)``; ``summary(alpha)`` renders, shows
``to_frame(alpha)`` and the result's warnings; ``diagnostics()`` is a table;
``method``, ``covers``, ``title`` and ``warnings`` are text.
"""

from __future__ import annotations

import html
import importlib
import inspect
import pkgutil
import re
import warnings
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
import pytest

from regression.results import INTERVAL_COLUMNS, METHODS, Result, Summary

PACKAGES = ("repair", "ensemble", "regression")
#: What makes a class a result type besides subclassing Result (the module docstring).
RESULT_MEMBERS = ("interval", "confidence_interval", "ci", "summary")


def _exported_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for top in PACKAGES:
        package = importlib.import_module(top)
        names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, f"{top}.")]
        for name in names:
            module = importlib.import_module(name)
            for export in getattr(module, "__all__", ()):
                obj = getattr(module, export, None)
                if inspect.isclass(obj) and not issubclass(obj, BaseException):
                    found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


def _is_result_type(cls: type) -> bool:
    return (
        issubclass(cls, Result)
        or cls.__name__.endswith("Result")
        or any(hasattr(cls, member) for member in RESULT_MEMBERS)
    )


with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # modules that warn on import (none should) still count
    EXPORTED = _exported_classes()
RESULT_TYPES = {name: cls for name, cls in EXPORTED.items() if _is_result_type(cls)}
BASES = {
    name
    for name, cls in RESULT_TYPES.items()
    if any(other is not cls and issubclass(other, cls) for other in RESULT_TYPES.values())
}
CONCRETE = sorted(set(RESULT_TYPES) - BASES)


# --- the fits: small, seeded, real --------------------------------------------------------


def _quiet(fit: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every warning is on the result
        return fit()


@cache
def _calibration() -> Any:
    from regression.single_judge import CalibrationTable

    return CalibrationTable(tp=40, fn=10, fp=15, tn=35)


@cache
def _single() -> Any:
    from regression import estimate_prevalence

    return estimate_prevalence(_calibration(), [1] * 540 + [0] * 460)


@cache
def _comparison() -> Any:
    from regression import compare_models

    cal = _calibration()
    test_b = [1] * 50 + [0] * 50
    return _quiet(lambda: compare_models([1] * 60 + [0] * 40, test_b, cal, cal, n_boot=500, seed=0))


@cache
def _world() -> Any:
    from regression.simulate import simulate_item_votes

    return simulate_item_votes(5, 4, 60, n_annotated=3, difficulty=0.5, seed=4)


@cache
def _transfer_partial() -> Any:
    # half of one annotated generator's labels: it becomes partially labelled (regression.labels)
    from regression import TransferModel

    world = _world()
    human = world.human_labels
    partial = world.annotated[-1]
    own = human[human["generator"] == partial]
    labels = pd.concat(
        [human[human["generator"] != partial], own.sample(len(own) // 2, random_state=0)]
    )
    return _quiet(lambda: TransferModel().fit_table(world.judgments, labels))


@cache
def _pairwise(estimand: str) -> Any:
    from regression import PairwiseModel
    from regression.pairwise.simulate import pairwise_world

    world = pairwise_world(5, 600, 300, seed=3)
    return _quiet(lambda: PairwiseModel(estimand=estimand).fit_table(world.verdicts, world.human))


def _ppi() -> Any:
    from regression import ppi_mean

    rng = np.random.default_rng(0)
    y = rng.binomial(1, 0.6, 80)
    yhat = np.where(rng.random(80) < 0.85, y, 1 - y)
    return ppi_mean(y, yhat, rng.binomial(1, 0.6, 500))


def _latent() -> Any:
    from regression import LatentTraitModel

    world = _world()
    model = LatentTraitModel(loss="likelihood", n_restarts=2)
    return _quiet(
        lambda: model.fit_table(world.judgments, world.human_labels, list(world.annotated))
    )


def _ensemble() -> Any:
    from ensemble import ensemble_precision

    labels = [1, 1, 0, 1, np.nan, 1, 0, 0, 1, 1, 1, 0]
    return ensemble_precision(labels, generator=list("aaaaabbbbccc"))


def _proportion() -> Any:
    from ensemble import Proportion

    return Proportion(np.array([7, 3]), np.array([10, 12]))


def _bootstrap() -> Any:
    from regression.single_judge import BootstrapResult

    return BootstrapResult(0.5, np.random.default_rng(0).normal(0.5, 0.1, 400))


def _youden() -> Any:
    from regression.single_judge import youden_j

    return youden_j(_calibration())


def _delta_j() -> Any:
    from regression.single_judge import CalibrationTable, delta_youden_j

    other = CalibrationTable(tp=30, fn=20, fp=10, tn=40)
    return delta_youden_j(_calibration(), other, n_boot=500, seed=0)


def _scores() -> Any:
    # one generator without ratings: its row is transported
    from regression.scores import ScoreModel
    from regression.scores.simulate import score_world

    world = score_world(n_generators=4, n_items=50, n_rated=12, unrated=1, seed=1)
    return _quiet(lambda: ScoreModel().fit_table(world.scores, world.ratings, scale=world.scale))


def _leaderboard() -> Any:
    return _transfer_partial().leaderboard(seed=0)


#: One fit per concrete result type (by its qualified name), and a second where it matters.
FITS: dict[str, Callable[[], Any]] = {
    "ensemble.metrics.EnsemblePrecision": _ensemble,
    "ensemble.metrics.Proportion": _proportion,
    "regression.labels.result.PartialLabels": lambda: _transfer_partial().partial,
    "regression.latent.result.LatentTraitResult": _latent,
    "regression.pairwise.result.PairwiseStrengths": lambda: _pairwise("bradley_terry"),
    "regression.pairwise.result.PairwiseWinRates": lambda: _pairwise("win_rate"),
    "regression.ranking.board.Leaderboard": _leaderboard,
    "regression.scores.result.ScoreResult": _scores,
    "regression.single_judge.bootstrap.BootstrapResult": _bootstrap,
    "regression.single_judge.comparison_results.ComparisonEstimate": lambda: _comparison()[
        "rg-model-specific"
    ],
    "regression.single_judge.comparison_results.ModelComparison": _comparison,
    "regression.single_judge.diagnostics.DeltaJResult": _delta_j,
    "regression.single_judge.diagnostics.YoudenJResult": _youden,
    "regression.single_judge.prevalence.PrevalenceEstimate": lambda: _single().ppi,
    "regression.single_judge.estimators.SingleJudgeResult": _single,
    "regression.single_judge.ppi.PPIMeanResult": _ppi,
    "regression.transfer.result.TransferResult": _transfer_partial,
}

_RESULTS: dict[str, Any] = {}


def _result(name: str) -> Any:
    if name not in _RESULTS:  # fitted once per module: the latent fit takes a while
        _RESULTS[name] = FITS[name]()
    return _RESULTS[name]


@pytest.fixture(params=sorted(FITS))
def result(request: pytest.FixtureRequest) -> Any:
    fitted = _result(request.param)
    assert f"{type(fitted).__module__}.{type(fitted).__qualname__}" == request.param
    return fitted


# --- which classes are results ------------------------------------------------------------


def test_the_rule_finds_the_results_it_should():
    assert "regression.transfer.result.TransferResult" in CONCRETE
    assert "regression.results.Result" in BASES  # the base is exported and found as a base
    assert "regression.results.Summary" not in RESULT_TYPES  # a rendering, not a result
    assert "regression.data.counts.Counts" not in RESULT_TYPES  # a table of inputs


def test_every_result_type_is_on_the_base():
    off = sorted(name for name, cls in RESULT_TYPES.items() if not issubclass(cls, Result))
    assert not off, f"exported result types not on regression.results.Result: {off}"


def test_every_concrete_result_type_has_a_fit():
    assert sorted(FITS) == CONCRETE


# --- the contract, on each fit ------------------------------------------------------------


def _finite(table: pd.DataFrame) -> pd.Series:
    return table[["estimate", "low", "high"]].notna().all(axis=1)


def test_interval_has_the_contract_columns_and_methods(result):
    table = result.interval(0.05)
    assert isinstance(table, pd.DataFrame) and len(table) >= 1
    assert tuple(table.columns[: len(INTERVAL_COLUMNS)]) == INTERVAL_COLUMNS
    assert set(table["method"]) <= set(METHODS)
    assert result.method in METHODS


def test_the_estimate_lies_in_its_interval(result):
    table = result.interval(0.05)
    rows = table[_finite(table)]
    assert len(rows)
    # a percentile bootstrap interval need not hold its plug-in estimate (few coarse
    # replicates); the fits here have enough replicates that it does
    assert (rows["low"] <= rows["estimate"] + 1e-12).all()
    assert (rows["estimate"] <= rows["high"] + 1e-12).all()


def test_a_smaller_alpha_gives_a_wider_interval(result):
    wide, narrow = result.interval(0.05), result.interval(0.5)
    both = _finite(wide) & _finite(narrow)
    assert both.any()
    # tolerance: the bounds of one estimate at two levels, no rounding between code paths
    assert (narrow.loc[both, "low"] >= wide.loc[both, "low"] - 1e-9).all()
    assert (narrow.loc[both, "high"] <= wide.loc[both, "high"] + 1e-9).all()
    width = lambda t: t.loc[both, "high"] - t.loc[both, "low"]  # noqa: E731
    assert (width(narrow) < width(wide)).any()  # the level is not ignored


def test_one_sided_intervals_keep_one_bound(result):
    two = result.interval(0.1)
    upper = result.interval(0.1, alternative="less")
    finite = _finite(two) & upper["high"].notna()
    assert (upper.loc[finite, "high"] <= two.loc[finite, "high"] + 1e-9).all()


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 2])
def test_a_bad_alpha_is_refused_by_name(result, alpha):
    with pytest.raises(ValueError, match=rf"alpha \({re.escape(repr(alpha))}\)"):
        result.interval(alpha=alpha)


def test_a_bad_alternative_is_refused(result):
    with pytest.raises(ValueError, match=r"alternative \('up'\) not recognized"):
        result.interval(0.05, alternative="up")


def test_to_frame_holds_the_interval(result):
    for alpha in (0.05, 0.2):
        interval, frame = result.interval(alpha), result.to_frame(alpha)
        shown = frame.index.intersection(interval.index)
        assert len(shown)
        # one code path (to_frame calls interval): exact
        pd.testing.assert_frame_equal(  # exact: one code path: the table is the interval
            frame.loc[shown, list(interval.columns)], interval.loc[shown]
        )


def test_summary_shows_to_frame_renders_and_keeps_the_warnings(result):
    summary = result.summary(0.1)
    assert isinstance(summary, Summary) and summary.title == result.title
    pd.testing.assert_frame_equal(  # exact: one code path: the table is the interval
        summary.tables[result.ESTIMATES], result.to_frame(0.1)
    )
    for text in (summary.as_text(), summary.as_markdown()):
        assert summary.title in text
    assert html.escape(summary.title) in summary.as_html()
    assert tuple(summary.warnings) == tuple(result.warnings)
    assert "90%" in " ".join(summary.notes)  # the level is said


def test_diagnostics_is_a_table(result):
    table = result.diagnostics()
    assert isinstance(table, pd.DataFrame) and len(table) >= 1


def test_method_covers_title_and_warnings_are_text(result):
    assert isinstance(result.warnings, tuple)
    assert all(isinstance(w, str) and w for w in result.warnings)
    for text in (result.covers, result.title, result.method):
        assert isinstance(text, str) and text.strip()


def test_summary_options_are_keywords_summary_accepts(result):
    options = type(result).SUMMARY_OPTIONS
    assert isinstance(options, tuple) and all(isinstance(o, str) for o in options)
    if "truth" in options:
        truth = pd.Series(0.5, index=result.interval().index)
        assert isinstance(result.summary(0.05, truth=truth), Summary)
    with pytest.raises(TypeError, match=r"takes no option 'nope'"):
        result.summary(0.05, nope=1)


# --- every warning raised while fitting is kept on the result --------------------------------


def test_a_warning_of_ppi_mean_is_kept_on_the_result():
    from regression import ppi_mean

    with pytest.warns(Warning) as caught:
        res = ppi_mean([1, 0], [1, 0], [1] * 60 + [0] * 40)
    assert [str(w.message) for w in caught] == list(res.warnings)
    assert res.summary().warnings == res.warnings


def test_the_latent_fits_warnings_are_kept_on_the_result():
    from regression import LatentTraitModel

    world = _world()
    model = LatentTraitModel(loss="likelihood", n_restarts=1, max_iter=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = model.fit_table(world.judgments, world.human_labels, list(world.annotated))
    assert caught
    assert {str(w.message) for w in caught} <= set(res.warnings)
