"""Calibration anchors: what the human labels say about generators and validators.

The agreeableness paper (section 5.1, eq. (3); App. C.4, eq. (12)) anchors the
latent-trait fit with the true precision g of the human-annotated ("calibration")
generators and each validator's TPR v+ and TNR v- measured against those human
labels. As in the paper's released code, the TPR / TNR anchors *pool* the
calibration generators' confusion counts per validator before dividing:
``TPR_j = sum_h tp_hj / sum_h (tp_hj + fn_hj)``.

The anchors keep the counts behind every value, so that the likelihood loss can
use the calibration data as data (binomial counts) rather than as penalties.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import (
    check_counts,
    check_probability,
    plain,
    refuse_repeats,
    require_columns,
)
from regression.data.judgments import EncodedJudgments, encode_judgments

__all__ = [
    "CONFUSION_COLUMNS",
    "Anchors",
    "ConfusionCounts",
    "confusion_from_encoded",
    "confusion_from_judgments",
    "paired_precision_correlation",
]

#: The columns of a confusion table (valid = positive), one row per generator and validator.
CONFUSION_COLUMNS = ("generator", "validator", "tp", "fn", "fp", "tn")

_EMPTY = pd.Series(dtype=float)


def _series(name: str, values: Any, index_name: str) -> pd.Series:
    if values is None:
        return pd.Series(dtype=float, index=pd.Index([], name=index_name), name=name)
    series = pd.Series(values, dtype=float) if isinstance(values, Mapping) else pd.Series(values)
    if series.index.has_duplicates:
        raise ValueError(f"{name} names {series.index[series.index.duplicated()][0]!r} twice.")
    return pd.Series(series.to_numpy(dtype=float), index=series.index.rename(index_name), name=name)


@dataclass(frozen=True, eq=False)
class Anchors:
    """Anchor values for the latent-trait fit, with the item counts behind them.

    Parameters
    ----------
    precision : mapping or Series, optional
        True precision g of each calibration generator (generator -> value in [0, 1]).
    tpr, tnr : mapping or Series, optional
        Each validator's TPR (v+) and TNR (v-) on the calibration generators.
        A NaN value means "no anchor for this validator" and is dropped.
    precision_n, tpr_n, tnr_n : mapping or Series, optional
        The number of items behind each value (items labelled; human-valid items
        a TPR was measured on; human-invalid items a TNR was measured on). The
        likelihood loss turns value x n into binomial counts; without them it
        treats the value as backed by ``default_n`` items and says so.
    pooled_from : tuple of str
        Generators whose validator votes the TPR / TNR counts pool. Their matrix
        cells carry the same votes again, so the likelihood loss leaves those
        cells out instead of counting every vote twice.
    notes : tuple of str
        What was skipped while building the anchors, and why.
    precision_correlation : DataFrame, optional
        Calibration generators x calibration generators: the correlation of
        their precision values' sampling errors, where their human labels fall
        on the same items (:func:`paired_precision_correlation`); None: the
        values are sampled independently. Comparisons between calibration
        generators (:mod:`regression.ranking`) use it.
    tables : DataFrame, optional
        Each calibration generator's own confusion counts, ``generator,
        validator, tp, fn, fp, tn``, when the anchors were pooled from them
        (:meth:`from_confusion`, :meth:`from_human_labels`,
        :meth:`from_encoded` keep them). The estimators for new generators
        (:mod:`regression.transfer.estimators`) read how the judges' TPR / TNR
        differ between generators from them.

    Raises
    ------
    ValueError
        If a value lies outside [0, 1] or a count is not a whole number >= 0.

    Examples
    --------
    >>> anchors = Anchors(precision={"gpt-4o": 0.935}, tpr={"judge": 0.96}, tnr={"judge": 0.2})
    >>> anchors.calibration_generators
    ('gpt-4o',)
    >>> anchors.has_counts
    False
    """

    precision: Any = None
    tpr: Any = None
    tnr: Any = None
    precision_n: Any = None
    tpr_n: Any = None
    tnr_n: Any = None
    pooled_from: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    tables: pd.DataFrame | None = field(default=None, repr=False)
    precision_correlation: pd.DataFrame | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        notes = list(self.notes)
        for value_name, n_name, axis in (
            ("precision", "precision_n", "generator"),
            ("tpr", "tpr_n", "validator"),
            ("tnr", "tnr_n", "validator"),
        ):
            values = _series(value_name, getattr(self, value_name), axis)
            undefined = values.index[values.isna()]
            if len(undefined) and value_name == "precision":
                raise ValueError(f"precision of {undefined[0]!r} is NaN; give a value in [0, 1].")
            values = values.dropna()
            check_probability(value_name, values.to_numpy())
            object.__setattr__(self, value_name, values)
            raw_n = getattr(self, n_name)
            if raw_n is None:
                continue
            n = _series(n_name, raw_n, axis).reindex(values.index)
            if n.isna().any():
                raise ValueError(f"{n_name} lacks a count for {n.index[n.isna()][0]!r}.")
            check_counts(n_name, n.to_numpy())
            object.__setattr__(self, n_name, n)
        object.__setattr__(self, "pooled_from", tuple(self.pooled_from))
        object.__setattr__(self, "notes", tuple(notes))
        if self.precision_correlation is not None:
            object.__setattr__(
                self,
                "precision_correlation",
                _check_correlation(self.precision_correlation, self.precision.index),
            )

    @property
    def calibration_generators(self) -> tuple[str, ...]:
        """The generators with a precision anchor."""
        return tuple(self.precision.index)

    @property
    def is_empty(self) -> bool:
        """True when nothing is anchored (the s = 0 case: the fit is unidentified)."""
        return len(self.precision) == 0 and len(self.tpr) == 0 and len(self.tnr) == 0

    @property
    def has_counts(self) -> bool:
        """True when every anchor value comes with the number of items behind it."""
        return all(
            getattr(self, f"{name}_n") is not None or len(getattr(self, name)) == 0
            for name in ("precision", "tpr", "tnr")
        )

    @classmethod
    def empty(cls) -> Anchors:
        """No anchors: the unanchored (s = 0) fit."""
        return cls()

    @classmethod
    def from_confusion(
        cls,
        confusion: pd.DataFrame,
        calibration_generators: Iterable[str] | None = None,
        precision: Mapping[str, float] | pd.Series | None = None,
        precision_n: Mapping[str, int] | pd.Series | None = None,
    ) -> Anchors:
        """Anchors pooled from the confusion tables of the calibration generators.

        Parameters
        ----------
        confusion : DataFrame
            ``generator, validator, tp, fn, fp, tn`` against the human labels
            (valid = positive), e.g. :func:`regression.datasets.load_confusion`.
        calibration_generators : iterable of str, optional
            The generators whose human labels may be used; default every
            generator in ``confusion``. An empty list gives empty anchors.
        precision : mapping or Series, optional
            True precision of each calibration generator (paper Table 1). Default:
            the human-valid share ``(tp + fn) / (tp + fn + fp + tn)`` pooled over
            that generator's validators.
        precision_n : mapping or Series, optional
            Items behind each precision; default the most items any one
            validator labelled for that generator.

        Returns
        -------
        Anchors
            ``tpr_j = sum tp / sum (tp + fn)`` and ``tnr_j = sum tn / sum (tn + fp)``
            over the calibration generators, as the paper's released code pools
            them; a validator whose pooled human-invalid (human-valid) count is 0
            gets no TNR (TPR) anchor and a note saying so.

        Raises
        ------
        ValueError
            If a column is missing, a count is bad, a (generator, validator) pair
            repeats, a calibration generator is not in ``confusion``, or
            ``precision`` misses a calibration generator.

        Examples
        --------
        >>> confusion = pd.DataFrame({"generator": ["g1", "g2"], "validator": ["v", "v"],
        ...                           "tp": [90, 80], "fn": [5, 5], "fp": [4, 10], "tn": [1, 5]})
        >>> anchors = Anchors.from_confusion(confusion, ["g1", "g2"], precision={"g1": 0.95, "g2": 0.85})
        >>> round(float(anchors.tpr["v"]), 4), round(float(anchors.tnr["v"]), 4)
        (0.9444, 0.3)
        >>> int(anchors.tnr_n["v"])
        20
        """
        return ConfusionCounts(confusion).pool(calibration_generators, precision, precision_n)

    @classmethod
    def from_human_labels(
        cls,
        judgments: pd.DataFrame,
        human_labels: pd.DataFrame,
        calibration_generators: Iterable[str] | None = None,
        *,
        shared_items: bool = False,
    ) -> Anchors:
        """Anchors from the judgments table (``generator, item, validator, label``) and human labels.

        The precision of each calibration generator is the share of its
        human-labelled items that are valid (backed by that many items); the TPR /
        TNR anchors pool :func:`confusion_from_judgments` over the calibration
        generators. ``calibration_generators`` defaults to every generator with
        human labels. ``shared_items=True`` says an item id names the same
        prompt for every generator: the precisions' correlation is then read
        off the items two calibration generators share
        (:func:`paired_precision_correlation`).

        Examples
        --------
        >>> judgments = pd.DataFrame({"generator": ["g"] * 4, "item": [1, 2, 3, 4],
        ...                           "validator": ["v"] * 4, "label": [1, 1, 1, 0]})
        >>> human = pd.DataFrame({"generator": ["g"] * 4, "item": [1, 2, 3, 4], "human": [1, 1, 0, 0]})
        >>> anchors = Anchors.from_human_labels(judgments, human)
        >>> float(anchors.precision["g"]), float(anchors.tpr["v"]), float(anchors.tnr["v"])
        (0.5, 1.0, 0.5)
        """
        return cls.from_encoded(
            encode_judgments(judgments, human_labels),
            calibration_generators,
            shared_items=shared_items,
        )

    @classmethod
    def from_encoded(
        cls,
        encoded: EncodedJudgments,
        calibration_generators: Iterable[str] | None = None,
        *,
        shared_items: bool = False,
    ) -> Anchors:
        """:meth:`from_human_labels` on a table :func:`encode_judgments` checked and encoded.

        Raises
        ------
        ValueError
            If ``encoded`` has no human labels, or a calibration generator has
            no human labels or no validator labels on its human-labelled items.
        """
        if encoded.human is None:
            raise ValueError("anchors from the judgments table need human_labels.")
        human = encoded.human
        calibration = (
            list(pd.unique(human["generator"]))
            if calibration_generators is None
            else list(calibration_generators)
        )
        unknown = [g for g in calibration if g not in set(human["generator"])]
        if unknown:
            raise ValueError(f"calibration generator(s) {unknown} have no human labels.")
        if not calibration:
            return cls()
        confusion = confusion_from_encoded(encoded)
        absent = [g for g in calibration if g not in set(confusion["generator"])]
        if absent:
            raise ValueError(
                f"calibration generator(s) {absent} have human labels but no validator labels "
                "on those items."
            )
        chosen = human[human["generator"].isin(calibration)].groupby("generator", sort=False)
        anchors = cls.from_confusion(
            confusion,
            calibration,
            precision=chosen["human"].mean(),
            precision_n=chosen["human"].size(),
        )
        if not shared_items:
            return anchors
        correlation = paired_precision_correlation(human, calibration)
        notes = anchors.notes
        if not (correlation.to_numpy() != np.eye(len(calibration))).any():
            notes += (
                "shared_items: no two calibration generators share a labelled item (or their "
                "shared labels do not vary), so their precisions are taken as independent.",
            )
        return replace(anchors, precision_correlation=correlation, notes=notes)


def paired_precision_correlation(labels: pd.DataFrame, generators: Iterable[str]) -> pd.DataFrame:
    """The correlation of the generators' label precisions, paired on the items they share.

    When an item id names the same prompt for every generator, a hard prompt
    lowers every generator's label on it, so two precision estimates (each the
    mean of its generator's labels) err together. For generators a and b with
    ``n_a`` and ``n_b`` labelled items, ``n_ab`` of them shared, the
    covariance of the two means is ``n_ab cov_ab / (n_a n_b)`` (the per-item
    covariance ``cov_ab`` counted on the shared items only), so their
    correlation is

        r_ab = rho_ab n_ab / sqrt(n_a n_b),

    ``rho_ab`` the sample correlation of the two generators' labels on the
    shared items: the moment estimate a paired t-test uses. A pair with under
    two shared items, or whose shared labels do not vary, gets 0.

    Parameters
    ----------
    labels : DataFrame
        ``generator, item, human`` (0 / 1; NaN where unlabelled), one row per
        ``(generator, item)``.
    generators : iterable of str
        The generators (rows and columns of the result, in this order).

    Returns
    -------
    DataFrame
        Generators x generators, 1 on the diagonal.

    Examples
    --------
    >>> labels = pd.DataFrame({"generator": ["a"] * 4 + ["b"] * 4, "item": [1, 2, 3, 4] * 2,
    ...                        "human": [1, 1, 0, 0, 1, 0, 0, 0]})
    >>> round(float(paired_precision_correlation(labels, ["a", "b"]).loc["a", "b"]), 4)
    0.5774
    """
    names = list(generators)
    require_columns(labels, ("generator", "item", "human"), "labels")
    kept = (labels["generator"].isin(names) & labels["human"].notna()).to_numpy()
    chosen = labels[kept]
    refuse_repeats(
        chosen,
        ["generator", "item"],
        "labels",
        "an item has one human label",
        positions=np.flatnonzero(kept),
    )
    table = chosen.pivot(index="item", columns="generator", values="human").reindex(columns=names)
    values = table.to_numpy(dtype=float)
    present = ~np.isnan(values)
    n = present.sum(axis=0)
    correlation = np.eye(len(names))
    for a, b in itertools.combinations(range(len(names)), 2):
        both = present[:, a] & present[:, b]
        n_ab = int(both.sum())
        if n_ab < 2:
            continue
        x, y = values[both, a], values[both, b]
        if np.ptp(x) == 0 or np.ptp(y) == 0:
            continue
        rho = float(np.corrcoef(x, y)[0, 1])
        correlation[a, b] = correlation[b, a] = rho * n_ab / np.sqrt(n[a] * n[b])
    index = pd.Index(names, name="generator")
    return pd.DataFrame(correlation, index=index, columns=index.rename(None))


def _check_correlation(correlation: Any, generators: pd.Index) -> pd.DataFrame:
    """``precision_correlation`` reindexed to the calibration generators, checked."""
    if not isinstance(correlation, pd.DataFrame):
        raise ValueError(
            f"precision_correlation must be a DataFrame (generators x generators), got "
            f"{type(correlation).__name__}."
        )
    for axis in (correlation.index, correlation.columns):
        stray = [g for g in axis if g not in generators]
        if stray:
            raise ValueError(
                f"precision_correlation names {stray[0]!r}, which has no precision anchor."
            )
        absent = [g for g in generators if g not in axis]
        if absent:
            raise ValueError(f"precision_correlation lacks calibration generator {absent[0]!r}.")
    values = correlation.reindex(index=generators, columns=generators).to_numpy(dtype=float)
    bad = ~np.isfinite(values) | (np.abs(values) > 1)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"precision_correlation[{plain(generators[row])!r}, {plain(generators[col])!r}] is "
            f"{plain(values[row, col])!r}; a correlation lies in [-1, 1]."
        )
    if not np.allclose(values, values.T) or not np.allclose(np.diag(values), 1.0):
        raise ValueError("precision_correlation must be symmetric with 1 on the diagonal.")
    index = pd.Index(generators, name="generator")
    return pd.DataFrame(values, index=index, columns=index.rename(None))


class ConfusionCounts:
    """A validated confusion table as an array, pooled into :class:`Anchors` for any calibration subset.

    ``Anchors.from_confusion`` is ``ConfusionCounts(confusion).pool(...)``; a
    leave-s-out run validates the table once and pools it for every subset.

    Attributes
    ----------
    generators, validators : Index
        In order of first appearance in the table.
    counts : ndarray
        ``(n_generators, n_validators, 4)``: ``tp, fn, fp, tn``; 0 for an absent pair.
    present : ndarray of bool
        ``(n_generators, n_validators)``: the pair has a row in the table.
    """

    def __init__(self, confusion: pd.DataFrame) -> None:
        require_columns(confusion, CONFUSION_COLUMNS, "confusion")
        table = confusion[list(CONFUSION_COLUMNS)]
        counts = np.column_stack(
            [check_counts(column, table[column].to_numpy()) for column in ("tp", "fn", "fp", "tn")]
        )
        refuse_repeats(
            table,
            ["generator", "validator"],
            "confusion",
            "a validator has one row of counts per generator",
        )
        gen_codes, self.generators = pd.factorize(table["generator"])
        val_codes, self.validators = pd.factorize(table["validator"])
        shape = (len(self.generators), len(self.validators))
        self.counts = np.zeros((*shape, 4))
        self.counts[gen_codes, val_codes] = counts
        self.present = np.zeros(shape, dtype=bool)
        self.present[gen_codes, val_codes] = True

    def pool(
        self,
        calibration_generators: Iterable[str] | None = None,
        precision: Mapping[str, float] | pd.Series | None = None,
        precision_n: Mapping[str, int] | pd.Series | None = None,
    ) -> Anchors:
        """The anchors of :meth:`Anchors.from_confusion` for these calibration generators."""
        known = list(self.generators)
        calibration = known if calibration_generators is None else list(calibration_generators)
        if len(set(calibration)) != len(calibration):
            raise ValueError(f"calibration_generators has repeats: {calibration!r}.")
        unknown = [g for g in calibration if g not in self.generators]
        if unknown:
            raise ValueError(
                f"calibration generator(s) {unknown} not in the confusion table; it has {known}."
            )
        if not calibration:
            return Anchors()
        chosen = np.sort(self.generators.get_indexer(calibration))
        counts = self.counts[chosen]
        notes = [
            f"calibration generator {self.generators[g]!r} has no human-invalid items: "
            "it adds nothing to the TNR anchors."
            for g, per_gen in zip(chosen, counts, strict=True)
            if per_gen[:, 2:].sum() == 0
        ]
        seen = self.present[chosen].any(axis=0)
        validators = self.validators[seen]
        tp, fn, fp, tn = counts[:, seen].sum(axis=0).T
        n_pos, n_neg = tp + fn, tn + fp
        for label, n in (("TPR", n_pos), ("TNR", n_neg)):
            kind = "valid" if label == "TPR" else "invalid"
            notes.extend(
                f"validator {validator!r} saw no human-{kind} item on the calibration "
                f"generators: its {label} anchor is undefined and skipped."
                for validator in validators[n == 0]
            )
        totals = counts.sum(axis=2)
        if precision is None:
            precision = pd.Series(
                counts[:, :, :2].sum(axis=(1, 2)) / totals.sum(axis=1),
                index=self.generators[chosen],
            )
        values = _series("precision", precision, "generator")
        missing = [g for g in calibration if g not in values.index]
        if missing:
            raise ValueError(f"precision misses calibration generator(s) {missing}.")
        if precision_n is None:
            precision_n = pd.Series(totals.max(axis=1), index=self.generators[chosen])
        with np.errstate(divide="ignore", invalid="ignore"):
            tpr, tnr = tp / n_pos, tn / n_neg
        return Anchors(
            precision=values.reindex(calibration),
            tpr=pd.Series(tpr[n_pos > 0], index=validators[n_pos > 0]),
            tnr=pd.Series(tnr[n_neg > 0], index=validators[n_neg > 0]),
            precision_n=_series("precision_n", precision_n, "generator").reindex(calibration),
            tpr_n=pd.Series(n_pos[n_pos > 0], index=validators[n_pos > 0]),
            tnr_n=pd.Series(n_neg[n_neg > 0], index=validators[n_neg > 0]),
            pooled_from=tuple(calibration),
            notes=tuple(notes),
            tables=self.tables(chosen),
        )

    def tables(self, rows: np.ndarray) -> pd.DataFrame:
        """The confusion counts of the generators at ``rows``, one row per observed pair."""
        gen, val = np.nonzero(self.present[rows])
        counts = self.counts[rows][gen, val]
        return pd.DataFrame(
            {
                "generator": self.generators[rows][gen],
                "validator": self.validators[val],
                **{name: counts[:, k] for k, name in enumerate(("tp", "fn", "fp", "tn"))},
            }
        )


def confusion_from_judgments(judgments: pd.DataFrame, human_labels: pd.DataFrame) -> pd.DataFrame:
    """Per generator and validator: ``tp, fn, fp, tn`` of the validator's labels against the human's.

    Only items with both a human label and a (non-missing) validator label count;
    valid is the positive class.

    Examples
    --------
    >>> judgments = pd.DataFrame({"generator": ["g"] * 3, "item": [1, 2, 3],
    ...                           "validator": ["v"] * 3, "label": [1, 1, pd.NA]})
    >>> human = pd.DataFrame({"generator": ["g"] * 3, "item": [1, 2, 3], "human": [1, 0, 0]})
    >>> confusion_from_judgments(judgments, human)
      generator validator  tp  fn  fp  tn
    0         g         v   1   0   1   0
    """
    return confusion_from_encoded(encode_judgments(judgments, human_labels))


def confusion_from_encoded(encoded: EncodedJudgments) -> pd.DataFrame:
    """:func:`confusion_from_judgments` of an encoded table with human labels.

    Rows are the (generator, validator) pairs in order of their first vote on a
    human-labelled item.
    """
    if encoded.human is None:
        raise ValueError("a confusion table needs human_labels.")
    truth = encoded.vote_truth
    both = ~np.isnan(encoded.label) & ~np.isnan(truth)
    label, truth = encoded.label[both], truth[both]
    n_val = len(encoded.validators)
    pair_codes, pairs = pd.factorize(encoded.gen_code[both] * n_val + encoded.val_code[both])
    kinds = np.column_stack(
        [
            (label == 1) & (truth == 1),
            (label == 0) & (truth == 1),
            (label == 1) & (truth == 0),
            (label == 0) & (truth == 0),
        ]
    )
    counts = np.column_stack(
        [np.bincount(pair_codes, weights=kind, minlength=len(pairs)) for kind in kinds.T]
    )
    table = pd.DataFrame(counts.astype(np.int64), columns=["tp", "fn", "fp", "tn"])
    table.insert(0, "validator", encoded.validators[pairs % n_val])
    table.insert(0, "generator", encoded.generators[pairs // n_val])
    return table
