"""Repair of messy validator outputs into the judgments table (agreeableness paper, §4, App. B.2-B.3).

>>> from repair import repair_judgments, ALL, PAPER_LEVELS
"""

from .alignment import EntryTexts, FeedbackTexts, align_entries, assign, text_scores
from .labels import LabelPolicy, normalise_label
from .lines import parse_line
from .matching import FAILURE_TYPES
from .orphans import ORPHAN_REASONS
from .pairs import GENERATOR_ITEM_COLUMNS, VALIDATOR_OUTPUT_COLUMNS
from .parsing import ParsedOutput, parse_validator_output
from .pipeline import REPAIRED_COLUMNS, repair_judgments
from .report import RepairReport
from .simulate import MessRates, SimulatedOutputs, simulate_validator_outputs
from .switches import ALL, FEEDBACK, LABELS, LINES, NONE, PAPER_LEVELS, PARSING, Repair

__all__ = [
    "ALL",
    "FAILURE_TYPES",
    "FEEDBACK",
    "GENERATOR_ITEM_COLUMNS",
    "ORPHAN_REASONS",
    "LABELS",
    "LINES",
    "NONE",
    "PAPER_LEVELS",
    "PARSING",
    "REPAIRED_COLUMNS",
    "VALIDATOR_OUTPUT_COLUMNS",
    "EntryTexts",
    "FeedbackTexts",
    "LabelPolicy",
    "MessRates",
    "ParsedOutput",
    "Repair",
    "RepairReport",
    "SimulatedOutputs",
    "align_entries",
    "assign",
    "normalise_label",
    "parse_line",
    "parse_validator_output",
    "repair_judgments",
    "simulate_validator_outputs",
    "text_scores",
]
