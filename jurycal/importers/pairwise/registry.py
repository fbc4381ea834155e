"""The pairwise importers by format name, with the options each accepts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from jurycal.importers.pairwise.alpaca_eval import read_alpaca_eval_pairs
from jurycal.importers.pairwise.arena import read_arena_battles
from jurycal.importers.pairwise.arena_hard import read_arena_hard_judgments
from jurycal.importers.pairwise.book import PairwiseImportResult
from jurycal.importers.pairwise.mt_bench import read_mt_bench_pairs
from jurycal.importers.records import PathsLike
from jurycal.importers.registry import given_options

__all__ = ["PAIRWISE_IMPORTERS", "PairwiseImporter", "import_pairwise"]


@dataclass(frozen=True)
class PairwiseImporter:
    """One format: its reader, the keyword options it takes, and what it reads."""

    name: str
    read: Callable[..., PairwiseImportResult]
    options: tuple[str, ...]
    description: str


#: The formats :func:`import_pairwise` knows.
PAIRWISE_IMPORTERS: Mapping[str, PairwiseImporter] = MappingProxyType({
    "alpaca_eval_pairs": PairwiseImporter(
        "alpaca_eval_pairs", read_alpaca_eval_pairs, ("seed",),
        "AlpacaEval results/<model>/<annotator>/annotations.json",
    ),
    "mt_bench_pairs": PairwiseImporter(
        "mt_bench_pairs", read_mt_bench_pairs, (), "MT-Bench model_judgment/*_pair.jsonl",
    ),
    "arena_hard": PairwiseImporter(
        "arena_hard", read_arena_hard_judgments, ("baseline",),
        "Arena-Hard-Auto data/<bench>/model_judgment/<judge>/<model>.jsonl",
    ),
    "arena": PairwiseImporter(
        "arena", read_arena_battles, ("validator", "item_column"),
        "an arena table (model_a, model_b, winner), e.g. Chatbot Arena's released battles",
    ),
})  # fmt: skip


def import_pairwise(
    source_format: str, paths: PathsLike, *, duplicates: str = "error", **options: Any
) -> PairwiseImportResult:
    """Read an eval tool's pairwise files into the verdicts and human tables, by format name.

    Parameters
    ----------
    source_format : str
        A key of :data:`PAIRWISE_IMPORTERS`: ``"alpaca_eval_pairs"``,
        ``"mt_bench_pairs"``, ``"arena_hard"`` or ``"arena"``
        (:data:`jurycal.importers.names.PAIRWISE_IMPORTER_NAMES`).
    paths : path or sequence of paths
        The files (or directories) to read.
    duplicates : {"error", "last"}
        A verdict read twice: an error (default), or ``"last"`` keeps the last record read.
    **options
        The format's own options (``PairwiseImporter.options``); None values are dropped.

    Returns
    -------
    PairwiseImportResult

    Raises
    ------
    ValueError
        For an unknown format, an option the format does not take, or
        whatever the reader raises.

    Examples
    --------
    >>> sorted(PAIRWISE_IMPORTERS)
    ['alpaca_eval_pairs', 'arena', 'arena_hard', 'mt_bench_pairs']
    """
    importer = PAIRWISE_IMPORTERS.get(source_format)
    if importer is None:
        raise ValueError(
            f"format ({source_format!r}) not recognized; must be one of "
            f"{', '.join(PAIRWISE_IMPORTERS)}."
        )
    given = given_options(source_format, importer.options, options)
    return importer.read(paths, duplicates=duplicates, **given)
