"""Importers writing the pairwise tables: an eval tool's files in, verdicts and human votes out.

One module per format (``alpaca_eval``, ``mt_bench``, ``arena_hard``,
``arena``); each reader returns a :class:`PairwiseImportResult` with the
verdicts table (``item, generator_a, generator_b, validator, verdict,
position``), the human votes the files record (``item, generator_a,
generator_b, human``), the fields it did not know and notes on what it set
aside. :func:`import_pairwise` and :data:`PAIRWISE_IMPORTERS` pick a reader by
name. The tables are checked by :func:`regression.pairwise.check_pairwise`.
"""

from jurycal.importers.pairwise.alpaca_eval import (
    ALPACA_EVAL_UNSWITCHED,
    alpaca_eval_switched,
    read_alpaca_eval_pairs,
)
from jurycal.importers.pairwise.arena import ARENA_ITEM_KEYS, read_arena_battles
from jurycal.importers.pairwise.arena_hard import ARENA_HARD_LABELS, read_arena_hard_judgments
from jurycal.importers.pairwise.book import BattleBook, PairwiseImportResult
from jurycal.importers.pairwise.mt_bench import read_mt_bench_pairs
from jurycal.importers.pairwise.registry import (
    PAIRWISE_IMPORTERS,
    PairwiseImporter,
    import_pairwise,
)

__all__ = [
    "ALPACA_EVAL_UNSWITCHED",
    "ARENA_HARD_LABELS",
    "ARENA_ITEM_KEYS",
    "PAIRWISE_IMPORTERS",
    "BattleBook",
    "PairwiseImportResult",
    "PairwiseImporter",
    "alpaca_eval_switched",
    "import_pairwise",
    "read_alpaca_eval_pairs",
    "read_arena_battles",
    "read_arena_hard_judgments",
    "read_mt_bench_pairs",
]
