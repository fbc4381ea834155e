"""The importers by format name, with the options each accepts, for the library and the CLI."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from types import MappingProxyType
from typing import Any

import pandas as pd

from jurycal.importers.alpaca_eval import (
    ALPACA_EVAL_DEFAULT_THRESHOLD,
    read_alpaca_eval_annotations,
)
from jurycal.importers.deepeval import read_deepeval_run
from jurycal.importers.inspect_log import INSPECT_DEFAULT_THRESHOLD, read_inspect_log
from jurycal.importers.mt_bench import MT_BENCH_DEFAULT_THRESHOLD, read_mt_bench_judgments
from jurycal.importers.promptfoo import read_promptfoo_results
from jurycal.importers.records import PathsLike
from jurycal.importers.result import ImportResult

__all__ = [
    "IMPORTERS",
    "SCORE_IMPORTERS",
    "Importer",
    "ScoreImporter",
    "given_options",
    "import_judgments",
    "import_scores",
]


@dataclass(frozen=True)
class Importer:
    """One format: its reader, the keyword options it takes, and what it expects.

    ``default_threshold`` is the cut applied to numeric scores when none is
    given; None means the format's own pass/fail verdict is used.
    """

    name: str
    read: Callable[..., ImportResult]
    options: tuple[str, ...]
    default_threshold: float | None
    description: str


#: The formats ``jurycal import FORMAT`` and :func:`import_judgments` know.
IMPORTERS: Mapping[str, Importer] = MappingProxyType({
    "inspect": Importer(
        "inspect", read_inspect_log, ("partial",), INSPECT_DEFAULT_THRESHOLD,
        "Inspect AI eval logs (.eval zip or --log-format=json)",
    ),
    "promptfoo": Importer(
        "promptfoo", read_promptfoo_results, ("item_key",), None,
        "promptfoo results (promptfoo eval -o results.json)",
    ),
    "deepeval": Importer(
        "deepeval", read_deepeval_run, ("generator",), None,
        "DeepEval test runs (.deepeval/.latest_test_run.json)",
    ),
    "alpaca_eval": Importer(
        "alpaca_eval", read_alpaca_eval_annotations, ("baseline",),
        ALPACA_EVAL_DEFAULT_THRESHOLD, "AlpacaEval annotations.json (pairwise preferences)",
    ),
    "mt_bench": Importer(
        "mt_bench", read_mt_bench_judgments, ("baseline",), MT_BENCH_DEFAULT_THRESHOLD,
        "MT-Bench model_judgment/*_single.jsonl and *_pair.jsonl",
    ),
})  # fmt: skip


def import_judgments(
    source_format: str,
    paths: PathsLike,
    threshold: float | None = None,
    *,
    duplicates: str = "error",
    **options: Any,
) -> ImportResult:
    """Read an eval tool's files into the judgments table, by format name.

    Parameters
    ----------
    source_format : str
        A key of :data:`IMPORTERS`: ``"inspect"``, ``"promptfoo"``,
        ``"deepeval"``, ``"alpaca_eval"`` or ``"mt_bench"``.
    paths : path or sequence of paths
        The files (or directories) to read.
    threshold : float, optional
        The cut for numeric scores (see each reader).
    duplicates : {"error", "last"}
        A (generator, item, validator) read twice: an error (default), or
        ``"last"`` keeps the last record read, as FastChat does with the
        judgments a re-run appends, and the notes count the records dropped.
        Every format takes it.
    **options
        The format's own options (``Importer.options``); None values are
        dropped, so a caller can pass every option it has.

    Returns
    -------
    ImportResult

    Raises
    ------
    ValueError
        For an unknown format, an option the format does not take, or
        whatever the reader raises (an :class:`ImportFormatError` for a file
        that is not the format).

    Examples
    --------
    >>> sorted(IMPORTERS)
    ['alpaca_eval', 'deepeval', 'inspect', 'mt_bench', 'promptfoo']
    """
    importer = IMPORTERS.get(source_format)
    if importer is None:
        raise ValueError(
            f"format ({source_format!r}) not recognized; must be one of {', '.join(IMPORTERS)}."
        )
    given = given_options(source_format, importer.options, options)
    return importer.read(paths, threshold, duplicates=duplicates, **given)


def given_options(
    source_format: str, accepted: tuple[str, ...], options: Mapping[str, Any]
) -> dict[str, Any]:
    """The options given (not None), refusing one the format does not take, naming it."""
    given = {key: value for key, value in options.items() if value is not None}
    foreign = sorted(set(given) - set(accepted))
    if foreign:
        raise ValueError(
            f"format {source_format!r} takes no option {', '.join(foreign)} (its options: "
            f"{', '.join(accepted) or 'none'})."
        )
    return given


@dataclass(frozen=True)
class ScoreImporter:
    """One format read for its judges' numeric scores (the score table), not thresholded.

    ``scale`` is the score scale the tool's judges use by convention, for the
    account (None: any, as the scorer writes it); each judge keeps its own scale.
    """

    name: str
    read: Callable[..., ImportResult]
    options: tuple[str, ...]
    scale: tuple[float, float] | None
    description: str


#: The formats whose judges' scores ``jurycal import FORMAT`` writes as the score table
#: (``generator, item, validator, score``) that ``jurycal rank SCORES HUMAN`` reads.
SCORE_IMPORTERS: Mapping[str, ScoreImporter] = MappingProxyType({
    "inspect_scores": ScoreImporter(
        "inspect_scores", partial(read_inspect_log, keep_scores=True), (), None,
        "Inspect AI eval logs: each scorer's numeric Score.value",
    ),
    "mt_bench_scores": ScoreImporter(
        "mt_bench_scores", read_mt_bench_judgments, (), (1, 10),
        "MT-Bench model_judgment/*_single.jsonl: the judge's rating 1-10",
    ),
    "promptfoo_scores": ScoreImporter(
        "promptfoo_scores", read_promptfoo_results, ("item_key",), (0, 1),
        "promptfoo results: each model-graded assertion's gradingResult score 0-1",
    ),
    "deepeval_scores": ScoreImporter(
        "deepeval_scores", read_deepeval_run, ("generator",), (0, 1),
        "DeepEval test runs: each metric's score 0-1",
    ),
})  # fmt: skip

# The note a judgments import ends with about its labels; a score import has none
_LABELS_NOTE = "have no usable verdict (label missing)."


def import_scores(
    source_format: str, paths: PathsLike, *, duplicates: str = "error", **options: Any
) -> ImportResult:
    """Read an eval tool's files into the score table, by format name.

    Parameters
    ----------
    source_format : str
        A key of :data:`SCORE_IMPORTERS`: ``"inspect_scores"``,
        ``"mt_bench_scores"``, ``"promptfoo_scores"`` or ``"deepeval_scores"``.
    paths : path or sequence of paths
        The files (or directories) to read.
    duplicates : {"error", "last"}
        As for :func:`import_judgments`.
    **options
        The format's own options (``ScoreImporter.options``); None values are dropped.

    Returns
    -------
    ImportResult
        Its ``scores``: ``generator, item, validator, score``, each judge's
        grade on its own scale; a judge that gave no usable grade (an
        unparsed rating, a grader error) has no row, and the notes count them.

    Raises
    ------
    ValueError
        An unknown format, an option the format does not take, whatever the
        reader raises, or files that hold no numeric score (C / I grades, pass /
        fail only: import them as the judgments table).

    Examples
    --------
    >>> sorted(SCORE_IMPORTERS)
    ['deepeval_scores', 'inspect_scores', 'mt_bench_scores', 'promptfoo_scores']
    """
    importer = SCORE_IMPORTERS.get(source_format)
    if importer is None:
        raise ValueError(
            f"format ({source_format!r}) not recognized; must be one of "
            f"{', '.join(SCORE_IMPORTERS)}."
        )
    given = given_options(source_format, importer.options, options)
    result = importer.read(paths, None, duplicates=duplicates, **given)
    scores = result.scores if result.scores is not None else pd.DataFrame()
    if scores.empty:
        plain = source_format.removesuffix("_scores")
        raise ValueError(
            f"found no numeric score in {', '.join(result.sources)}: their judges give verdicts "
            f"(pass / fail, C / I), not scores; import them as the judgments table "
            f"(jurycal import {plain})."
        )
    notes = [note for note in result.notes if not note.endswith(_LABELS_NOTE)]
    missing = scores["score"].isna()
    if missing.any():
        notes.append(
            f"{int(missing.sum()):,} of {len(scores):,} judge-output pairs have no usable score "
            "and no row (a judge that gave no score is not a low score)."
        )
    return replace(
        result,
        scores=scores[~missing].reset_index(drop=True),
        notes=tuple(notes),
        source_format=source_format,
        threshold_used=None,
    )
