"""The bundled example data, loaded as pandas tables: the stages' loaders, for users.

The data and their loaders sit at the stages' floor, where the stages' own tests
and doctests read them (:mod:`regression.datasets`: the agreeableness paper's
votes, the LMArena and Chatbot Arena battles, HANNA's graded stories; :mod:`repair.datasets`: the sample
of messy validator outputs); provenance in ``regression/datasets/README.md``.

>>> from jurycal.datasets import load_human_precision
>>> float(load_human_precision()["gpt-4-turbo"])
0.871
"""

from __future__ import annotations

from regression.datasets import (
    ANNOTATED_GENERATORS,
    CHATBOT_ARENA_JUDGES,
    HANNA_CRITERIA,
    HANNA_JUDGES,
    HANNA_SCALE,
    REPAIR_LEVELS,
    VOTE_REPAIR_LEVELS,
    load_agreeableness_judgments,
    load_arena,
    load_arena_pairwise,
    load_chatbot_arena,
    load_confusion,
    load_hanna,
    load_hanna_raters,
    load_human_precision,
    load_item_votes,
    load_models,
    load_paper_ensemble_errors,
    load_paper_regression_errors,
    load_validator_rates,
)
from repair.datasets import load_repair_sample

__all__ = [
    "ANNOTATED_GENERATORS",
    "CHATBOT_ARENA_JUDGES",
    "HANNA_CRITERIA",
    "HANNA_JUDGES",
    "HANNA_SCALE",
    "REPAIR_LEVELS",
    "VOTE_REPAIR_LEVELS",
    "load_agreeableness_judgments",
    "load_arena",
    "load_arena_pairwise",
    "load_chatbot_arena",
    "load_confusion",
    "load_hanna",
    "load_hanna_raters",
    "load_human_precision",
    "load_item_votes",
    "load_models",
    "load_paper_ensemble_errors",
    "load_paper_regression_errors",
    "load_repair_sample",
    "load_validator_rates",
]
