"""What an ensemble's labels say: precision per generator, and TPR / TNR / PPV / NPV against humans.

Agreeableness paper (``002``), section 4: a generator's precision is the
fraction of its feedback items labelled valid, and the ensemble is judged by
the absolute error of that fraction against the human precision, and by its
TPR and TNR against the human item labels (valid = positive).

Every figure here is a proportion ``k / n`` of item counts, reported with a
Wilson score interval (:func:`regression.intervals.wilson_interval`). The
interval covers the binomial sampling of items only: how far the fraction
labelled valid could move on another draw of items from the same generator,
with the same validators. It does not cover the ensemble's bias (an agreeable
ensemble labels invalid items valid; Fig. 5 measures that bias against human
labels); use ``regression`` for a bias-corrected precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import (
    HUMAN_COLUMNS,
    check_alpha,
    check_alternative,
    coerce_binary,
    plain,
    refuse_repeats,
    require_columns,
)
from regression.intervals import ConfidenceInterval, OneEstimate, wilson_interval
from regression.results import Result, interval_frame

__all__ = [
    "PRECISION_COVERS",
    "EnsemblePrecision",
    "EnsembleRates",
    "Proportion",
    "align_human_labels",
    "confusion_counts",
    "ensemble_precision",
    "ensemble_rates",
]


@dataclass(frozen=True)
class Proportion(OneEstimate):
    """A proportion ``k / n`` of item counts, with its Wilson interval. Arrays broadcast.

    Attributes
    ----------
    k, n : ndarray of int64
        Successes and trials; ``n == 0`` gives a NaN estimate and interval.
    """

    k: np.ndarray
    n: np.ndarray

    method: ClassVar[str] = "wilson"
    covers: ClassVar[str] = "binomial sampling of the items (Wilson score interval)"
    warnings: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Proportion"

    def diagnostics(self) -> pd.DataFrame:
        """The counts behind each proportion: ``k`` and ``n``."""
        k, n = np.broadcast_arrays(np.asarray(self.k), np.asarray(self.n))
        return pd.DataFrame({"k": k.reshape(-1), "n": n.reshape(-1)})

    @property
    def estimate(self) -> np.ndarray:
        """``k / n`` (NaN where ``n == 0``)."""
        k, n = np.broadcast_arrays(np.asarray(self.k, float), np.asarray(self.n, float))
        out = np.full(k.shape, np.nan)
        np.divide(k, n, out=out, where=n > 0)
        return out

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """Wilson score interval at level ``1 - alpha`` (NaN where ``n == 0``)."""
        k, n = np.broadcast_arrays(np.asarray(self.k), np.asarray(self.n))
        low, high = np.full(k.shape, np.nan), np.full(k.shape, np.nan)
        has = n > 0
        if has.any():
            interval = wilson_interval(k[has], n[has], alpha, alternative)
            low[has], high[has] = interval.low, interval.high
        return ConfidenceInterval(low, high)


#: What :attr:`EnsemblePrecision.covers` says (module docstring).
PRECISION_COVERS = (
    "item sampling only: how far the share labelled valid could move on another draw of items "
    "from the same generator, with the same validators; not the ensemble's bias against human "
    "labels (use regression for a bias-corrected precision)"
)


@dataclass(frozen=True)
class EnsemblePrecision(Result):
    """Per-generator ensemble precision: the fraction of labelled items labelled valid.

    It answers the result contract of :mod:`regression.results`: :meth:`interval`
    (one row per generator, method ``"ensemble"``), :attr:`covers`,
    :attr:`method`, :attr:`warnings`, :meth:`to_frame`, :meth:`summary` and
    :meth:`diagnostics` (:class:`~regression.results.Result`).

    Attributes
    ----------
    generators : tuple
        Generator names, in order of first appearance.
    n_valid, n_labelled : ndarray of int64
        Items labelled valid, and items with a label (1 or 0).
    n_unlabelled : ndarray of int64
        Items whose label is missing (no vote cast, under ``missing="ignore"``);
        they are left out of the fraction and counted here.
    warnings : tuple of str
        What was left out (unlabelled items, generators without a labelled item).
    """

    generators: tuple[Any, ...]
    n_valid: np.ndarray
    n_labelled: np.ndarray
    n_unlabelled: np.ndarray
    warnings: tuple[str, ...] = ()

    method: ClassVar[str] = "ensemble"
    covers: ClassVar[str] = PRECISION_COVERS
    title: ClassVar[str] = "Ensemble precision per generator"
    ESTIMATES: ClassVar[str] = "precision"

    @property
    def estimate(self) -> np.ndarray:
        """``n_valid / n_labelled`` per generator."""
        return Proportion(self.n_valid, self.n_labelled).estimate

    def _index(self) -> pd.Index:
        return pd.Index(list(self.generators), name="generator")

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """The Wilson interval per generator at level ``1 - alpha``.

        Returns
        -------
        DataFrame
            Index ``generator``; columns ``estimate, low, high, method``
            (:func:`regression.results.interval_frame`); NaN for a generator
            without a labelled item.

        Raises
        ------
        ValueError
            ``alpha`` not strictly between 0 and 1, or an unknown ``alternative``.
        """
        proportion = Proportion(self.n_valid, self.n_labelled)
        low, high = proportion.bounds(check_alpha(alpha), check_alternative(alternative))
        return interval_frame(self._index(), self.estimate, low, high, self.method)

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """Per generator: ``n_valid, n_labelled, n_unlabelled``."""
        return pd.DataFrame(
            {
                "n_valid": self.n_valid,
                "n_labelled": self.n_labelled,
                "n_unlabelled": self.n_unlabelled,
            },
            index=self._index(),
        )

    def diagnostics(self) -> pd.DataFrame:
        """Per generator, the items behind the estimate.

        Columns ``n_items`` (labelled or not), ``n_labelled``, ``n_unlabelled``
        and ``unlabelled_share`` (of its items; the estimate leaves them out).
        """
        n_items = self.n_labelled + self.n_unlabelled
        share = np.full(len(self.generators), np.nan)
        np.divide(self.n_unlabelled, n_items, out=share, where=n_items > 0)
        return pd.DataFrame(
            {
                "n_items": n_items,
                "n_labelled": self.n_labelled,
                "n_unlabelled": self.n_unlabelled,
                "unlabelled_share": share,
            },
            index=self._index(),
        )

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The level of the Wilson intervals and what they cover."""
        return (f"{1 - alpha:.0%} Wilson intervals covering {self.covers}.",)


@dataclass(frozen=True)
class EnsembleRates:
    """The ensemble's confusion counts against human labels (valid = positive).

    Attributes
    ----------
    tp, fn, fp, tn : int
        Human valid & ensemble valid, human valid & ensemble invalid, human
        invalid & ensemble valid, human invalid & ensemble invalid.
    n_without_human : int
        Ensemble-labelled items with no human label (left out).
    n_unlabelled : int
        Human-labelled items the ensemble left unlabelled (NaN; left out).
    """

    tp: int
    fn: int
    fp: int
    tn: int
    n_without_human: int
    n_unlabelled: int

    @property
    def tpr(self) -> Proportion:
        """Sensitivity, v+ in the paper: ``tp / (tp + fn)``."""
        return Proportion(np.asarray(self.tp), np.asarray(self.tp + self.fn))

    @property
    def tnr(self) -> Proportion:
        """Specificity, v- in the paper: ``tn / (tn + fp)``."""
        return Proportion(np.asarray(self.tn), np.asarray(self.tn + self.fp))

    @property
    def ppv(self) -> Proportion:
        """Positive predictive value: ``tp / (tp + fp)``."""
        return Proportion(np.asarray(self.tp), np.asarray(self.tp + self.fp))

    @property
    def npv(self) -> Proportion:
        """Negative predictive value: ``tn / (tn + fn)``."""
        return Proportion(np.asarray(self.tn), np.asarray(self.tn + self.fn))

    @property
    def balanced_accuracy(self) -> float:
        """``(TPR + TNR) / 2`` (NaN when a class is absent)."""
        return float((self.tpr.estimate + self.tnr.estimate) / 2)

    def to_frame(self, alpha: float = 0.05) -> pd.DataFrame:
        """Rows ``tpr, tnr, ppv, npv``; columns ``estimate, low, high, k, n`` (``1 - alpha`` Wilson intervals)."""
        alpha = check_alpha(alpha)
        rows = {}
        for name in ("tpr", "tnr", "ppv", "npv"):
            p: Proportion = getattr(self, name)
            low, high = p.bounds(alpha)
            rows[name] = {
                "estimate": float(p.estimate),
                "low": float(low),
                "high": float(high),
                "k": int(p.k),
                "n": int(p.n),
            }
        return pd.DataFrame.from_dict(rows, orient="index")


def ensemble_precision(labels: Any, generator: Any = None) -> EnsemblePrecision:
    """Per-generator precision of ensemble labels (fraction labelled valid), with counts.

    Parameters
    ----------
    labels : Series or array-like
        1.0 / 0.0 / NaN per item, as :func:`ensemble.vote` returns them. A
        Series indexed by (generator, item) (``vote`` on the judgments table)
        is grouped by its ``generator`` level.
    generator : array-like, optional
        The generator of each item, when ``labels`` does not carry it. Without
        either, all items form one group named ``"all"``.

    Returns
    -------
    EnsemblePrecision
        ``.estimate``, ``.interval()`` (Wilson),
        ``.to_frame()``, ``.summary()``, ``.diagnostics()``, ``.warnings``.

    Raises
    ------
    ValueError
        For a label other than 0, 1 or missing, no labels, or a ``generator``
        of another length.

    Notes
    -----
    Agreeableness paper, section 4: the precision of generator i is the
    fraction of its items the ensemble labels valid. The interval covers item
    sampling only (module docstring).

    Examples
    --------
    >>> p = ensemble_precision([1, 1, 0, 1, np.nan], generator=["a", "a", "a", "b", "b"])
    >>> p.estimate.round(4).tolist(), p.n_unlabelled.tolist()
    ([0.6667, 1.0], [0, 1])
    >>> p.interval().loc["a", ["low", "high"]].round(4).tolist()
    [0.2077, 0.9385]
    """
    values = _check_labels(labels)
    codes, names = _generator_codes(labels, generator, len(values))
    n_groups = len(names)
    has = ~np.isnan(values)
    n_labelled = np.bincount(codes[has], minlength=n_groups)
    n_valid = np.bincount(codes[has], weights=values[has], minlength=n_groups)
    n_unlabelled = np.bincount(codes[~has], minlength=n_groups)
    notes = []
    if n_unlabelled.sum():
        notes.append(
            f"{int(n_unlabelled.sum())} item(s) without a label (no vote cast) were left out "
            "of the precision; diagnostics() counts them per generator."
        )
    empty = [plain(name) for name, n in zip(names, n_labelled, strict=True) if n == 0]
    if empty:
        notes.append(
            f"generator(s) {empty} have no labelled item: their precision and interval are NaN."
        )
    return EnsemblePrecision(
        generators=tuple(names),
        n_valid=n_valid.astype(np.int64),
        n_labelled=n_labelled.astype(np.int64),
        n_unlabelled=n_unlabelled.astype(np.int64),
        warnings=tuple(notes),
    )


def ensemble_rates(labels: Any, human: Any) -> EnsembleRates:
    """The ensemble's TPR / TNR / PPV / NPV against human labels, where they exist.

    Parameters
    ----------
    labels : Series or array-like
        1.0 / 0.0 / NaN per item (:func:`ensemble.vote`).
    human : DataFrame or array-like
        The human labels table (``generator, item, human``; ``labels`` must then
        be indexed by (generator, item)), or labels aligned with ``labels``
        (1 / 0, NaN where there is none).

    Returns
    -------
    EnsembleRates
        ``.tpr``, ``.tnr``, ``.ppv``, ``.npv`` (each a :class:`Proportion` with a
        Wilson interval), ``.balanced_accuracy``, ``.to_frame()``.

    Raises
    ------
    ValueError
        For labels other than 0, 1 or missing; human labels naming a generator
        the votes lack, or items that have no votes; a length mismatch.

    Notes
    -----
    Agreeableness paper, section 4 (the ensemble's TPR 95.5 % and TNR 31.6 %
    for minority veto, n = 4). Items without a human label, and items the
    ensemble left unlabelled, are left out and counted.

    Examples
    --------
    >>> r = ensemble_rates([1, 1, 1, 0, 1, 0], [1, 1, 0, 0, 1, np.nan])
    >>> float(r.tpr.estimate), float(r.tnr.estimate), r.n_without_human
    (1.0, 0.5, 1)
    """
    values = _check_labels(labels)
    truth = _align_human(labels, human, len(values))
    has_label, has_human = ~np.isnan(values), ~np.isnan(truth)
    both = has_label & has_human
    tp, fn, fp, tn = confusion_counts(
        values[both], truth[both], np.zeros(int(both.sum()), np.int64), 1
    )
    return EnsembleRates(
        tp=int(tp[0]),
        fn=int(fn[0]),
        fp=int(fp[0]),
        tn=int(tn[0]),
        n_without_human=int(np.count_nonzero(has_label & ~has_human)),
        n_unlabelled=int(np.count_nonzero(~has_label & has_human)),
    )


# -- internals shared with ensemble.threshold ---------------------------------------------


def _check_labels(labels: Any) -> np.ndarray:
    if isinstance(labels, pd.DataFrame):
        raise ValueError(
            "labels must be one label per item (a Series or 1-D array), not a DataFrame."
        )
    try:
        if isinstance(labels, pd.Series):
            values = labels.to_numpy(dtype=float, na_value=np.nan)
        else:
            values = np.asarray(labels, dtype=float)
    except (TypeError, ValueError):
        values = coerce_binary("labels", np.asarray(labels, dtype=object), allow_missing=True)
    if values.ndim != 1:
        raise ValueError(f"labels must be 1-D, one per item; got shape {values.shape}.")
    if values.size == 0:
        raise ValueError("labels is empty; expected at least one item.")
    bad = ~(np.isnan(values) | (values == 0.0) | (values == 1.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"labels must be 1, 0 or NaN; got {values[i].item()!r} at position {i}.")
    return values


def _generator_codes(labels: Any, generator: Any, n: int) -> tuple[np.ndarray, list[Any]]:
    if (
        generator is None
        and isinstance(labels, pd.Series)
        and "generator" in (labels.index.names or [])
    ):
        generator = labels.index.get_level_values("generator")
    if generator is None:
        return np.zeros(n, np.int64), ["all"]
    groups = np.asarray(generator, dtype=object)
    if groups.shape != (n,):
        raise ValueError(f"generator must give one name per item ({n}); got shape {groups.shape}.")
    codes, names = pd.factorize(groups)
    if (codes < 0).any():
        raise ValueError(f"generator is missing at position {int(np.flatnonzero(codes < 0)[0])}.")
    return codes.astype(np.int64), list(names)


def _align_human(labels: Any, human: Any, n: int) -> np.ndarray:
    """Human labels (1.0 / 0.0 / NaN) aligned with the items of ``labels``."""
    if not isinstance(human, pd.DataFrame):
        truth = coerce_binary("human", human, allow_missing=True)
        if truth.shape != (n,):
            raise ValueError(f"human must give one label per item ({n}); got shape {truth.shape}.")
        return truth
    index = labels.index if isinstance(labels, (pd.Series, pd.DataFrame)) else None
    if index is None or not {"generator", "item"} <= set(index.names or []):
        raise ValueError(
            "a human labels table needs labels indexed by (generator, item), as vote() returns "
            "them for the judgments table."
        )
    return align_human_labels(index, human)


def align_human_labels(index: pd.MultiIndex, human: pd.DataFrame) -> np.ndarray:
    """The human table's labels placed on the (generator, item) rows of ``index``.

    Parameters
    ----------
    index : MultiIndex with levels ``generator`` and ``item``
        The items, as :func:`ensemble.voting.vote` labels the judgments table.
    human : DataFrame with columns ``generator, item, human``
        Human labels (1 / 0 / "valid" / "invalid"; missing allowed).

    Returns
    -------
    ndarray of float
        One entry per row of ``index``: 1.0, 0.0, or NaN where no human label.

    Raises
    ------
    ValueError
        A missing column, a label that is not binary, a generator the votes do
        not have, a repeated (generator, item), or a labelled item without votes.

    Examples
    --------
    >>> index = pd.MultiIndex.from_tuples([("g", 1), ("g", 2)], names=["generator", "item"])
    >>> align_human_labels(index, pd.DataFrame({"generator": ["g"], "item": [2], "human": [1]}))
    array([nan,  1.])
    """
    require_columns(human, HUMAN_COLUMNS, "human")
    truth_values = coerce_binary("human", human["human"].to_numpy(dtype=object), allow_missing=True)
    vote_generators = pd.unique(np.asarray(index.get_level_values("generator"), dtype=object))
    unknown = [
        g
        for g in pd.unique(human["generator"].to_numpy(dtype=object))
        if g not in set(vote_generators)
    ]
    if unknown:
        raise ValueError(
            f"human labels name generator(s) {unknown} that the votes do not have; "
            f"the votes have {list(vote_generators)}."
        )
    keys = pd.MultiIndex.from_arrays(
        [index.get_level_values("generator"), index.get_level_values("item")]
    )
    human_keys = pd.MultiIndex.from_arrays(
        [human["generator"].to_numpy(dtype=object), human["item"].to_numpy()]
    )
    refuse_repeats(human, ["generator", "item"], "human", "an item has one human label")
    position = keys.get_indexer(human_keys)
    if (position < 0).any():
        absent = human_keys[position < 0]
        raise ValueError(
            f"human labels for {len(absent)} item(s) that have no votes; first: "
            f"generator {plain(absent[0][0])!r}, item {plain(absent[0][1])!r}."
        )
    truth = np.full(len(index), np.nan)
    truth[position] = truth_values
    return truth


def confusion_counts(
    labels: np.ndarray, truth: np.ndarray, codes: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``tp, fn, fp, tn`` per group of items, each with a label and a human label (no NaN).

    Parameters
    ----------
    labels, truth : ndarray of 0.0 / 1.0
        The ensemble's and the human labels of the same items (valid = positive).
    codes : ndarray of int64
        Each item's group, in ``0..n_groups - 1``.
    n_groups : int

    Returns
    -------
    (tp, fn, fp, tn) : ndarrays of int64, shape (n_groups,)

    Examples
    --------
    >>> confusion_counts(np.array([1.0, 0.0, 1.0]), np.array([1.0, 1.0, 0.0]), np.zeros(3, int), 1)
    (array([1]), array([1]), array([1]), array([0]))
    """
    cell = (2 * (1 - truth) + (1 - labels)).astype(np.int64)  # 0 tp, 1 fn, 2 fp, 3 tn
    counts = np.bincount(codes * 4 + cell, minlength=4 * n_groups).reshape(n_groups, 4)
    return counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3]
