"""Contingency tables: the sufficient statistics of the single-judge case.

Everything the single-judge estimators need is a count, so their cost does not
grow with the number of items: the judge's verdicts on the test set reduce to
``k`` valid out of ``n`` (:class:`JudgeCounts`); the calibration set, where
both a human and the judge labelled each item, reduces to the 2 x 2 table
human x judge (:class:`CalibrationTable`); two models judged on the same test
items reduce to the paired 2 x 2 table judge-on-A x judge-on-B
(:class:`PairedJudgeTable`).

Labels enter through :func:`regression.checks.coerce_binary` (bool, 0/1,
``"valid"`` / ``"invalid"``). A missing *judge* label (NaN, ``None``, ``pd.NA``)
is dropped and counted in ``n_dropped``, never silently used; a missing *human*
label is an error, because a calibration item without its human label is not a
calibration item.

Cell order, used by the bootstraps (:mod:`regression.single_judge.bootstrap`):
``CalibrationTable.cells`` is ``(tp, fn, fp, tn)`` (human valid: judge valid,
judge invalid; human invalid: judge valid, judge invalid) and
``PairedJudgeTable.cells`` is ``(both, a_only, b_only, neither)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import check_counts, coerce_binary, require_columns

__all__ = [
    "CalibrationTable",
    "JudgeCounts",
    "PairedJudgeTable",
    "as_calibration_table",
    "as_judge_counts",
]


def _count(name: str, value: Any) -> int:
    arr = check_counts(name, value)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single count; got shape {arr.shape}.")
    return int(arr)


@dataclass(frozen=True)
class JudgeCounts:
    """The judge's verdicts on a test set: ``k`` judged valid out of ``n`` (``n_dropped`` missing).

    Examples
    --------
    >>> JudgeCounts.from_labels([1, 0, "valid", None, True])
    JudgeCounts(k=3, n=4, n_dropped=1)
    """

    k: int
    n: int
    n_dropped: int = 0

    def __post_init__(self) -> None:
        for name in ("k", "n", "n_dropped"):
            object.__setattr__(self, name, _count(name, getattr(self, name)))
        if self.n <= 0:
            raise ValueError(f"n must be positive; got {self.n} (no test item with a judge label).")
        if self.k > self.n:
            raise ValueError(f"k ({self.k}) must not be greater than n ({self.n}).")

    @classmethod
    def from_labels(cls, judge: Any) -> JudgeCounts:
        """Count judge labels, dropping (and counting) missing ones."""
        labels = coerce_binary("judge", _column(judge, "judge", "test"), allow_missing=True).ravel()
        missing = np.isnan(labels)
        return cls(k=int(np.nansum(labels)), n=int((~missing).sum()), n_dropped=int(missing.sum()))

    @property
    def p_hat(self) -> float:
        """The naive proportion judged valid, Lee et al. eq. (3)."""
        return self.k / self.n


@dataclass(frozen=True)
class CalibrationTable:
    """The 2 x 2 calibration table of one judge: human label (1/0) x judge label (1/0).

    ``tp``: human valid, judge valid; ``fn``: human valid, judge invalid;
    ``fp``: human invalid, judge valid; ``tn``: human invalid, judge invalid.
    ``n_dropped`` counts calibration items dropped for a missing judge label.

    A table may lack a human class (m1 = 0 or m0 = 0): the naive and the
    prediction-powered estimates need no second class, Rogan-Gladen and
    Youden's J do (:meth:`require_both_classes`); the rate of the empty class
    (``tpr`` or ``tnr``) is then NaN.

    Raises
    ------
    ValueError
        If a count is not a whole number >= 0, or the table holds no item.

    Examples
    --------
    >>> table = CalibrationTable.from_labels(human=[1, 1, 1, 0, 0], judge=[1, 1, 0, 1, 0])
    >>> table
    CalibrationTable(tp=2, fn=1, fp=1, tn=1, n_dropped=0)
    >>> round(table.tpr, 3), table.tnr, round(table.youden_j, 3)
    (0.667, 0.5, 0.167)
    >>> CalibrationTable(tp=3, fn=1, fp=0, tn=0).missing_class
    'calibration has no human-invalid item (m0 = 0), so TNR cannot be estimated'
    """

    tp: int
    fn: int
    fp: int
    tn: int
    n_dropped: int = 0

    def __post_init__(self) -> None:
        for name in ("tp", "fn", "fp", "tn", "n_dropped"):
            object.__setattr__(self, name, _count(name, getattr(self, name)))
        if self.m == 0:
            raise ValueError(
                f"calibration has no item with both labels ({self.n_dropped} dropped for a "
                "missing judge label); label some items."
            )

    @property
    def missing_class(self) -> str:
        """Why TPR or TNR cannot be estimated (a human class is empty); '' when both can."""
        if self.n_pos == 0:
            return "calibration has no human-valid item (m1 = 0), so TPR cannot be estimated"
        if self.n_neg == 0:
            return "calibration has no human-invalid item (m0 = 0), so TNR cannot be estimated"
        return ""

    def require_both_classes(self, what: str, *, otherwise: str = "") -> None:
        """Refuse, naming ``what``, a table with an empty human class.

        Parameters
        ----------
        what : str
            Who needs both classes, for the text.
        otherwise : str, keyword-only
            What else the caller can do, appended to the text.

        Raises
        ------
        ValueError
            When m1 = 0 or m0 = 0; the text names ``what`` and the empty class.

        Examples
        --------
        >>> CalibrationTable(tp=3, fn=1, fp=0, tn=0).require_both_classes("rogan-gladen")
        Traceback (most recent call last):
        ...
        ValueError: rogan-gladen needs calibration items of both human classes: the calibration has no human-invalid item (m0 = 0), so TNR cannot be estimated; label some invalid items.
        """
        if self.missing_class:
            kind = "valid" if self.n_pos == 0 else "invalid"
            raise ValueError(
                f"{what} needs calibration items of both human classes: the "
                f"{self.missing_class}; label some {kind} items{otherwise}."
            )

    @classmethod
    def from_labels(cls, human: Any, judge: Any) -> CalibrationTable:
        """Cross-tabulate paired human and judge labels; items with a missing judge label are dropped and counted."""
        h = coerce_binary("human", _column(human, "human", "calibration")).ravel()
        j = coerce_binary(
            "judge", _column(judge, "judge", "calibration"), allow_missing=True
        ).ravel()
        if h.shape != j.shape:
            raise ValueError(
                f"human and judge labels must have the same length; got {h.size} and {j.size}."
            )
        keep = ~np.isnan(j)
        h, j = h[keep], j[keep]
        return cls(
            tp=int(np.sum((h == 1) & (j == 1))),
            fn=int(np.sum((h == 1) & (j == 0))),
            fp=int(np.sum((h == 0) & (j == 1))),
            tn=int(np.sum((h == 0) & (j == 0))),
            n_dropped=int((~keep).sum()),
        )

    @classmethod
    def from_frame(
        cls, frame: pd.DataFrame, human: str = "human", judge: str = "judge"
    ) -> CalibrationTable:
        """From a DataFrame with a human-label column and a judge-label column."""
        require_columns(frame, [human, judge], "calibration")
        return cls.from_labels(frame[human], frame[judge])

    @property
    def cells(self) -> np.ndarray:
        """``(tp, fn, fp, tn)`` as an int64 array (the order the bootstraps resample)."""
        return np.array([self.tp, self.fn, self.fp, self.tn], dtype=np.int64)

    @property
    def n_pos(self) -> int:
        """m1: calibration items whose human label is valid."""
        return self.tp + self.fn

    @property
    def n_neg(self) -> int:
        """m0: calibration items whose human label is invalid."""
        return self.fp + self.tn

    @property
    def m(self) -> int:
        """m = m0 + m1, the calibration size."""
        return self.n_pos + self.n_neg

    @property
    def tpr(self) -> float:
        """Sensitivity q1 = tp / m1, Lee et al. eq. (5); NaN when m1 = 0."""
        return self.tp / self.n_pos if self.n_pos else float("nan")

    @property
    def tnr(self) -> float:
        """Specificity q0 = tn / m0, Lee et al. eq. (5); NaN when m0 = 0."""
        return self.tn / self.n_neg if self.n_neg else float("nan")

    @property
    def youden_j(self) -> float:
        """Youden's J = TPR + TNR - 1 (Fiedler section 3.3); NaN when a class is empty."""
        return self.tpr + self.tnr - 1

    @property
    def human_mean(self) -> float:
        """The human-valid fraction of the calibration items (Y-bar_cal of PPI++)."""
        return self.n_pos / self.m

    @property
    def judge_mean(self) -> float:
        """The judge-valid fraction of the calibration items (p-hat_cal of PPI++)."""
        return (self.tp + self.fp) / self.m

    def __add__(self, other: CalibrationTable) -> CalibrationTable:
        """Pool two calibration tables (shared calibration across models)."""
        if not isinstance(other, CalibrationTable):
            return NotImplemented
        return CalibrationTable(
            tp=self.tp + other.tp,
            fn=self.fn + other.fn,
            fp=self.fp + other.fp,
            tn=self.tn + other.tn,
            n_dropped=self.n_dropped + other.n_dropped,
        )


@dataclass(frozen=True)
class PairedJudgeTable:
    """The judge's verdicts on two models answering the same test items (paired 2 x 2 table).

    ``both``: judge says valid for A and B; ``a_only``: valid for A only;
    ``b_only``: valid for B only; ``neither``. ``n_dropped`` counts items
    dropped because either verdict was missing.

    Examples
    --------
    >>> t = PairedJudgeTable.from_labels([1, 1, 0, None], [1, 0, 0, 1])
    >>> t, round(t.p_a, 4), round(t.p_b, 4)
    (PairedJudgeTable(both=1, a_only=1, b_only=0, neither=1, n_dropped=1), 0.6667, 0.3333)
    """

    both: int
    a_only: int
    b_only: int
    neither: int
    n_dropped: int = 0

    def __post_init__(self) -> None:
        for name in ("both", "a_only", "b_only", "neither", "n_dropped"):
            object.__setattr__(self, name, _count(name, getattr(self, name)))
        if self.n <= 0:
            raise ValueError("the paired test set is empty (no item with both judge labels).")

    @classmethod
    def from_labels(cls, judge_a: Any, judge_b: Any) -> PairedJudgeTable:
        """Cross-tabulate the judge's labels for A and B item by item; pairs with a missing label are dropped and counted."""
        a = coerce_binary(
            "judge_a", _column(judge_a, "judge", "test_a"), allow_missing=True
        ).ravel()
        b = coerce_binary(
            "judge_b", _column(judge_b, "judge", "test_b"), allow_missing=True
        ).ravel()
        if a.shape != b.shape:
            raise ValueError(
                f"paired test labels must have the same length; got {a.size} and {b.size}."
            )
        keep = ~(np.isnan(a) | np.isnan(b))
        a, b = a[keep], b[keep]
        return cls(
            both=int(np.sum((a == 1) & (b == 1))),
            a_only=int(np.sum((a == 1) & (b == 0))),
            b_only=int(np.sum((a == 0) & (b == 1))),
            neither=int(np.sum((a == 0) & (b == 0))),
            n_dropped=int((~keep).sum()),
        )

    @property
    def cells(self) -> np.ndarray:
        """``(both, a_only, b_only, neither)`` as an int64 array."""
        return np.array([self.both, self.a_only, self.b_only, self.neither], dtype=np.int64)

    @property
    def n(self) -> int:
        return self.both + self.a_only + self.b_only + self.neither

    @property
    def p_a(self) -> float:
        return (self.both + self.a_only) / self.n

    @property
    def p_b(self) -> float:
        return (self.both + self.b_only) / self.n

    def margins(self) -> tuple[JudgeCounts, JudgeCounts]:
        """The two models' test counts (the pairing forgotten)."""
        return (
            JudgeCounts(self.both + self.a_only, self.n, self.n_dropped),
            JudgeCounts(self.both + self.b_only, self.n, self.n_dropped),
        )


def _column(values: Any, column: str, name: str) -> Any:
    """A label vector from an array, a Series, or a DataFrame's ``column``."""
    if isinstance(values, pd.DataFrame):
        require_columns(values, [column], name)
        return values[column]
    return values


def as_calibration_table(
    calibration: Any, *, human: str = "human", judge: str = "judge"
) -> CalibrationTable:
    """Accept a :class:`CalibrationTable`, a DataFrame (``human``, ``judge`` columns) or a ``(human, judge)`` pair."""
    if isinstance(calibration, CalibrationTable):
        return calibration
    if isinstance(calibration, pd.DataFrame):
        return CalibrationTable.from_frame(calibration, human, judge)
    if isinstance(calibration, tuple) and len(calibration) == 2:
        return CalibrationTable.from_labels(*calibration)
    raise ValueError(
        "calibration must be a CalibrationTable, a DataFrame with columns "
        f"[{human!r}, {judge!r}], or a (human, judge) pair of label arrays; "
        f"got {type(calibration).__name__}."
    )


def as_judge_counts(test: Any, *, judge: str = "judge") -> JudgeCounts:
    """Accept :class:`JudgeCounts`, judge labels (array or Series), or a DataFrame with a ``judge`` column."""
    if isinstance(test, JudgeCounts):
        return test
    if isinstance(test, pd.DataFrame):
        require_columns(test, [judge], "test")
        return JudgeCounts.from_labels(test[judge])
    return JudgeCounts.from_labels(test)
