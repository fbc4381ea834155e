"""Counting a frame of the user's own engine inside that engine, through narwhals.

A Dask or PySpark DataFrame, a DuckDB relation, a Polars LazyFrame or
DataFrame, pandas, pyarrow, Ibis, ...: :func:`count_frame` and
:func:`confusion_frame` express the count as narwhals expressions, so the engine
runs it on its own workers and only the per-cell totals are collected. jurycal
never imports Spark or Dask.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import narwhals.stable.v2 as nw
import pandas as pd

from jurycal.counting.labels import CODE, label_code
from jurycal.counting.tally import confusion_lazy, count_lazy
from regression.checks import (
    HUMAN_COLUMNS,
    JUDGMENT_COLUMNS,
    coerce_binary,
    missing_columns_message,
)
from regression.data import Counts

__all__ = ["confusion_frame", "count_frame"]


def _as_lazy(frame: Any, columns: Sequence[str], label: str, name: str) -> nw.LazyFrame:
    """``frame`` as a narwhals LazyFrame with ``columns`` checked and ``label`` decoded into CODE."""
    try:
        wrapped = nw.from_native(frame)
    except TypeError as exc:
        raise ValueError(
            f"{name} must be a dataframe narwhals supports (pandas, Polars, pyarrow, Dask, "
            f"PySpark, DuckDB, Ibis, ...); got {type(frame).__name__}."
        ) from exc
    if isinstance(wrapped, nw.DataFrame):
        native = wrapped.to_native()
        # A pandas object column mixes Python types (True, 1, 'valid'): decode it as
        # coerce_binary does before handing the frame to narwhals.
        if isinstance(native, pd.DataFrame) and label in native.columns:
            if native[label].dtype == object:
                decoded = coerce_binary(label, native[label], allow_missing=True)
                wrapped = nw.from_native(native.assign(**{label: decoded}))
        lazy = wrapped.lazy()
    else:
        lazy = wrapped
    schema = lazy.collect_schema()
    present = list(schema.names())
    absent = [c for c in columns if c not in present]
    if absent:
        raise ValueError(missing_columns_message(name, columns, present))
    if CODE in present:  # the file route decodes labels in SQL already
        return lazy
    return lazy.with_columns(label_code(label, schema[label]).alias(CODE))


def count_frame(frame: Any, *, check_duplicates: bool = True) -> Counts:
    """Count a judgments frame of any engine inside that engine; only the counts are collected.

    Parameters
    ----------
    frame : dataframe
        Any frame narwhals accepts: a Dask or PySpark DataFrame, a DuckDB
        relation, a Polars LazyFrame or DataFrame, pandas, a pyarrow Table, an
        Ibis table, ... with columns ``generator, item, validator, label``
        (other columns are ignored). Labels as
        :func:`regression.checks.coerce_binary` reads them: 1 / 0, booleans,
        ``'valid'`` / ``'invalid'`` / ``'true'`` / ``'false'`` / ``'1'`` /
        ``'0'`` (any case) or missing.
    check_duplicates : bool, default True
        Check that no ``(generator, item, validator)`` appears twice anywhere
        in the frame. This is a group-by on the full key (a shuffle on a
        cluster), the most expensive part of the count; pass False for data
        whose keys are known to be unique.

    Returns
    -------
    Counts
        ``n_valid`` and ``n_labelled`` per generator (rows) and validator
        (columns), both sorted; equal to
        :func:`regression.counts_from_judgments` on the same rows.

    Raises
    ------
    ValueError
        A missing column; labels that are not binary (each named with its
        number of rows); rows with a missing generator or validator; a repeated
        ``(generator, item, validator)`` (the first few named); no rows.

    Notes
    -----
    The counts are the sufficient statistic of the matrix model (agreeableness
    paper, section 5.1, eq. (9): ``P = n_valid / n_labelled``). The engine runs
    one group-by on (generator, validator) and, with ``check_duplicates``, one
    on the full key; what travels back is one row per cell.

    Examples
    --------
    >>> import polars as pl
    >>> votes = pl.LazyFrame({"generator": ["g1", "g1", "g2"], "item": [1, 2, 1],
    ...                       "validator": ["v", "v", "v"], "label": ["valid", "0", None]})
    >>> count_frame(votes).n_labelled
    validator  v
    generator
    g1         2
    g2         0
    """
    lazy = _as_lazy(frame, JUDGMENT_COLUMNS, "label", "judgments")
    return count_lazy(lazy, "judgments", check_duplicates)


def confusion_frame(judgments: Any, human: Any) -> pd.DataFrame:
    """Per generator and validator: ``tp, fn, fp, tn`` against the human labels, inside the engine.

    Parameters
    ----------
    judgments : dataframe
        Columns ``generator, item, validator, label``, any engine narwhals
        accepts (see :func:`count_frame`).
    human : dataframe
        Columns ``generator, item, human``, of the same engine as
        ``judgments`` (the join runs there).

    Returns
    -------
    DataFrame
        ``generator, validator, tp, fn, fp, tn`` sorted by generator and
        validator; valid is the positive class. Only items with both a human
        label and a non-missing validator label count, as in
        :func:`regression.data.confusion_from_judgments`, whose numbers it
        equals.

    Raises
    ------
    ValueError
        A missing column, a label that is not binary, a missing human label, a
        repeated human ``(generator, item)``, or frames of two engines.

    Notes
    -----
    The per-validator TPR and TNR anchors are ratios of these counts
    (agreeableness paper, section 5.1; Lee et al., eq. (7)).

    Examples
    --------
    >>> import polars as pl
    >>> votes = pl.DataFrame({"generator": ["g"] * 3, "item": [1, 2, 3],
    ...                       "validator": ["v"] * 3, "label": [1, 1, None]})
    >>> human = pl.DataFrame({"generator": ["g"] * 3, "item": [1, 2, 3], "human": [1, 0, 0]})
    >>> confusion_frame(votes, human)
      generator validator  tp  fn  fp  tn
    0         g         v   1   0   1   0
    """
    votes = _as_lazy(judgments, JUDGMENT_COLUMNS, "label", "judgments")
    truth = _as_lazy(human, HUMAN_COLUMNS, "human", "human labels")
    if votes.implementation != truth.implementation:
        raise ValueError(
            f"judgments ({votes.implementation}) and human labels ({truth.implementation}) must "
            "be frames of the same engine: the join runs inside it."
        )
    return confusion_lazy(votes, truth, "judgments")
