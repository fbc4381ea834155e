"""jurycal: trustworthy numbers from noisy LLM judges.

The application layer: the ``jurycal`` command line, file I/O, the bundled
example data (:mod:`jurycal.datasets`) and the report. The three stages live in
the import packages ``repair``, ``ensemble`` and ``regression``.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
