"""The importers' names and options, declared once, in a module that imports nothing heavy.

The importers use them, and ``jurycal import`` offers them without importing
pandas (``--help`` stays fast).
"""

from __future__ import annotations

__all__ = [
    "ALPACA_EVAL_FILES",
    "ARENA_HARD_FILES",
    "IMPORTER_NAMES",
    "IMPORT_TABLES",
    "ITEM_KEYS",
    "MT_BENCH_FILES",
    "MT_BENCH_PAIR_FILES",
    "PAIRWISE_IMPORTER_NAMES",
    "PARTIAL_POLICIES",
    "SCORE_IMPORTER_NAMES",
]

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
#: The formats ``jurycal import`` reads into the pairwise tables (the keys of
#: :data:`jurycal.importers.pairwise.PAIRWISE_IMPORTERS`): the judges' verdicts on battles and the
#: human votes the files record, the tables ``jurycal rank VERDICTS HUMAN`` reads.
PAIRWISE_IMPORTER_NAMES = ("alpaca_eval_pairs", "mt_bench_pairs", "arena_hard", "arena")

#: The table each group of formats writes, what it holds, and the formats: ``jurycal import
#: --help`` lists them from here, and the command writes the table its format declares.
IMPORT_TABLES = {
    "judgments": (
        "the judgments table (generator, item, validator, label), with --human-out the human "
        "labels (generator, item, human)",
        IMPORTER_NAMES,
    ),
    "pairwise": (
        "the judges' pairwise verdicts (item, generator_a, generator_b, validator, verdict, "
        "position), with --human-out the human votes (item, generator_a, generator_b, human)",
        PAIRWISE_IMPORTER_NAMES,
    ),
    "scores": (
        "the score table (generator, item, validator, score): each judge's numeric score, not "
        "thresholded",
        SCORE_IMPORTER_NAMES,
    ),
}

# The names the tools give their own files: a directory is searched for them at every depth.
#: AlpacaEval: results/<model>/<annotator>/annotations.json.
ALPACA_EVAL_FILES = ("annotations.json",)
#: MT-Bench (FastChat): data/mt_bench/model_judgment/<judge>_single.jsonl and _pair.jsonl.
MT_BENCH_FILES = ("*_single.jsonl", "*_pair.jsonl")
#: MT-Bench's pairwise judgments alone.
MT_BENCH_PAIR_FILES = ("*_pair.jsonl",)
#: Arena-Hard-Auto: data/<bench>/model_judgment/<judge>/<model>.jsonl.
ARENA_HARD_FILES = ("model_judgment/**/*.jsonl",)
