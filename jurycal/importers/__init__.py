"""Importers for the eval tools people already use: their result files in, the judgments table out.

One module per format (``inspect_log``, ``promptfoo``, ``deepeval``,
``alpaca_eval``, ``mt_bench``); each reader returns an :class:`ImportResult`
with the judgments table (``generator, item, validator, label``), any human
labels the file records, the threshold applied to numeric scores, the fields
it did not know and notes on what the file could not say.
:func:`import_judgments` and :data:`IMPORTERS` pick a reader by name.
"""

from jurycal.importers.alpaca_eval import (
    ALPACA_EVAL_DEFAULT_THRESHOLD,
    read_alpaca_eval_annotations,
)
from jurycal.importers.deepeval import read_deepeval_run
from jurycal.importers.inspect_log import (
    INSPECT_DEFAULT_THRESHOLD,
    PARTIAL_POLICIES,
    read_inspect_log,
)
from jurycal.importers.mt_bench import MT_BENCH_DEFAULT_THRESHOLD, read_mt_bench_judgments
from jurycal.importers.promptfoo import ITEM_KEYS, MODEL_GRADED_ASSERTIONS, read_promptfoo_results
from jurycal.importers.registry import IMPORTERS, Importer, import_judgments
from jurycal.importers.result import ImportFormatError, ImportResult

__all__ = [
    "ALPACA_EVAL_DEFAULT_THRESHOLD",
    "IMPORTERS",
    "INSPECT_DEFAULT_THRESHOLD",
    "ITEM_KEYS",
    "MODEL_GRADED_ASSERTIONS",
    "MT_BENCH_DEFAULT_THRESHOLD",
    "PARTIAL_POLICIES",
    "ImportFormatError",
    "ImportResult",
    "Importer",
    "import_judgments",
    "read_alpaca_eval_annotations",
    "read_deepeval_run",
    "read_inspect_log",
    "read_mt_bench_judgments",
    "read_promptfoo_results",
]
