"""The counts and checks both counting routes share, as narwhals queries run inside the engine.

The frame route (:mod:`jurycal.counting.frames`) runs them on the user's own
engine, the file route (:mod:`jurycal.counting.files`) on a DuckDB relation over
the files. Either way the label column has been decoded into
:data:`jurycal.counting.labels.CODE` first, and what is collected is one row per
(generator, validator) cell, or the first few offending values of an error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import narwhals.stable.v2 as nw
import numpy as np
import pandas as pd

from jurycal.counting.labels import BAD, CODE, MISSING
from regression.checks import plain
from regression.data import CONFUSION_COLUMNS, Counts

__all__ = [
    "MAX_REPORTED",
    "confusion_lazy",
    "count_lazy",
    "counts_from_tally",
    "raise_duplicates",
    "tally",
]

#: How many offending values (duplicates, bad labels) an error message lists.
MAX_REPORTED = 5


def _where(lazy: nw.LazyFrame, rows: nw.Expr) -> str:
    """' in files [...]' when ``lazy`` carries a ``filename`` column, naming the files of ``rows``."""
    if "filename" not in lazy.collect_schema().names():
        return ""
    files = lazy.filter(rows).select("filename").unique().sort("filename").head(MAX_REPORTED)
    names = files.collect(backend="pandas").to_native()["filename"].tolist()
    return f" in {'file' if len(names) == 1 else 'files'} {', '.join(map(repr, names))}"


def _check_labels(lazy: nw.LazyFrame, label: str, name: str, n_bad: int) -> None:
    """Raise naming the labels that are not binary and how many rows carry each, if any."""
    if n_bad == 0:
        return
    bad = nw.col(CODE) == BAD
    top = (
        lazy.filter(bad).group_by(label).agg(nw.len())
        .sort(["len", label], descending=[True, False]).head(MAX_REPORTED)
        .collect(backend="pandas").to_native()
    )  # fmt: skip
    listed = ", ".join(
        f"{plain(v)!r} ({int(n):,} row{'s' if n != 1 else ''})"
        for v, n in zip(top[label], top["len"], strict=True)
    )
    raise ValueError(
        f"{name} has {n_bad:,} row(s) whose {label} is not a binary label{_where(lazy, bad)}: "
        f"{listed}{', ...' if int(top['len'].sum()) < n_bad else ''}; "
        "a label must be 1/0, true/false or valid/invalid (any case), or missing."
    )


def _check_keys(lazy: nw.LazyFrame, keys: Sequence[str], name: str, table: pd.DataFrame) -> None:
    """Raise if a key column is missing in some rows (``table`` is the per-key tally)."""
    for key in keys:
        if key not in table.columns:
            continue
        missing = table[key].isna()
        if missing.any():
            n = int(table.loc[missing, "len"].sum())
            raise ValueError(
                f"{name} has {n:,} row(s) with a missing {key}"
                f"{_where(lazy, nw.col(key).is_null())}; every row needs one."
            )


def _frame_duplicates(lazy: nw.LazyFrame, keys: Sequence[str]) -> tuple[int, pd.DataFrame]:
    """The number of repeated key tuples and the first few, counted inside the engine."""
    repeated = lazy.group_by(*keys).agg(nw.len()).filter(nw.col("len") > 1)
    total = repeated.select(nw.len().alias("n")).collect(backend="pandas").to_native()
    n = int(total["n"].iloc[0]) if len(total) else 0
    if n == 0:
        return 0, pd.DataFrame()
    first = repeated.sort(list(keys)).head(MAX_REPORTED).collect(backend="pandas").to_native()
    return n, first


def raise_duplicates(n: int, first: pd.DataFrame, keys: Sequence[str], name: str) -> None:
    """Raise the error for ``n`` repeated ``keys``, listing the rows of ``first``.

    Parameters
    ----------
    n : int
        How many distinct key tuples repeat.
    first : DataFrame
        The first few of them: the ``keys`` columns, ``len`` (how many times)
        and optionally ``where`` (the files and lines of the copies).
    keys : sequence of str
        The key columns, e.g. ``("generator", "item", "validator")``.
    name : str
        What the data is called in the message (``"judgments"``).

    Raises
    ------
    ValueError
        Always.
    """
    listed = "; ".join(
        f"{tuple(plain(row[k]) for k in keys)!r} {int(row['len'])} times"
        + (f" ({row['where']})" if "where" in first.columns else "")
        for _, row in first.iterrows()
    )
    raise ValueError(
        f"{name} has {n:,} duplicate ({', '.join(keys)}) key(s), e.g. {listed}; "
        f"each {'validator labels each item' if 'validator' in keys else 'item is labelled'} once."
    )


def _collect(lazy: nw.LazyFrame) -> pd.DataFrame:
    return lazy.collect(backend="pandas").to_native()


def tally(
    lazy: nw.LazyFrame, label: str, name: str, collect: Callable[[nw.LazyFrame], pd.DataFrame]
) -> pd.DataFrame:
    """Per (generator, validator): rows, labels, valid labels; raises on bad labels or keys.

    Parameters
    ----------
    lazy : narwhals.LazyFrame
        Judgments with the label decoded into :data:`~jurycal.counting.labels.CODE`.
    label : str
        The label column, named in the error for labels that are not binary.
    name : str
        What the data is called in error messages.
    collect : callable
        Runs the group-by and returns it as pandas (the file route adds a
        progress bar and DuckDB's errors).

    Returns
    -------
    DataFrame
        ``generator, validator, _labeled, _valid, _bad, len``, one row per cell.

    Raises
    ------
    ValueError
        Labels that are not binary (each named with its number of rows); rows
        with a missing generator or validator.
    """
    code = nw.col(CODE)
    table = collect(
        lazy.with_columns(
            _labeled=code.is_in([0, 1]).cast(nw.Int64),
            _valid=(code == 1).cast(nw.Int64),
            _bad=(code == BAD).cast(nw.Int64),
        )
        .group_by("generator", "validator")
        .agg(nw.col("_labeled", "_valid", "_bad").sum(), nw.len())
    )
    _check_labels(lazy, label, name, int(table["_bad"].sum()))
    _check_keys(lazy, ("generator", "validator"), name, table)
    return table


def _sorted_labels(values: pd.Series) -> list[Any]:
    """Distinct values sorted; in order of appearance where they do not compare (mixed types)."""
    unique = list(pd.unique(values))
    try:
        return sorted(unique)
    except TypeError:
        return unique


def counts_from_tally(table: pd.DataFrame, name: str) -> Counts:
    """The :class:`regression.Counts` of a :func:`tally`, generators and validators sorted.

    Raises
    ------
    ValueError
        A tally of no rows.
    """
    if table.empty or int(table["len"].sum()) == 0:
        raise ValueError(f"{name} holds no judgment rows.")
    generators = pd.Index(_sorted_labels(table["generator"]), name="generator")
    validators = pd.Index(_sorted_labels(table["validator"]), name="validator")

    def grid(column: str) -> pd.DataFrame:
        wide = table.pivot(index="generator", columns="validator", values=column)
        wide = wide.reindex(index=generators, columns=validators).fillna(0)
        return wide.astype(np.int64)

    return Counts(grid("_valid"), grid("_labeled"))


def count_lazy(lazy: nw.LazyFrame, name: str, check_duplicates: bool) -> Counts:
    """:func:`tally` and :func:`counts_from_tally` with the duplicate check run in the engine.

    Raises
    ------
    ValueError
        As :func:`tally`; a repeated ``(generator, item, validator)`` when
        ``check_duplicates``; no rows.
    """
    table = tally(lazy, "label", name, _collect)
    if check_duplicates:
        n, first = _frame_duplicates(lazy, ("generator", "item", "validator"))
        if n:
            raise_duplicates(n, first, ("generator", "item", "validator"), name)
    return counts_from_tally(table, name)


def confusion_lazy(votes: nw.LazyFrame, human: nw.LazyFrame, name: str) -> pd.DataFrame:
    """tp, fn, fp, tn per (generator, validator), joined inside the engine.

    Parameters
    ----------
    votes, human : narwhals.LazyFrame
        Judgments and human labels of one engine, each with its label decoded
        into :data:`~jurycal.counting.labels.CODE`.
    name : str
        What the judgments are called in error messages.

    Returns
    -------
    DataFrame
        ``generator, validator, tp, fn, fp, tn`` sorted by generator and validator.

    Raises
    ------
    ValueError
        As :func:`tally` for the judgments; a human label that is not binary
        or missing; a repeated human ``(generator, item)``.
    """
    tally(votes, "label", name, _collect)
    hcode = nw.col(CODE)
    checks = (
        human.with_columns(_bad=(hcode == BAD).cast(nw.Int64), _miss=(hcode == MISSING).cast(nw.Int64))
        .select(nw.col("_bad", "_miss").sum(), nw.len())
        .collect(backend="pandas").to_native()
    )  # fmt: skip
    _check_labels(human, "human", "human labels", int(checks["_bad"].fillna(0).iloc[0]))
    n_missing = int(checks["_miss"].fillna(0).iloc[0])
    if n_missing:
        raise ValueError(
            f"human labels have {n_missing:,} row(s) with a missing label"
            f"{_where(human, hcode == MISSING)}; drop or fill them first."
        )
    n, first = _frame_duplicates(human, ("generator", "item"))
    if n:
        raise_duplicates(n, first, ("generator", "item"), "human labels")
    code = nw.col(CODE)
    labelled = votes.filter(code.is_in([0, 1])).select(
        "generator", "item", "validator", code.alias("_label")
    )
    truth = human.select("generator", "item", code.alias("_human"))
    label, truth_col = nw.col("_label"), nw.col("_human")
    cells = {
        "tp": (label == 1) & (truth_col == 1),
        "fn": (label == 0) & (truth_col == 1),
        "fp": (label == 1) & (truth_col == 0),
        "tn": (label == 0) & (truth_col == 0),
    }
    table = (
        labelled.join(truth, on=["generator", "item"], how="inner")
        .with_columns(**{k: v.cast(nw.Int64) for k, v in cells.items()})
        .group_by("generator", "validator")
        .agg(nw.col(*cells).sum())
        .collect(backend="pandas")
        .to_native()
    )
    table = table.sort_values(["generator", "validator"], kind="stable", ignore_index=True)
    out = table[list(CONFUSION_COLUMNS)].copy()
    for column in cells:
        out[column] = out[column].astype(np.int64)
    return out
