"""Leave-s-out evaluation of the latent-trait regression (agreeableness paper, section 5.2; App. D.1).

For every size s and every calibration subset of s annotated generators, fit
on the matrix with anchors from that subset only, and score the precision
estimates on the held-out annotated generators by their max (MaxAE) and mean
absolute error. Baselines are scored on the same splits.

Models are :class:`~regression.latent.model.LatentTraitModel` fits or the
estimators for new generators (:class:`~regression.transfer.model.TransferModel`:
the default ``TransferModel()``, the calibration mean, the offset-corrected
mean of judges, pooled Rogan-Gladen, the hierarchical judges); the latter also
report how often their intervals cover the held-out generators.
Baselines are plain functions of a :class:`Split` that return a precision per
generator; :data:`DEFAULT_BASELINES` maps their names to them. Another
baseline (e.g. a voting ensemble on the item-level votes in ``split.judgments``)
is added by passing ``baselines={**DEFAULT_BASELINES, "majority": fn}``.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from regression.checks import JUDGMENT_COLUMNS, check_alpha, fresh_rng
from regression.data.anchors import Anchors, ConfusionCounts, confusion_from_encoded
from regression.data.counts import Counts, counts_from_encoded
from regression.data.judgments import encode_judgments
from regression.data.matrix import matrix_inputs
from regression.latent.model import LatentTraitModel
from regression.latent.solver import Solver, select_best
from regression.progress import show_progress
from regression.transfer.adapter import transfer_data
from regression.transfer.estimators import ESTIMATORS
from regression.transfer.model import TransferModel

__all__ = [
    "DEFAULT_BASELINES",
    "EvaluationData",
    "Model",
    "default_models",
    "Split",
    "best_single_validator",
    "calibration_splits",
    "evaluation_data",
    "fit_splits",
    "leave_out_evaluation",
    "mean_of_validators",
    "score_baselines",
    "score_models",
]


@dataclass(frozen=True, eq=False)
class Split:
    """One calibration / held-out split, as a baseline sees it.

    Attributes
    ----------
    rates : DataFrame
        Generators x validators, fraction labelled valid (NaN = absent).
    counts : DataFrame or None
        Items behind each rate, when known.
    judgments, human_labels : DataFrame or None
        The item-level votes and human labels, when the evaluation was given them
        (voting baselines need them). Only the calibration generators' human
        labels may be used to tune a baseline.
    calibration, held_out : tuple of str
    precision : Series
        True precision of the calibration generators only.
    """

    rates: pd.DataFrame
    counts: pd.DataFrame | None
    judgments: pd.DataFrame | None
    human_labels: pd.DataFrame | None
    calibration: tuple[str, ...]
    held_out: tuple[str, ...]
    precision: pd.Series


BaselineFn = Callable[[Split], pd.Series]


def mean_of_validators(split: Split) -> pd.Series:
    """Each generator's mean rate over its validators (the released code's 'Mean Prediction')."""
    return split.rates.mean(axis=1, skipna=True)


def best_single_validator(split: Split) -> pd.Series:
    """The rates of the one validator with the lowest MaxAE on the calibration generators.

    Undefined (NaN) without calibration generators (s = 0).
    """
    if not split.calibration:
        return pd.Series(np.nan, index=split.rates.index)
    cal = list(split.calibration)
    errors = (split.rates.loc[cal].sub(split.precision[cal], axis=0)).abs().max(axis=0)
    best = errors.idxmin()
    return split.rates[best]


#: Name -> baseline function of a :class:`Split`.
DEFAULT_BASELINES: Mapping[str, BaselineFn] = MappingProxyType(
    {"best_single_validator": best_single_validator, "mean_of_validators": mean_of_validators}
)


#: What :func:`leave_out_evaluation` fits on every split.
Model = LatentTraitModel | TransferModel


def default_models() -> dict[str, Model]:
    """The models :func:`leave_out_evaluation` scores by default.

    ``transfer`` (``TransferModel()``, the default for new generators),
    ``hierarchical``, ``offset``, ``rogan_gladen`` and ``calibration_mean``
    (:class:`~regression.transfer.model.TransferModel`), the paper's
    released configuration (``paper``) and the plain likelihood (``likelihood``).
    """
    models: dict[str, Model] = {"transfer": TransferModel()}
    for method in ("hierarchical", "offset", "rogan_gladen_pooled", "calibration_mean"):
        models[method] = TransferModel(method=method)
    models["paper"] = LatentTraitModel.paper_release()
    models["likelihood"] = LatentTraitModel(loss="likelihood")
    return models


def leave_out_evaluation(
    data: pd.DataFrame | Counts,
    human_labels: pd.DataFrame | None = None,
    *,
    confusion: pd.DataFrame | None = None,
    precision: Mapping[str, float] | pd.Series | None = None,
    counts: pd.DataFrame | None = None,
    annotated: Iterable[str] | None = None,
    sizes: Iterable[int] = range(0, 6),
    models: Mapping[str, Model] | None = None,
    baselines: Mapping[str, BaselineFn] | None = None,
    progress: bool | None = None,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Leave-s-out errors of latent-trait fits and baselines on held-out annotated generators.

    Parameters
    ----------
    data : DataFrame or Counts
        Either the judgments table (``generator, item, validator, label``; then
        give ``human_labels``) or a generators x validators matrix of rates
        (NaN = absent) or a :class:`~regression.data.counts.Counts` (then give
        ``confusion`` and ``precision``).
    human_labels : DataFrame, optional
        ``generator, item, human``: the truth (share valid) and the confusion
        tables come from them.
    confusion : DataFrame, optional
        ``generator, validator, tp, fn, fp, tn`` of the annotated generators
        (matrix input).
    precision : mapping or Series, optional
        True precision of the annotated generators (matrix input).
    counts : DataFrame, optional
        Items behind each rate (matrix input).
    annotated : iterable of str, optional
        The pool calibration subsets are drawn from, in this order (default: all
        annotated generators, in the order of ``precision`` / ``human_labels``).
    sizes : iterable of int
        Calibration sizes s; each must leave at least one generator held out.
    models : mapping name -> LatentTraitModel or TransferModel, optional
        Default :func:`default_models`. Every size s starts from a latent-trait
        model's seed afresh (the released code ran each s in its own process
        from ``seed(42)``). A torch model solves every subset and restart of a
        size in one batch. The estimators for new generators need at least one
        calibration generator: their s = 0 rows are NaN.
    baselines : mapping name -> function of a Split, optional
        Default :data:`DEFAULT_BASELINES`.
    progress : bool or None
        Progress bars over the models and, for a scipy model, over its fits.
        None (default): only when stderr is a terminal.
    alpha : float
        1 - the level of the intervals whose coverage is scored (estimators for
        new generators only).

    Returns
    -------
    DataFrame
        One row per (s, subset, method): ``s, calibration_generators`` (the
        subset joined by ``;``, as in the paper's released file), ``method``,
        ``max_abs_error``, ``mean_abs_error``, ``n_held_out``, ``loss`` and
        ``converged`` (latent-trait model rows; NaN otherwise), ``coverage``
        (the share of held-out generators inside their ``1 - alpha`` interval)
        and ``width`` (the intervals' mean width; both for the estimators for
        new generators, NaN otherwise).

    Raises
    ------
    ValueError
        Missing inputs for the chosen form, an annotated generator without truth
        or not in the matrix, or a size that holds nothing out.

    Examples
    --------
    >>> from regression.datasets import load_confusion, load_human_precision, load_validator_rates
    >>> truth = load_human_precision()
    >>> table = leave_out_evaluation(load_validator_rates("none"), confusion=load_confusion("none"),
    ...                              precision=truth, sizes=[5], models={})
    >>> table.groupby("method")["max_abs_error"].mean().round(3)
    method
    best_single_validator    0.016
    mean_of_validators       0.017
    Name: max_abs_error, dtype: float64
    """
    source = evaluation_data(
        data, human_labels, confusion=confusion, precision=precision, counts=counts
    )
    pool = list(source.truth.index) if annotated is None else list(annotated)
    splits = calibration_splits(source, pool, [int(s) for s in sizes])
    alpha = check_alpha(alpha)
    models = default_models() if models is None else dict(models)
    rows = score_baselines(source, splits, DEFAULT_BASELINES if baselines is None else baselines)
    rows += score_models(source, splits, models, progress=progress, alpha=alpha)
    return pd.DataFrame(rows)


@dataclass(frozen=True, eq=False)
class EvaluationData:
    """The inputs of a leave-s-out run, checked once.

    Attributes
    ----------
    rates, n : DataFrame
        The matrix and the items behind each rate (``n`` None: unknown).
    confusion : ConfusionCounts
        The annotated generators' confusion tables, pooled per subset.
    truth : Series
        True precision of the annotated generators.
    truth_n : Series or None
        Human-labelled items behind ``truth`` (judgments input only).
    judgments, human : DataFrame or None
        The votes and checked human labels (judgments input only).
    """

    rates: pd.DataFrame
    n: pd.DataFrame | None
    confusion: ConfusionCounts
    truth: pd.Series
    truth_n: pd.Series | None = None
    judgments: pd.DataFrame | None = None
    human: pd.DataFrame | None = None


def evaluation_data(
    data: pd.DataFrame | Counts,
    human_labels: pd.DataFrame | None = None,
    *,
    confusion: pd.DataFrame | None = None,
    precision: Mapping[str, float] | pd.Series | None = None,
    counts: pd.DataFrame | None = None,
) -> EvaluationData:
    """Check the inputs of :func:`leave_out_evaluation` (its two forms) once.

    Raises
    ------
    ValueError
        A judgments table without ``human_labels``, a matrix without
        ``confusion`` and ``precision``, or any input check failing.
    """
    if isinstance(data, pd.DataFrame) and set(JUDGMENT_COLUMNS) <= set(data.columns):
        if human_labels is None:
            raise ValueError("a judgments table needs human_labels for the truth and the anchors.")
        encoded = encode_judgments(data, human_labels)
        assert encoded.human is not None  # human_labels was given
        matrix = counts_from_encoded(encoded)
        grouped = encoded.human.groupby("generator", sort=False)["human"]
        return EvaluationData(
            rates=matrix.rates,
            n=matrix.n_labelled.astype(float),
            confusion=ConfusionCounts(confusion_from_encoded(encoded)),
            truth=grouped.mean(),
            truth_n=grouped.size(),
            judgments=data,
            human=encoded.human,
        )
    if confusion is None or precision is None:
        raise ValueError(
            "a matrix input needs confusion= and precision= (the annotated generators)."
        )
    rates, n = matrix_inputs(data, counts)
    return EvaluationData(
        rates=rates,
        n=n,
        confusion=ConfusionCounts(confusion),
        truth=pd.Series(precision, dtype=float).dropna(),
    )


#: One split: (s, calibration subset, held-out generators, anchors from the subset).
SplitSpec = tuple[int, tuple[str, ...], tuple[str, ...], Anchors]


def calibration_splits(
    source: EvaluationData, pool: list[str], sizes: list[int]
) -> list[SplitSpec]:
    """Every calibration subset of every size, in the order of ``pool``, with its anchors.

    Raises
    ------
    ValueError
        An annotated generator without truth or not in the matrix, or a size
        that holds nothing out.
    """
    truth = source.truth
    missing = [g for g in pool if g not in truth.index]
    if missing:
        raise ValueError(f"annotated generator(s) {missing} have no true precision.")
    absent = [g for g in pool if g not in source.rates.index]
    if absent:
        raise ValueError(f"annotated generator(s) {absent} are not in the matrix.")
    for s in sizes:
        if not 0 <= s < len(pool):
            raise ValueError(
                f"s ({s}) must lie in [0, {len(pool) - 1}]: every split must hold out an "
                "annotated generator."
            )
    splits = []
    for s in sizes:
        for subset in itertools.combinations(pool, s):
            held = tuple(g for g in pool if g not in subset)
            anchors = source.confusion.pool(
                list(subset),
                precision=truth[list(subset)],
                precision_n=None if source.truth_n is None else source.truth_n[list(subset)],
            )
            splits.append((s, subset, held, anchors))
    return splits


def score_baselines(
    source: EvaluationData, splits: list[SplitSpec], baselines: Mapping[str, BaselineFn]
) -> list[dict[str, object]]:
    """One row per baseline and split (see :func:`leave_out_evaluation`)."""
    rows = []
    truth, human = source.truth, source.human
    for name, fn in baselines.items():
        for s, subset, held, _ in splits:
            split = Split(
                rates=source.rates,
                counts=source.n,
                judgments=source.judgments,
                human_labels=None if human is None else human[human["generator"].isin(subset)],
                calibration=subset,
                held_out=held,
                precision=truth[list(subset)],
            )
            estimate = fn(split).reindex(list(held))
            rows.append(_row(s, subset, name, estimate, truth[list(held)], np.nan, np.nan))
    return rows


def transfer_method(model: Model) -> str | None:
    """The :data:`~regression.transfer.estimators.ESTIMATORS` entry a model runs, or None for an optimiser fit."""
    model.check_settings()
    method: str | None = model.get_params().get("method")  # the transfer estimator's setting
    return method


def score_transfer(
    source: EvaluationData, splits: list[SplitSpec], name: str, method: str, alpha: float
) -> list[dict[str, object]]:
    """One row per split for an estimator for new generators, with its interval's coverage."""
    rows = []
    generators = source.rates.index
    estimator = ESTIMATORS[method]
    for s, subset, held, anchors in splits:
        truth = source.truth[list(held)]
        if s == 0:
            empty = pd.Series(np.nan, index=list(held))
            rows.append(_row(s, subset, name, empty, truth, np.nan, np.nan))
            continue
        estimate = estimator(transfer_data(source.rates, source.n, anchors))
        low, high = estimate.bounds(alpha)
        at = generators.get_indexer(list(held))
        inside = (low[at] <= truth.to_numpy()) & (truth.to_numpy() <= high[at])
        defined = bool(np.isfinite(low[at]).all())
        row = _row(s, subset, name, pd.Series(estimate.precision[at], index=list(held)), truth,
                   np.nan, np.nan)  # fmt: skip
        row["coverage"] = float(inside.mean()) if defined else np.nan
        row["width"] = float(np.mean(high[at] - low[at])) if defined else np.nan
        rows.append(row)
    return rows


def score_models(
    source: EvaluationData,
    splits: list[SplitSpec],
    models: Mapping[str, Model],
    *,
    progress: bool | None = None,
    alpha: float = 0.05,
) -> list[dict[str, object]]:
    """One row per model and split: an optimiser fit by :func:`fit_splits`, an
    estimator for new generators by :func:`score_transfer`."""
    rows = []
    generators = source.rates.index
    show = show_progress(progress)
    for name, model in tqdm(models.items(), disable=not show, desc="leave-s-out"):
        method = transfer_method(model)
        if method is not None:
            rows += score_transfer(source, splits, name, method, alpha)
            continue
        assert isinstance(model, LatentTraitModel)  # transfer_method returned None
        fits = fit_splits(
            model, source.rates, source.n, [(s, a) for s, _, _, a in splits], progress=show
        )
        for (s, subset, held, _), (theta, loss, converged) in zip(splits, fits, strict=True):
            estimate = pd.Series(theta[: len(generators)], index=generators).reindex(list(held))
            rows.append(_row(s, subset, name, estimate, source.truth[list(held)], loss, converged))
    return rows


def _row(
    s: int,
    subset: tuple[str, ...],
    method: str,
    estimate: pd.Series,
    truth: pd.Series,
    loss: float,
    converged: float,
) -> dict[str, object]:
    error = (estimate - truth).abs().to_numpy(dtype=float)
    undefined = bool(np.isnan(error).any())
    return {
        "s": s,
        "calibration_generators": ";".join(subset),
        "method": method,
        "max_abs_error": np.nan if undefined else float(error.max()),
        "mean_abs_error": np.nan if undefined else float(error.mean()),
        "n_held_out": len(truth),
        "loss": loss,
        "converged": converged,
        "coverage": np.nan,
        "width": np.nan,
    }


def fit_splits(
    solver: Solver,
    rates: pd.DataFrame,
    n: pd.DataFrame | None,
    sized_anchors: list[tuple[int, Anchors]],
    *,
    progress: bool | None = False,
) -> list[tuple[np.ndarray, float, bool]]:
    """Fit every anchor set; the restarts' randomness starts afresh from the seed at each size.

    A torch solver gets every restart of every subset of every size as one batch.

    Returns
    -------
    list of (theta, loss, converged)
        Per anchor set, the kept restart (see
        :func:`~regression.latent.solver.select_best`).
    """
    model = solver
    model.check_settings()
    datas = [model.data(rates, n, anchors) for _, anchors in sized_anchors]
    starts = []
    current: int | None = None
    rng = fresh_rng(model.seed)
    for (size, _), data in zip(sized_anchors, datas, strict=True):
        if size != current:
            rng, current = fresh_rng(model.seed), size
        starts.append(model.starts(data, rng))
    per = model.n_restarts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if model.backend == "torch" and datas:
            batch_datas = [d for d in datas for _ in range(per)]
            thetas, losses, converged, _ = model.solve(batch_datas, np.concatenate(starts))
        else:
            bar = tqdm(
                zip(datas, starts, strict=True),
                total=len(datas),
                disable=not show_progress(progress),
                desc="subsets",
                leave=False,
            )
            results = [model.solve([d] * per, st) for d, st in bar]
            thetas = np.concatenate([r[0] for r in results]) if results else np.empty((0, 0))
            losses = np.concatenate([r[1] for r in results]) if results else np.empty(0)
            converged = np.concatenate([r[2] for r in results]) if results else np.empty(0, bool)
    out = []
    for k, data in enumerate(datas):
        block = slice(k * per, (k + 1) * per)
        best, theta = select_best(thetas[block], losses[block], data)
        out.append((theta, float(losses[block][best]), bool(converged[block][best])))
    return out
