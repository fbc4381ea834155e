"""The choices and bounds the command line offers, spelt here so that ``--help`` imports nothing heavy.

The estimators' names are not here: the CLI reads them from :mod:`regression.registry`,
which imports nothing heavy.

Each name mirrors the library constant named beside it; the library modules
import numpy, pandas or scipy, which a ``--help`` or a usage error must not
wait for (clig.dev; SPEC 1). ``tests/jurycal/test_cli_streams.py`` checks
that every value here equals the library's, so the two cannot drift.
"""

from __future__ import annotations

__all__ = [
    "BACKENDS",
    "DEFAULT_MEMORY_LIMIT",
    "IMPORTER_NAMES",
    "INTERVAL_METHODS",
    "ITEM_KEYS",
    "MAX_N_BOOT",
    "MAX_THREADS",
    "METRICS",
    "MIN_N_BOOT",
    "MIRRORS",
    "MISSING_POLICIES",
    "PAPER_LEVELS",
    "PARTIAL_POLICIES",
    "RULES",
    "SHARED_CALIBRATIONS",
    "SUGGEST_OBJECTIVES",
]

#: regression.latent.BACKENDS
BACKENDS = ("scipy", "torch")
#: regression.latent.INTERVAL_METHODS
INTERVAL_METHODS = ("auto", "profile", "parametric", "nonparametric", "items")
#: regression.single_judge.SHARED_CALIBRATIONS
SHARED_CALIBRATIONS = ("pooled", "a", "b")
#: ensemble.RULES
RULES = ("majority", "supermajority", "minority_veto")
#: ensemble.METRICS
METRICS = ("max_abs_error", "mean_abs_error", "balanced_accuracy")
#: ensemble.MISSING_POLICIES without None (the default, no option)
MISSING_POLICIES = ("ignore",)
#: repair.PAPER_LEVELS (its keys)
PAPER_LEVELS = ("none", "feedback", "feedback+lines", "feedback+lines+labels")
#: jurycal.counting.DEFAULT_MEMORY_LIMIT
DEFAULT_MEMORY_LIMIT = "1GB"
#: jurycal.counting.files.MAX_THREADS
MAX_THREADS = 1024
#: jurycal.importers.IMPORTERS (its keys)
IMPORTER_NAMES = ("inspect", "promptfoo", "deepeval", "alpaca_eval", "mt_bench")
#: jurycal.importers.ITEM_KEYS
ITEM_KEYS = ("test", "vars")
#: jurycal.importers.PARTIAL_POLICIES
PARTIAL_POLICIES = ("missing", "valid", "invalid")
#: regression.pairwise.suggest.OBJECTIVES (the first is the default)
SUGGEST_OBJECTIVES = ("win rates", "undecided pairs")
#: regression.checks.MIN_N_BOOT, MAX_N_BOOT
MIN_N_BOOT, MAX_N_BOOT = 2, 1_000_000

#: Each name above -> (the library module, its name there, how to read it), for the test.
MIRRORS = {
    "BACKENDS": ("regression.latent", "BACKENDS", tuple),
    "INTERVAL_METHODS": ("regression.latent", "INTERVAL_METHODS", tuple),
    "SHARED_CALIBRATIONS": ("regression.single_judge", "SHARED_CALIBRATIONS", tuple),
    "RULES": ("ensemble", "RULES", tuple),
    "METRICS": ("ensemble", "METRICS", tuple),
    "MISSING_POLICIES": ("ensemble", "MISSING_POLICIES", lambda p: tuple(x for x in p if x)),
    "PAPER_LEVELS": ("repair", "PAPER_LEVELS", tuple),
    "DEFAULT_MEMORY_LIMIT": ("jurycal.counting", "DEFAULT_MEMORY_LIMIT", str),
    "MAX_THREADS": ("jurycal.counting.files", "MAX_THREADS", int),
    "IMPORTER_NAMES": ("jurycal.importers", "IMPORTERS", tuple),
    "ITEM_KEYS": ("jurycal.importers", "ITEM_KEYS", tuple),
    "PARTIAL_POLICIES": ("jurycal.importers", "PARTIAL_POLICIES", tuple),
    "SUGGEST_OBJECTIVES": ("regression.pairwise.suggest", "OBJECTIVES", tuple),
    "MIN_N_BOOT": ("regression.checks", "MIN_N_BOOT", int),
    "MAX_N_BOOT": ("regression.checks", "MAX_N_BOOT", int),
}
