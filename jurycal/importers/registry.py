"""The importers by format name, with the options each accepts, for the library and the CLI."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

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

__all__ = ["IMPORTERS", "Importer", "given_options", "import_judgments"]


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
