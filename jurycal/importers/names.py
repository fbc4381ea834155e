"""The importers' names and options, declared once, in a module that imports nothing heavy.

The importers use them, and ``jurycal import`` offers them without importing
pandas (``--help`` stays fast).
"""

from __future__ import annotations

__all__ = ["IMPORTER_NAMES", "ITEM_KEYS", "PARTIAL_POLICIES"]

#: The formats ``jurycal import`` reads, in the order listed (the keys of
#: :data:`jurycal.importers.IMPORTERS`).
IMPORTER_NAMES = ("inspect", "promptfoo", "deepeval", "alpaca_eval", "mt_bench")
#: promptfoo: how items are keyed: by test index, or by a hash of the test's variables.
ITEM_KEYS = ("test", "vars")
#: Inspect AI: how a partial grade ``P`` is read: as missing (default), as valid, or as invalid.
PARTIAL_POLICIES = ("missing", "valid", "invalid")
