"""The public names of jurycal.importers, listed once: __init__.py reads this stub
(lazy_loader.attach_stub) and loads each name on first use."""

from .alpaca_eval import ALPACA_EVAL_DEFAULT_THRESHOLD as ALPACA_EVAL_DEFAULT_THRESHOLD
from .alpaca_eval import read_alpaca_eval_annotations as read_alpaca_eval_annotations
from .deepeval import read_deepeval_run as read_deepeval_run
from .inspect_log import INSPECT_DEFAULT_THRESHOLD as INSPECT_DEFAULT_THRESHOLD
from .inspect_log import read_inspect_log as read_inspect_log
from .mt_bench import MT_BENCH_DEFAULT_THRESHOLD as MT_BENCH_DEFAULT_THRESHOLD
from .mt_bench import read_mt_bench_judgments as read_mt_bench_judgments
from .names import ITEM_KEYS as ITEM_KEYS
from .names import PARTIAL_POLICIES as PARTIAL_POLICIES
from .promptfoo import MODEL_GRADED_ASSERTIONS as MODEL_GRADED_ASSERTIONS
from .promptfoo import read_promptfoo_results as read_promptfoo_results
from .registry import IMPORTERS as IMPORTERS
from .registry import SCORE_IMPORTERS as SCORE_IMPORTERS
from .registry import Importer as Importer
from .registry import ScoreImporter as ScoreImporter
from .registry import import_judgments as import_judgments
from .registry import import_scores as import_scores
from .result import ImportFormatError as ImportFormatError
from .result import ImportResult as ImportResult
