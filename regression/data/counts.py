"""The counts matrix: the sufficient statistic of the generator x validator model.

For generator i and validator j, ``n_valid[i, j]`` items were labelled valid out
of ``n_labelled[i, j]`` items that validator j labelled at all; the paper's
matrix P (agreeableness paper, section 5.1, eq. (9)) is their ratio. A cell with
``n_labelled == 0`` (never run, or every label missing) is *absent*: the models
leave it out of the loss rather than guessing a value for it.

Counting works on chunks: :class:`Counts` objects add up, aligning on the union
of their labels, so a table too large for memory is counted as
``sum(counts_from_judgments(chunk) for chunk in chunks)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import check_counts
from regression.data.judgments import EncodedJudgments, encode_judgments

__all__ = ["Counts", "counts_from_encoded", "counts_from_judgments"]


@dataclass(frozen=True, eq=False)
class Counts:
    """Valid and labelled counts per generator (rows) and validator (columns).

    Parameters
    ----------
    n_valid, n_labelled : DataFrame
        Whole numbers >= 0 with the same index (generators) and columns
        (validators); ``n_valid <= n_labelled`` cell by cell. A cell with
        ``n_labelled == 0`` is absent.

    Raises
    ------
    ValueError
        If the two tables are not aligned, hold anything but whole counts, or a
        cell has more valid labels than labels.

    Examples
    --------
    >>> a = Counts(pd.DataFrame({"v1": [3]}, index=["g1"]), pd.DataFrame({"v1": [4]}, index=["g1"]))
    >>> b = Counts(pd.DataFrame({"v2": [1]}, index=["g2"]), pd.DataFrame({"v2": [2]}, index=["g2"]))
    >>> total = sum([a, b])
    >>> total.n_labelled
    validator  v1  v2
    generator
    g1          4   0
    g2          0   2
    >>> total.rates
    validator    v1   v2
    generator
    g1         0.75  NaN
    g2          NaN  0.5
    """

    n_valid: pd.DataFrame
    n_labelled: pd.DataFrame

    def __post_init__(self) -> None:
        for name in ("n_valid", "n_labelled"):
            if not isinstance(getattr(self, name), pd.DataFrame):
                raise ValueError(
                    f"{name} must be a pandas DataFrame; got {type(getattr(self, name)).__name__}."
                )
        valid, labelled = self.n_valid, self.n_labelled
        if not (valid.index.equals(labelled.index) and valid.columns.equals(labelled.columns)):
            raise ValueError(
                "n_valid and n_labelled must have the same generators (index) and validators "
                f"(columns); got {valid.shape} and {labelled.shape} with different labels."
            )
        for axis, labels in (("generator", valid.index), ("validator", valid.columns)):
            duplicated = labels[labels.duplicated()]
            if len(duplicated):
                raise ValueError(f"{axis} {duplicated[0]!r} appears more than once.")
        k = check_counts("n_valid", valid.to_numpy(dtype=float))
        n = check_counts("n_labelled", labelled.to_numpy(dtype=float))
        over = k > n
        if over.any():
            i, j = np.argwhere(over)[0]
            raise ValueError(
                f"n_valid ({k[i, j]}) must not be greater than n_labelled ({n[i, j]}) for "
                f"generator {valid.index[i]!r} and validator {valid.columns[j]!r}."
            )
        index = valid.index.rename("generator")
        columns = valid.columns.rename("validator")
        object.__setattr__(self, "n_valid", pd.DataFrame(k, index=index, columns=columns))
        object.__setattr__(self, "n_labelled", pd.DataFrame(n, index=index, columns=columns))

    @property
    def generators(self) -> pd.Index:
        """The generators (rows)."""
        return self.n_valid.index

    @property
    def validators(self) -> pd.Index:
        """The validators (columns)."""
        return self.n_valid.columns

    @property
    def rates(self) -> pd.DataFrame:
        """``n_valid / n_labelled``: the fraction labelled valid, NaN where the cell is absent."""
        n = self.n_labelled.to_numpy(dtype=float)
        k = self.n_valid.to_numpy(dtype=float)
        rate = np.full(n.shape, np.nan)
        np.divide(k, n, out=rate, where=n > 0)
        return pd.DataFrame(rate, index=self.generators, columns=self.validators)

    def __add__(self, other: Any) -> Counts:
        if isinstance(other, int) and other == 0:
            return self
        if not isinstance(other, Counts):
            return NotImplemented
        index = self.generators.union(other.generators, sort=False)
        columns = self.validators.union(other.validators, sort=False)

        def total(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
            return a.reindex(index=index, columns=columns, fill_value=0) + b.reindex(
                index=index, columns=columns, fill_value=0
            )

        return Counts(total(self.n_valid, other.n_valid), total(self.n_labelled, other.n_labelled))

    def __radd__(self, other: Any) -> Counts:
        return self.__add__(other)

    def __repr__(self) -> str:
        observed = int((self.n_labelled.to_numpy() > 0).sum())
        return (
            f"Counts({len(self.generators)} generators x {len(self.validators)} validators, "
            f"{observed} observed cells, {int(self.n_labelled.to_numpy().sum())} labels)"
        )


def counts_from_judgments(judgments: pd.DataFrame) -> Counts:
    """Count valid and labelled votes per generator and validator.

    Parameters
    ----------
    judgments : DataFrame
        The judgments table: ``generator, item, validator, label``
        with ``label`` 1 (valid), 0 (invalid) or missing (``pd.NA``, NaN,
        None). A missing label is not a label: it counts in neither
        ``n_valid`` nor ``n_labelled``.

    Returns
    -------
    Counts
        Generators and validators in order of first appearance. A pair whose
        every label is missing is kept as an absent cell (``n_labelled == 0``),
        so every input row is accounted for.

    Raises
    ------
    ValueError
        If a column is missing, a label is not binary, or a
        ``(generator, item, validator)`` triple appears twice (the message
        names the first repeat).

    Notes
    -----
    Works in O(rows) with ``np.bincount``; for tables larger than memory, count
    chunks and add the results (``sum(...)`` aligns on the union of labels).

    Examples
    --------
    >>> judgments = pd.DataFrame({
    ...     "generator": ["g1", "g1", "g1", "g2"], "item": [1, 2, 1, 1],
    ...     "validator": ["v1", "v1", "v2", "v1"], "label": [1, 0, pd.NA, 1]})
    >>> counts = counts_from_judgments(judgments)
    >>> counts.n_valid
    validator  v1  v2
    generator
    g1          1   0
    g2          1   0
    >>> counts.n_labelled
    validator  v1  v2
    generator
    g1          2   0
    g2          1   0
    """
    return counts_from_encoded(encode_judgments(judgments))


def counts_from_encoded(encoded: EncodedJudgments) -> Counts:
    """The :class:`Counts` of an encoded judgments table (see :func:`counts_from_judgments`)."""
    n_gen, n_val = len(encoded.generators), len(encoded.validators)
    cell = encoded.gen_code * n_val + encoded.val_code
    labelled = ~np.isnan(encoded.label)
    size = n_gen * n_val
    n_labelled = np.bincount(cell[labelled], minlength=size).reshape(n_gen, n_val)
    n_valid = np.bincount(cell[labelled], weights=encoded.label[labelled], minlength=size)
    index, columns = encoded.generators, encoded.validators
    return Counts(
        pd.DataFrame(np.rint(n_valid).astype(np.int64).reshape(n_gen, n_val), index, columns),
        pd.DataFrame(n_labelled, index, columns),
    )
