"""jurycal: trustworthy numbers from noisy LLM judges.

The application layer: the ``jurycal`` command line, file I/O, the bundled
example data (:mod:`jurycal.datasets`), the importers for eval tools' result
files (:mod:`jurycal.importers`), counting at any scale (:mod:`jurycal.counting`)
and the report. The three stages live in the import packages ``repair``,
``ensemble`` and ``regression``.

The names below are imported on first use, so ``import jurycal`` stays cheap
(the counting engine and the stages load only when asked for).
"""

from __future__ import annotations

from regression.lazy import attach

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_EXPORTS = {
    "IMPORTERS": "jurycal.importers",
    "ImportFormatError": "jurycal.importers",
    "ImportResult": "jurycal.importers",
    "import_judgments": "jurycal.importers",
    "read_alpaca_eval_annotations": "jurycal.importers",
    "read_deepeval_run": "jurycal.importers",
    "read_inspect_log": "jurycal.importers",
    "read_mt_bench_judgments": "jurycal.importers",
    "read_promptfoo_results": "jurycal.importers",
    "confusion_files": "jurycal.counting",
    "confusion_frame": "jurycal.counting",
    "count_files": "jurycal.counting",
    "count_frame": "jurycal.counting",
    "count_judgments": "jurycal.io",
    "read_table": "jurycal.io",
    "write_table": "jurycal.io",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


__getattr__, __dir__ = attach("jurycal", _EXPORTS)
