"""The importers' names and options, declared once, in a module that imports nothing heavy.

The importers use them, and ``jurycal import`` offers them without importing
pandas (``--help`` stays fast).
"""

from __future__ import annotations

__all__ = ["IMPORTER_NAMES", "ITEM_KEYS", "PARTIAL_POLICIES", "SCORE_IMPORTER_NAMES"]

#: The formats ``jurycal import`` reads, in the order listed (the keys of
#: :data:`jurycal.importers.IMPORTERS`).
IMPORTER_NAMES = ("inspect", "promptfoo", "deepeval", "alpaca_eval", "mt_bench")
#: The formats ``jurycal import`` reads into the score table (the keys of
#: :data:`jurycal.importers.SCORE_IMPORTERS`): the judges' numeric scores, not thresholded.
SCORE_IMPORTER_NAMES = ("inspect_scores", "mt_bench_scores", "promptfoo_scores", "deepeval_scores")
#: promptfoo: how items are keyed: by test index, or by a hash of the test's variables.
ITEM_KEYS = ("test", "vars")
#: Inspect AI: how a partial grade ``P`` is read: as missing (default), as valid, or as invalid.
PARTIAL_POLICIES = ("missing", "valid", "invalid")
