"""The counting's limits, declared once, in a module that imports nothing heavy.

:mod:`jurycal.counting.files` uses them, and ``jurycal count`` offers them
without importing pandas or DuckDB (``--help`` stays fast).
"""

from __future__ import annotations

__all__ = ["DEFAULT_MEMORY_LIMIT", "MAX_THREADS"]

#: DuckDB's memory limit unless told otherwise: bounded, and faster than DuckDB's own
#: default (80 % of memory) on the duplicate check, which then spills partitions to disk.
DEFAULT_MEMORY_LIMIT = "1GB"

#: The most threads DuckDB is given: it starts them all at once, and past tens of thousands the
#: process dies in the C library (exit 127, "cannot allocate memory for thread-local data").
MAX_THREADS = 1024
