"""Choosing a voting threshold on calibration generators, and the error-vs-threshold sweep (Fig. 5).

Agreeableness paper (``002``), section 4: the threshold of a rule is a
parameter, and the paper's best one (minority veto, n = 4 of 14) "itself
requires a calibration set with ground-truth labels". Here the calibration
generators are those with a known precision (human labels); the sweep scores
every threshold ``k = 1..V`` of a rule on them, and :func:`pick_threshold`
chooses one, scoring the choice leave-one-generator-out so that the error it
reports is never measured on the data that chose the threshold.

Scores per threshold, over the calibration generators:

* ``max_abs_error`` / ``mean_abs_error``: of the ensemble precision (fraction
  of a generator's items labelled valid) against the true precision;
* ``balanced_accuracy``: ``(TPR + TNR) / 2`` of the labels against the human
  item labels, pooled over the generators' items (higher is better).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ensemble.metrics import align_human_labels, confusion_counts
from ensemble.options import MAXIMISED_METRICS, METRICS
from ensemble.rules import VoteTally, check_missing, check_rule, labels_from_tally
from ensemble.voting import read_votes
from regression.checks import check_probability

__all__ = ["ThresholdChoice", "pick_threshold", "sweep_thresholds"]


@dataclass(frozen=True)
class ThresholdChoice:
    """A threshold chosen on calibration generators, with its leave-one-generator-out score.

    Attributes
    ----------
    rule, metric : str
        The rule and the score optimised.
    missing : str or None
        The missing-vote policy used.
    threshold : int
        The threshold chosen on all calibration generators (the one to use).
    in_sample_score : float
        ``metric`` at ``threshold`` on all calibration generators (optimistic:
        scored on the data that chose it).
    held_out : DataFrame
        One row per calibration generator: ``threshold`` chosen without it, and
        that threshold's ``abs_error`` and ``balanced_accuracy`` on it (NaN
        without item labels, or when the generator lacks a class).
    sweep : DataFrame
        The rule's rows of :func:`sweep_thresholds`.
    """

    rule: str
    metric: str
    missing: str | None
    threshold: int
    in_sample_score: float
    held_out: pd.DataFrame
    sweep: pd.DataFrame

    @property
    def held_out_max_abs_error(self) -> float:
        """The largest held-out absolute precision error: the honest MaxAE of the procedure."""
        return float(self.held_out["abs_error"].max())

    @property
    def held_out_mean_abs_error(self) -> float:
        """The mean held-out absolute precision error."""
        return float(self.held_out["abs_error"].mean())


@dataclass(frozen=True)
class _Calibration:
    tally: VoteTally
    codes: np.ndarray  # per item: calibration generator index, -1 for the others
    generators: list[Any]
    precision: np.ndarray  # true precision per calibration generator
    truth: np.ndarray | None  # human item labels (NaN where none), or None


def sweep_thresholds(
    votes: Any,
    human: Any,
    *,
    precision: pd.Series | None = None,
    rules: Sequence[str] = ("majority", "minority_veto"),
    missing: str | None = None,
) -> pd.DataFrame:
    """Score every threshold ``k = 1..V`` of each rule on the calibration generators (Fig. 5).

    Parameters
    ----------
    votes : DataFrame
        The judgments table, or a vote matrix indexed by (generator, item)
        (:func:`ensemble.vote_matrix`).
    human : DataFrame or Series
        Human item labels (``generator, item, human``), whose per-generator mean
        is the true precision; or the true precision itself, a Series indexed by
        generator (then TPR / TNR are NaN).
    precision : Series, optional
        True precision per generator, overriding the item means of ``human``
        (e.g. the paper's Table 1, ``load_models()["human_precision"]``); its
        generators are then the calibration generators.
    rules : sequence of str
        Rules to sweep. ``"majority"`` and ``"supermajority"`` differ only in
        their default threshold, so their rows agree.
    missing : {None, "ignore"}
        The missing-vote policy (:func:`ensemble.vote`).

    Returns
    -------
    DataFrame
        One row per rule and threshold: ``rule, threshold, max_abs_error,
        mean_abs_error, tpr, tnr, balanced_accuracy``. TPR / TNR pool the
        human-labelled items of the calibration generators.

    Raises
    ------
    ValueError
        For bad votes or labels, generator names that do not match the votes,
        human labels for items with no votes, or a calibration generator with
        no vote cast.

    Notes
    -----
    Agreeableness paper, section 4 and Fig. 5. With ``precision`` set to the
    paper's Table 1 values this reproduces ``paper_ensemble_errors.csv``
    (``valid_voting`` there is ``"majority"`` here).

    Examples
    --------
    >>> j = pd.DataFrame({"generator": ["a"] * 6 + ["b"] * 6, "item": [0, 0, 1, 1, 2, 2] * 2,
    ...                   "validator": ["x", "y"] * 6,
    ...                   "label": [1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0]})
    >>> h = pd.DataFrame({"generator": ["a"] * 3 + ["b"] * 3, "item": [0, 1, 2] * 2,
    ...                   "human": [1, 0, 0, 1, 1, 0]})
    >>> sweep_thresholds(j, h)[["rule", "threshold", "max_abs_error", "tpr", "tnr"]].round(4)
                rule  threshold  max_abs_error  tpr     tnr
    0       majority          1         0.3333  1.0  0.3333
    1       majority          2         0.0000  1.0  1.0000
    2  minority_veto          1         0.0000  1.0  1.0000
    3  minority_veto          2         0.3333  1.0  0.3333
    """
    check_missing(missing)
    for rule in rules:
        check_rule(rule)
    calibration = _calibration(votes, human, precision)
    frames = [_sweep_frame(rule, *_sweep(calibration, rule, missing)) for rule in rules]
    return pd.concat(frames, ignore_index=True)


def pick_threshold(
    votes: Any,
    human: Any,
    rule: str,
    metric: str = METRICS[0],
    *,
    precision: pd.Series | None = None,
    missing: str | None = None,
) -> ThresholdChoice:
    """Choose a rule's threshold on calibration generators; score it leave-one-generator-out.

    Parameters
    ----------
    votes, human, precision, missing
        As for :func:`sweep_thresholds`; at least two calibration generators.
    rule : {"majority", "supermajority", "minority_veto"}
        The rule whose threshold ``k = 1..V`` is chosen.
    metric : {"max_abs_error", "mean_abs_error", "balanced_accuracy"}
        Minimised (the errors) or maximised (balanced accuracy, which needs
        human item labels). Ties go to the smallest threshold.

    Returns
    -------
    ThresholdChoice
        ``.threshold`` chosen on all calibration generators, and ``.held_out``:
        for each calibration generator, the threshold chosen on the others and
        its error on that generator (``.held_out_max_abs_error``).

    Raises
    ------
    ValueError
        For an unknown rule or metric, fewer than two calibration generators,
        ``balanced_accuracy`` without item labels, and the errors of
        :func:`sweep_thresholds`.

    Notes
    -----
    Agreeableness paper, section 4: "the choice of this optimal threshold
    (n = 4) itself requires a calibration set with ground-truth labels". The
    in-sample score of the chosen threshold is optimistic; the held-out errors
    are not, since each is measured on a generator that took no part in
    choosing its threshold.

    Examples
    --------
    >>> j = pd.DataFrame({"generator": ["a"] * 6 + ["b"] * 6, "item": [0, 0, 1, 1, 2, 2] * 2,
    ...                   "validator": ["x", "y"] * 6,
    ...                   "label": [1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0]})
    >>> h = pd.DataFrame({"generator": ["a"] * 3 + ["b"] * 3, "item": [0, 1, 2] * 2,
    ...                   "human": [1, 0, 0, 1, 1, 0]})
    >>> choice = pick_threshold(j, h, "minority_veto")
    >>> choice.threshold, choice.held_out["threshold"].tolist(), choice.held_out_max_abs_error
    (1, [1, 1], 0.0)
    """
    check_rule(rule)
    check_missing(missing)
    if not isinstance(metric, str) or metric not in METRICS:
        raise ValueError(
            f"metric ({metric!r}) not recognized; must be 'max_abs_error', 'mean_abs_error' "
            "or 'balanced_accuracy'."
        )
    calibration = _calibration(votes, human, precision)
    n_generators = len(calibration.generators)
    if n_generators < 2:
        raise ValueError(
            f"pick_threshold needs at least two calibration generators to leave one out; "
            f"got {n_generators} ({calibration.generators})."
        )
    if metric == "balanced_accuracy" and calibration.truth is None:
        raise ValueError(
            "metric 'balanced_accuracy' needs human item labels (generator, item, human), "
            "not a precision per generator."
        )
    errors, counts = _sweep(calibration, rule, missing)
    everyone = np.ones(n_generators, dtype=bool)
    threshold = _best(errors, counts, everyone, metric)
    held_rows = []
    for g in range(n_generators):
        others = everyone.copy()
        others[g] = False
        k = _best(errors, counts, others, metric)
        tp, fn, fp, tn = counts[k - 1, g]
        held_rows.append(
            {
                "threshold": k,
                "abs_error": errors[k - 1, g],
                "balanced_accuracy": _balanced(tp, fn, fp, tn),
            }
        )
    held_out = pd.DataFrame(
        held_rows, index=pd.Index(list(calibration.generators), name="generator")
    )
    return ThresholdChoice(
        rule=rule,
        metric=metric,
        missing=missing,
        threshold=threshold,
        in_sample_score=float(_scores(errors, counts, everyone, metric)[threshold - 1]),
        held_out=held_out,
        sweep=_sweep_frame(rule, errors, counts),
    )


def _calibration(votes: Any, human: Any, precision: pd.Series | None) -> _Calibration:
    _, index, tally = read_votes(votes)
    if not isinstance(index, pd.MultiIndex) or "generator" not in (index.names or []):
        raise ValueError(
            "votes must say which generator each item belongs to: pass the judgments table or "
            "a vote matrix indexed by (generator, item)."
        )
    item_generators = np.asarray(index.get_level_values("generator"), dtype=object)
    vote_generators = list(pd.unique(item_generators))
    truth: np.ndarray | None = None
    if isinstance(human, pd.DataFrame):
        if "item" not in (index.names or []):
            raise ValueError(
                "votes must be indexed by (generator, item) to match human item labels."
            )
        truth = align_human_labels(index, human)
        item_means = pd.Series(truth).groupby(item_generators).mean().dropna()
        true_precision = item_means if precision is None else precision
    elif isinstance(human, pd.Series):
        true_precision = human if precision is None else precision
    else:
        raise ValueError(
            "human must be a human labels table (generator, item, human) or a Series of "
            f"true precision indexed by generator; got {type(human).__name__}."
        )
    if not isinstance(true_precision, pd.Series):
        raise ValueError(
            f"precision must be a Series indexed by generator; got {type(true_precision).__name__}."
        )
    generators = list(true_precision.index)
    unknown = [g for g in generators if g not in set(vote_generators)]
    if unknown:
        raise ValueError(
            f"the calibration precision names generator(s) {unknown} that the votes do not have; "
            f"the votes have {vote_generators}."
        )
    if len(generators) != len(set(generators)):
        raise ValueError(f"the calibration precision repeats a generator: {generators}.")
    true_values = check_probability("precision", true_precision.to_numpy(dtype=float))
    position = {g: i for i, g in enumerate(generators)}
    codes = np.array([position.get(g, -1) for g in item_generators], dtype=np.int64)
    cast = np.bincount(
        codes[codes >= 0], weights=tally.n_cast[codes >= 0], minlength=len(generators)
    )
    if (cast == 0).any():
        raise ValueError(
            f"calibration generator {generators[int(np.flatnonzero(cast == 0)[0])]!r} has no vote "
            "cast on any item."
        )
    return _Calibration(tally, codes, generators, true_values, truth)


def _sweep(
    calibration: _Calibration, rule: str, missing: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Absolute precision error (K, G) and confusion counts (K, G, 4) for ``k = 1..V``."""
    tally, codes = calibration.tally, calibration.codes
    n_generators, n_validators = len(calibration.generators), tally.n_validators
    mine = codes >= 0
    errors = np.empty((n_validators, n_generators))
    counts = np.zeros((n_validators, n_generators, 4), dtype=np.int64)
    for k in range(1, n_validators + 1):
        labels = labels_from_tally(tally, rule, k, missing)
        has = mine & ~np.isnan(labels)
        n_labelled = np.bincount(codes[has], minlength=n_generators)
        n_valid = np.bincount(codes[has], weights=labels[has], minlength=n_generators)
        errors[k - 1] = np.abs(n_valid / n_labelled - calibration.precision)
        if calibration.truth is not None:
            both = has & ~np.isnan(calibration.truth)
            counts[k - 1] = np.stack(
                confusion_counts(labels[both], calibration.truth[both], codes[both], n_generators),
                axis=1,
            )
    return errors, counts


def _balanced(tp: Any, fn: Any, fp: Any, tn: Any) -> float:
    positives, negatives = tp + fn, tn + fp
    if positives == 0 or negatives == 0:
        return float("nan")
    return float((tp / positives + tn / negatives) / 2)


def _scores(errors: np.ndarray, counts: np.ndarray, subset: np.ndarray, metric: str) -> np.ndarray:
    """The metric for every threshold over the generators in ``subset``."""
    if metric == "max_abs_error":
        return np.asarray(errors[:, subset].max(axis=1))
    if metric == "mean_abs_error":
        return np.asarray(errors[:, subset].mean(axis=1))
    pooled = counts[:, subset].sum(axis=1)
    return np.array([_balanced(*row) for row in pooled])


def _best(errors: np.ndarray, counts: np.ndarray, subset: np.ndarray, metric: str) -> int:
    scores = _scores(errors, counts, subset, metric)
    if np.isnan(scores).all():
        raise ValueError(
            f"metric {metric!r} is undefined on these calibration generators (a class of human "
            "labels is absent)."
        )
    loss = -scores if metric in MAXIMISED_METRICS else scores
    return int(np.nanargmin(loss)) + 1


def _sweep_frame(rule: str, errors: np.ndarray, counts: np.ndarray) -> pd.DataFrame:
    pooled = counts.sum(axis=1)
    tp, fn, fp, tn = (pooled[:, i].astype(float) for i in range(4))
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr, tnr = tp / (tp + fn), tn / (tn + fp)
    return pd.DataFrame(
        {
            "rule": rule,
            "threshold": np.arange(1, errors.shape[0] + 1),
            "max_abs_error": errors.max(axis=1),
            "mean_abs_error": errors.mean(axis=1),
            "tpr": tpr,
            "tnr": tnr,
            "balanced_accuracy": (tpr + tnr) / 2,
        }
    )
