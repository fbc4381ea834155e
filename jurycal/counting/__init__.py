"""Counting judgments at any scale: DuckDB over files, or the user's own engine through narwhals.

The estimators need only two small summaries of the judgments table: the
generator x validator counts (:class:`regression.Counts`, the sufficient
statistic of the agreeableness paper's matrix model, section 5.1, eq. (9)) and,
for the calibration generators, each validator's confusion counts against the
human labels (:func:`regression.data.confusion_from_judgments`). Counting is
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

Modules: :mod:`~jurycal.counting.labels` (what counts as a label and as
missing), :mod:`~jurycal.counting.tally` (the counts and checks both routes
share), :mod:`~jurycal.counting.frames` (the user's engine, through narwhals),
:mod:`~jurycal.counting.files` (files, through DuckDB).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
