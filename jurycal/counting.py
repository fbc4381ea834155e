"""Counting judgments at any scale: DuckDB over files, or the user's own engine through narwhals.

The estimators need only two small summaries of the judgments table: the
generator x validator counts (:class:`regression.Counts`, the sufficient
statistic of the agreeableness paper's matrix model, section 5.1, eq. (9)) and,
for the calibration generators, each validator's confusion counts against the
human labels (:func:`regression.confusion_from_judgments`). Counting is
the one step whose work grows with the number of rows, so it runs where the rows
are and only the summaries travel:

* files (CSV, TSV, Parquet, JSON Lines; ``.gz`` too; globs and lists of paths):
  :func:`count_files` and :func:`confusion_files` run DuckDB SQL over them, out
  of core (DuckDB spills its hash tables to a temporary directory when they
  outgrow ``memory_limit``, 1 GB unless told otherwise);
* a frame of the user's own engine (a Dask or PySpark DataFrame, a DuckDB
  relation, a Polars LazyFrame or DataFrame, pandas, pyarrow, Ibis, ...):
  :func:`count_frame` and :func:`confusion_frame` express the count as narwhals
  expressions, so the engine runs it on its own workers and only the per-cell
  totals are collected. jurycal never imports Spark or Dask.

Both routes apply the same rules as the in-memory functions
(:func:`regression.counts_from_judgments`,
:func:`regression.checks.coerce_binary`): a label is 1 / 0, true / false or
valid / invalid (any case, surrounding spaces ignored) or missing; any other
label is an error naming it and how many rows carry it; a missing generator or
validator is an error; and a ``(generator, item, validator)`` triple that
appears twice anywhere in the data (across files and partitions, not only
within a chunk) is an error naming it and, for files, the file and line.
"""

from __future__ import annotations

import glob
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import narwhals.stable.v2 as nw
import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from regression.checks import HUMAN_COLUMNS, JUDGMENT_COLUMNS, coerce_binary, plain
from regression.latent import CONFUSION_COLUMNS, Counts

__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "MAX_REPORTED",
    "NULL_STRINGS",
    "confusion_files",
    "confusion_frame",
    "count_files",
    "duckdb_message",
    "count_frame",
    "judgment_files",
]

#: Text read as a missing value in CSV / TSV files: pandas' ``read_csv`` defaults,
#: so that a file counts the same through DuckDB as through ``pandas.read_csv``.
NULL_STRINGS = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
    "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)  # fmt: skip

#: DuckDB's memory limit unless told otherwise: bounded, and faster than DuckDB's own
#: default (80 % of memory) on the duplicate check, which then spills partitions to disk.
DEFAULT_MEMORY_LIMIT = "1GB"

#: How many offending values (duplicates, bad labels) an error message lists.
MAX_REPORTED = 5

# Strings accepted as labels, as regression.checks.coerce_binary reads them.
_TRUE_STRINGS = ("1", "true", "valid")
_FALSE_STRINGS = ("0", "false", "invalid")

# The decoded label: 1 valid, 0 invalid, _MISSING missing, _BAD not a binary label.
_CODE = "_jurycal_code"
_MISSING, _BAD = 2, -1

_ENDINGS = {
    ".csv": "csv", ".csv.gz": "csv", ".tsv": "tsv", ".tsv.gz": "tsv",
    ".parquet": "parquet", ".pq": "parquet",
    ".jsonl": "jsonl", ".jsonl.gz": "jsonl", ".ndjson": "jsonl", ".ndjson.gz": "jsonl",
}  # fmt: skip


# --------------------------------------------------------------------------- the engine-neutral core


def _label_code(column: str, dtype: Any) -> nw.Expr:
    """The narwhals expression decoding ``column`` into 1 / 0 / _MISSING / _BAD, by its type."""
    col = nw.col(column)
    code = nw.when(col.is_null()).then(nw.lit(_MISSING, nw.Int8))
    if dtype == nw.Boolean:
        return code.otherwise(col.fill_null(False).cast(nw.Int8))
    if dtype.is_numeric():
        if dtype.is_float():
            code = code.when(col.is_nan()).then(nw.lit(_MISSING, nw.Int8))
        return (
            code.when(col == 1).then(nw.lit(1, nw.Int8))
            .when(col == 0).then(nw.lit(0, nw.Int8))
            .otherwise(nw.lit(_BAD, nw.Int8))
        )  # fmt: skip
    if dtype in (nw.String, nw.Categorical, nw.Enum):
        text = col.cast(nw.String).str.strip_chars().str.to_lowercase()
        return (
            code.when(text.is_in(_TRUE_STRINGS)).then(nw.lit(1, nw.Int8))
            .when(text.is_in(_FALSE_STRINGS)).then(nw.lit(0, nw.Int8))
            .otherwise(nw.lit(_BAD, nw.Int8))
        )  # fmt: skip
    # Any other type (an all-null column has none): missing where null, else not a label.
    return code.otherwise(nw.lit(_BAD, nw.Int8))


def _as_lazy(frame: Any, columns: Sequence[str], label: str, name: str) -> nw.LazyFrame:
    """``frame`` as a narwhals LazyFrame with ``columns`` checked and ``label`` decoded into _CODE."""
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
        raise ValueError(
            f"{name} is missing column(s) {absent}; expected columns {list(columns)}, "
            f"got {present}."
        )
    if _CODE in present:  # the file route decodes labels in SQL already
        return lazy
    return lazy.with_columns(_label_code(label, schema[label]).alias(_CODE))


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
    bad = nw.col(_CODE) == _BAD
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


def _raise_duplicates(n: int, first: pd.DataFrame, keys: Sequence[str], name: str) -> None:
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


def _tally(
    lazy: nw.LazyFrame, label: str, name: str, collect: Callable[[nw.LazyFrame], pd.DataFrame]
) -> pd.DataFrame:
    """Per (generator, validator): rows, labels, valid labels; raises on bad labels or keys."""
    code = nw.col(_CODE)
    table = collect(
        lazy.with_columns(
            _labeled=code.is_in([0, 1]).cast(nw.Int64),
            _valid=(code == 1).cast(nw.Int64),
            _bad=(code == _BAD).cast(nw.Int64),
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


def _counts(table: pd.DataFrame, name: str) -> Counts:
    if table.empty or int(table["len"].sum()) == 0:
        raise ValueError(f"{name} holds no judgment rows.")
    generators = pd.Index(_sorted_labels(table["generator"]), name="generator")
    validators = pd.Index(_sorted_labels(table["validator"]), name="validator")

    def grid(column: str) -> pd.DataFrame:
        wide = table.pivot(index="generator", columns="validator", values=column)
        wide = wide.reindex(index=generators, columns=validators).fillna(0)
        return wide.astype(np.int64)

    return Counts(grid("_valid"), grid("_labeled"))


def _count_lazy(lazy: nw.LazyFrame, name: str, check_duplicates: bool) -> Counts:
    table = _tally(lazy, "label", name, _collect)
    if check_duplicates:
        n, first = _frame_duplicates(lazy, ("generator", "item", "validator"))
        if n:
            _raise_duplicates(n, first, ("generator", "item", "validator"), name)
    return _counts(table, name)


def _confusion_lazy(votes: nw.LazyFrame, human: nw.LazyFrame, name: str) -> pd.DataFrame:
    """tp, fn, fp, tn per (generator, validator), joined inside the engine."""
    _tally(votes, "label", name, _collect)
    hcode = nw.col(_CODE)
    checks = (
        human.with_columns(_bad=(hcode == _BAD).cast(nw.Int64), _miss=(hcode == _MISSING).cast(nw.Int64))
        .select(nw.col("_bad", "_miss").sum(), nw.len())
        .collect(backend="pandas").to_native()
    )  # fmt: skip
    _check_labels(human, "human", "human labels", int(checks["_bad"].fillna(0).iloc[0]))
    n_missing = int(checks["_miss"].fillna(0).iloc[0])
    if n_missing:
        raise ValueError(
            f"human labels have {n_missing:,} row(s) with a missing label"
            f"{_where(human, hcode == _MISSING)}; drop or fill them first."
        )
    n, first = _frame_duplicates(human, ("generator", "item"))
    if n:
        _raise_duplicates(n, first, ("generator", "item"), "human labels")
    code = nw.col(_CODE)
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
        ``n_valid`` and ``n_labeled`` per generator (rows) and validator
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
    paper, section 5.1, eq. (9): ``P = n_valid / n_labeled``). The engine runs
    one group-by on (generator, validator) and, with ``check_duplicates``, one
    on the full key; what travels back is one row per cell.

    Examples
    --------
    >>> import polars as pl
    >>> votes = pl.LazyFrame({"generator": ["g1", "g1", "g2"], "item": [1, 2, 1],
    ...                       "validator": ["v", "v", "v"], "label": ["valid", "0", None]})
    >>> count_frame(votes).n_labeled
    validator  v
    generator
    g1         2
    g2         0
    """
    lazy = _as_lazy(frame, JUDGMENT_COLUMNS, "label", "judgments")
    return _count_lazy(lazy, "judgments", check_duplicates)


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
        :func:`regression.confusion_from_judgments`, whose numbers it
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
    return _confusion_lazy(votes, truth, "judgments")


# --------------------------------------------------------------------------- files, with DuckDB


def _file_format(path: str) -> str:
    name = path.lower()
    for ending in sorted(_ENDINGS, key=len, reverse=True):
        if name.endswith(ending):
            return _ENDINGS[ending]
    raise ValueError(f"cannot tell the format of {path!r}; name it with one of {sorted(_ENDINGS)}.")


def judgment_files(paths: str | Path | Sequence[str | Path]) -> list[str]:
    """The files ``paths`` names: each a file or a glob (``*``, ``?``, ``[...]``, ``**``).

    Raises
    ------
    ValueError
        A path that is neither a file nor a glob matching one; a file whose
        ending names no supported format.

    Examples
    --------
    >>> judgment_files([])
    Traceback (most recent call last):
    ...
    ValueError: no judgment files given.
    """
    given = [paths] if isinstance(paths, (str, Path)) else list(paths)
    files: list[str] = []
    for path in given:
        text = str(path)
        if glob.has_magic(text):
            matched = sorted(p for p in glob.glob(text, recursive=True) if Path(p).is_file())
            if not matched:
                raise ValueError(f"no file matches {text!r}.")
            files.extend(matched)
        elif Path(text).is_file():
            files.append(text)
        else:
            raise ValueError(f"no such file: {text!r}.")
    if not files:
        raise ValueError("no judgment files given.")
    for file in files:
        _file_format(file)
    return list(dict.fromkeys(files))


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _file_list(files: Sequence[str]) -> str:
    return "[" + ", ".join(_quote(f) for f in files) + "]"


def _reader(con: Any, fmt: str, files: Sequence[str], label: str, typed: bool = True) -> str:
    """A DuckDB table function reading ``files``, with a ``filename`` column.

    With ``typed``, the label column of a text file is read as text, whatever it holds.
    """
    listed = _file_list(files)
    if fmt == "parquet":
        return f"read_parquet({listed}, union_by_name = true, filename = true)"
    if fmt in ("csv", "tsv"):
        nulls = "[" + ", ".join(_quote(s) for s in NULL_STRINGS) + "]"
        delim = "\\t" if fmt == "tsv" else ","
        types = f", types = {{{_quote(label)}: 'VARCHAR'}}" if typed else ""
        return (
            # Quote and escape as RFC 4180 (and pandas): left to sniffing, DuckDB reads
            # an unbalanced quote as text instead of refusing the file.
            f"read_csv({listed}, header = true, delim = E'{delim}', quote = '\"', "
            f"escape = '\"', union_by_name = true, filename = true, nullstr = {nulls}{types})"
        )
    sniffed = f"read_json({listed}, format = 'newline_delimited', union_by_name = true)"
    if not typed:
        return sniffed
    columns = con.sql(f"DESCRIBE SELECT * FROM {sniffed}").fetchall()
    typed_columns = ", ".join(
        f"{_quote(c)}: {_quote('VARCHAR' if c == label else t)}" for c, t, *_ in columns
    )
    return (
        f"read_json({listed}, format = 'newline_delimited', filename = true, "
        f"columns = {{{typed_columns}}})"
    )


def _code_sql(column: str, sql_type: str, text: bool) -> str:
    """SQL decoding ``column`` into 1 / 0 / _MISSING / _BAD, mirroring :func:`_label_code`."""
    col = f'"{column}"'
    head = f"CASE WHEN {col} IS NULL THEN {_MISSING} "
    if sql_type == "BOOLEAN":
        return head + f"WHEN {col} THEN 1 ELSE 0 END"
    if sql_type in ("FLOAT", "DOUBLE") or sql_type.startswith("DECIMAL"):
        return (
            head
            + f"WHEN isnan({col}::DOUBLE) THEN {_MISSING} "
            + (f"WHEN {col} = 1 THEN 1 WHEN {col} = 0 THEN 0 ELSE {_BAD} END")
        )
    if sql_type.split("(")[0] in (
        "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
        "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT",
    ):  # fmt: skip
        return head + f"WHEN {col} = 1 THEN 1 WHEN {col} = 0 THEN 0 ELSE {_BAD} END"
    if sql_type == "VARCHAR":
        word = f"lower(trim({col}))"
        true_set = ", ".join(map(_quote, _TRUE_STRINGS))
        false_set = ", ".join(map(_quote, _FALSE_STRINGS))
        # In a text file a number is text: '1.0' is what pandas writes for a float label.
        number = (
            f"WHEN TRY_CAST({col} AS DOUBLE) = 1 THEN 1 WHEN TRY_CAST({col} AS DOUBLE) = 0 THEN 0 "
            if text
            else ""
        )
        return (
            head + f"WHEN {word} IN ({true_set}) THEN 1 WHEN {word} IN ({false_set}) THEN 0 "
            f"{number}ELSE {_BAD} END"
        )
    raise ValueError(
        f"column {column!r} has type {sql_type}; labels must be 0/1 numbers, booleans or "
        "the strings 'valid'/'invalid'/'true'/'false'/'1'/'0'."
    )


def _require(columns: Sequence[str], found: list[str], name: str, where: Any) -> None:
    absent = [c for c in columns if c not in found]
    if absent:
        raise ValueError(
            f"{name} in {where} is missing column(s) {absent}; expected columns "
            f"{list(columns)}, got {found}."
        )


def _source(con: Any, files: Sequence[str], columns: Sequence[str], label: str, name: str) -> str:
    """SQL selecting ``columns``, the label's code and ``filename`` from every file, any format."""
    by_format: dict[str, list[str]] = {}
    for file in files:
        by_format.setdefault(_file_format(file), []).append(file)
    selects = []
    for fmt, group in by_format.items():
        try:
            reader = _reader(con, fmt, group, label)
            schema = {c: t for c, t, *_ in con.sql(f"DESCRIBE SELECT * FROM {reader}").fetchall()}
        except Exception as exc:  # duckdb.Error; the message names the file and line
            # A CSV without the label column fails on the label's type: name the column.
            untyped = _reader(con, fmt, group, label, typed=False)
            try:
                found = [c for c, *_ in con.sql(f"DESCRIBE SELECT * FROM {untyped}").fetchall()]
            except Exception:
                found = list(columns)
            _require(columns, found, name, group)
            raise ValueError(f"cannot read {name} from {group}: {duckdb_message(exc)}") from exc
        _require(columns, list(schema), name, group)
        keys = ", ".join(f'"{c}"' for c in columns if c != label)
        code = _code_sql(label, schema[label], text=fmt != "parquet")
        selects.append(
            f"SELECT {keys}, {code}::TINYINT AS {_CODE}, "
            f'CAST("{label}" AS VARCHAR) AS "{label}", filename FROM {reader}'
        )
    return "\nUNION ALL BY NAME\n".join(f"({s})" for s in selects)


def duckdb_message(exc: BaseException) -> str:
    """DuckDB's error in one line: what went wrong, and where.

    DuckDB explains a CSV error over a dozen lines (the offending line, the
    dialect it tried, options that might help). Kept: the first line (``CSV
    Error on Line: N``) and the sentence saying what is wrong, before the
    suggestions.
    """
    lines = [" ".join(line.split()) for line in str(exc).strip().splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return type(exc).__name__
    kept = [lines[0]]
    if re.search(r"CSV Error on Line: \d+$", lines[0]):
        reason = next(
            (line for line in lines[1:] if not line.startswith(("Original Line", "Possible"))), ""
        )
        kept.append(reason)
    return ": ".join(part.rstrip(".") for part in kept if part)[:300] + "."


_BAR = "{desc}: {percentage:3.0f}%|{bar}| {elapsed}"


class _DuckDB:
    """An in-memory DuckDB connection that spills to a private temporary directory."""

    def __init__(self, memory_limit: str | None, threads: int | None, progress: bool) -> None:
        import duckdb

        if threads is not None and (isinstance(threads, bool) or int(threads) < 1):
            raise ValueError(f"threads ({threads!r}) must be a whole number >= 1.")
        self._spill = tempfile.TemporaryDirectory(prefix="jurycal-duckdb-")
        self.con = duckdb.connect()
        self.progress = progress
        try:
            self.con.execute(f"SET temp_directory = {_quote(self._spill.name)}")
            self.con.execute("SET enable_progress_bar = false")
            if memory_limit is not None:
                self.con.execute(f"SET memory_limit = {_quote(str(memory_limit))}")
            if threads is not None:
                self.con.execute(f"SET threads = {int(threads)}")
        except Exception as exc:
            self.close()
            raise ValueError(f"DuckDB refused a setting: {exc}") from exc

    def close(self) -> None:
        self.con.close()
        self._spill.cleanup()

    def __enter__(self) -> _DuckDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def fetch(self, query: Any, what: str) -> pd.DataFrame:
        """Run ``query`` (SQL or a relation); with ``progress`` a bar on stderr follows DuckDB."""
        relation = self.con.sql(query) if isinstance(query, str) else query
        try:
            if not self.progress:
                return relation.df()
            with ThreadPoolExecutor(1) as pool, tqdm(total=100, desc=what, bar_format=_BAR) as bar:
                job = pool.submit(relation.df)
                while not job.done():
                    time.sleep(0.2)
                    done = self.con.query_progress()
                    if done > bar.n:
                        bar.update(done - bar.n)
                result = job.result()
                bar.update(100 - bar.n)
                return result
        except Exception as exc:
            if isinstance(exc, ValueError):
                raise
            raise ValueError(f"DuckDB could not {what}: {duckdb_message(exc)}") from exc


def _row_of(db: _DuckDB, file: str, key: dict[str, Any], label: str) -> str:
    """Where ``key`` first sits in ``file``: 'line N' for text files, 'row N' for Parquet."""
    fmt = _file_format(file)
    reader = _reader(db.con, fmt, [file], label)
    condition = " AND ".join(
        f'"{c}" IS NULL' if pd.isna(v) else f'"{c}"::VARCHAR = {_quote(str(v))}'
        for c, v in key.items()
    )
    # A streaming row_number() OVER () numbers the rows in file order.
    rows = db.fetch(
        f"SELECT min(r) AS r FROM (SELECT row_number() OVER () AS r, * FROM {reader}) "
        f"WHERE {condition}",
        "locate a duplicate",
    )["r"]
    row = int(rows.iloc[0]) if len(rows) and pd.notna(rows.iloc[0]) else None
    if row is None:
        return file
    if fmt == "parquet":
        return f"{file} row {row}"
    # CSV / TSV: the header is line 1. JSON Lines: one record per line.
    return f"{file} line {row + 1 if fmt in ('csv', 'tsv') else row}"


def _file_duplicates(db: _DuckDB, source: str, keys: Sequence[str], label: str, name: str) -> None:
    """Raise naming the first repeated keys, with the file and line of each copy."""
    key_list = ", ".join(f'"{k}"' for k in keys)
    # Group on a 64-bit hash first: a small hash table, exact because every hash shared
    # by two rows is then checked on the keys themselves.
    shared = db.fetch(
        f"SELECT h FROM (SELECT hash({key_list}) AS h FROM ({source})) "
        "GROUP BY h HAVING count(*) > 1",
        "check for duplicates",
    )
    if shared.empty:
        return
    db.con.register("_jurycal_shared", shared)
    repeated = db.fetch(
        f"SELECT {key_list}, count(*) AS len, list(DISTINCT filename ORDER BY filename) AS files "
        f"FROM ({source}) WHERE hash({key_list}) IN (SELECT h FROM _jurycal_shared) "
        f"GROUP BY ALL HAVING count(*) > 1 ORDER BY {key_list}",
        "check for duplicates",
    )
    if repeated.empty:
        return
    first = repeated.head(MAX_REPORTED).copy()
    first["where"] = [
        " and ".join(_row_of(db, f, {k: row[k] for k in keys}, label) for f in row["files"])
        for _, row in first.iterrows()
    ]
    _raise_duplicates(len(repeated), first, keys, name)


def count_files(
    paths: str | Path | Sequence[str | Path],
    *,
    check_duplicates: bool = True,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    threads: int | None = None,
    progress: bool = False,
) -> Counts:
    """Count judgments files of any size with DuckDB, out of core.

    Parameters
    ----------
    paths : path, glob, or a list of them
        CSV (``.csv``, ``.tsv``), Parquet (``.parquet``, ``.pq``) or JSON
        Lines (``.jsonl``, ``.ndjson``) files, text formats optionally
        ``.gz``; formats may be mixed. Columns ``generator, item, validator,
        label``; files may order them differently and carry others.
    check_duplicates : bool, default True
        Check that no ``(generator, item, validator)`` appears twice across
        all files; costs a hash table of one 64-bit hash per row (spilled to
        disk past ``memory_limit``), several times the count itself.
    memory_limit : str or None, default :data:`DEFAULT_MEMORY_LIMIT` (``"1GB"``)
        DuckDB's memory limit, e.g. ``"4GB"``; past it DuckDB spills to a
        temporary directory that is removed afterwards. None: DuckDB's own
        default, 80 % of the machine's memory (no faster: see Notes).
    threads : int, optional
        Threads DuckDB may use; default: all cores.
    progress : bool, default False
        Show a progress bar on stderr, driven by DuckDB's own estimate.

    Returns
    -------
    Counts
        Generators and validators sorted; the same numbers as
        :func:`regression.counts_from_judgments` on the concatenated
        tables.

    Raises
    ------
    ValueError
        A missing file or a glob that matches none; an unknown ending; a
        missing column; labels that are not binary (each named, with its
        number of rows and files); a missing generator or validator; a
        repeated ``(generator, item, validator)`` (with the file and line of
        each copy; for Parquet the row, from 1); no rows; a file DuckDB cannot
        parse (DuckDB's message, which names the line).

    Notes
    -----
    Text files are read with pandas' missing-value strings (:data:`NULL_STRINGS`)
    and the label column read as text, so a label column that mixes ``1`` and
    ``'valid'`` far down a file needs no type guess; numbers written as text
    (``'1.0'``) count as the numbers they are. The counts are the matrix
    model's sufficient statistic (agreeableness paper, section 5.1, eq. (9)).

    The count itself keeps one entry per cell; the duplicate check keeps one per
    distinct key, up to ``memory_limit``, then spills. On 3 x 10^7 and 10^8
    rows (``benchmarks/bench_counting.py``, 2 cores) the check ran nearly twice
    as fast under a 512 MB or 1 GB limit as with DuckDB's default, which held
    the whole hash table (6 GB at 10^8 rows) in memory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.csv").write_text("generator,item,validator,label\\ng1,1,v,valid\\ng1,2,v,0\\n")
    >>> _ = (folder / "b.csv").write_text("generator,item,validator,label\\ng2,1,v,1\\ng2,2,v,NA\\n")
    >>> count_files(folder / "*.csv").n_labeled
    validator  v
    generator
    g1         2
    g2         1
    """
    files = judgment_files(paths)
    with _DuckDB(memory_limit, threads, progress) as db:
        source = _source(db.con, files, JUDGMENT_COLUMNS, "label", "judgments")
        lazy = nw.from_native(db.con.sql(source))
        table = _tally(lazy, "label", "judgments", lambda q: db.fetch(q.to_native(), "count"))
        if check_duplicates:
            _file_duplicates(db, source, ("generator", "item", "validator"), "label", "judgments")
        return _counts(table, "judgments")


def confusion_files(
    judgments: str | Path | Sequence[str | Path],
    human: str | Path | Sequence[str | Path],
    *,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
    threads: int | None = None,
) -> pd.DataFrame:
    """Per generator and validator, ``tp, fn, fp, tn``: judgments files joined with human labels.

    Parameters
    ----------
    judgments : path, glob, or a list of them
        Judgments files, as for :func:`count_files`.
    human : path, glob, or a list of them
        Human-label files with columns ``generator, item, human``.
    memory_limit, threads
        As for :func:`count_files`.

    Returns
    -------
    DataFrame
        ``generator, validator, tp, fn, fp, tn`` sorted by generator and
        validator, equal to :func:`regression.confusion_from_judgments`
        on the same tables.

    Raises
    ------
    ValueError
        As :func:`count_files`, and for a missing or non-binary human label or
        a repeated human ``(generator, item)``.

    Notes
    -----
    Items are joined as text when the two sides type them differently (an
    integer column in Parquet, text in CSV).
    """
    votes_files, human_files = judgment_files(judgments), judgment_files(human)
    with _DuckDB(memory_limit, threads, progress=False) as db:
        votes_sql = _source(db.con, votes_files, JUDGMENT_COLUMNS, "label", "judgments")
        human_sql = _source(db.con, human_files, HUMAN_COLUMNS, "human", "human labels")
        votes, truth = db.con.sql(votes_sql), db.con.sql(human_sql)
        item_types = {
            dict(zip(rel.columns, map(str, rel.types), strict=True))["item"]
            for rel in (votes, truth)
        }
        if len(item_types) > 1:
            votes = db.con.sql(f"SELECT * REPLACE (item::VARCHAR AS item) FROM ({votes_sql})")
            truth = db.con.sql(f"SELECT * REPLACE (item::VARCHAR AS item) FROM ({human_sql})")
        try:
            return _confusion_lazy(nw.from_native(votes), nw.from_native(truth), "judgments")
        except ValueError:
            raise
        except Exception as exc:  # duckdb.Error from the engine
            raise ValueError(
                "DuckDB could not join the judgments with the human labels: "
                f"{duckdb_message(exc)}"
            ) from exc
