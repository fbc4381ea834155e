"""The public names of jurycal, listed once: jurycal/__init__.py reads this stub
(lazy_loader.attach_stub) and loads each name on first use."""

from .counting import confusion_files as confusion_files
from .counting import confusion_frame as confusion_frame
from .counting import count_files as count_files
from .counting import count_frame as count_frame
from .importers import IMPORTERS as IMPORTERS
from .importers import ImportFormatError as ImportFormatError
from .importers import ImportResult as ImportResult
from .importers import import_judgments as import_judgments
from .importers import read_alpaca_eval_annotations as read_alpaca_eval_annotations
from .importers import read_deepeval_run as read_deepeval_run
from .importers import read_inspect_log as read_inspect_log
from .importers import read_mt_bench_judgments as read_mt_bench_judgments
from .importers import read_promptfoo_results as read_promptfoo_results
from .io import count_judgments as count_judgments
from .io import read_table as read_table
from .io import write_table as write_table

__version__: str
