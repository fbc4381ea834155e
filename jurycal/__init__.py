"""jurycal: trustworthy numbers from noisy LLM judges.

The application layer: the ``jurycal`` command line, file I/O, the bundled
example data (:mod:`jurycal.datasets`), the importers for eval tools' result
files (:mod:`jurycal.importers`), counting at any scale (:mod:`jurycal.counting`)
and the report. The three stages live in the import packages ``repair``,
``ensemble`` and ``regression``.

The names below are imported on first use, so ``import jurycal`` stays cheap
(the counting engine and the stages load only when asked for).
"""

import lazy_loader

__version__ = "0.1.0"

__getattr__, __dir__, _names = lazy_loader.attach_stub(__name__, __file__)
__all__ = ["__version__", *_names]
