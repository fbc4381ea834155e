"""The public names of repair, listed once: repair/__init__.py reads this stub
(lazy_loader.attach_stub) and loads each name on first use."""

from .alignment import EntryTexts as EntryTexts
from .alignment import FeedbackTexts as FeedbackTexts
from .alignment import align_entries as align_entries
from .alignment import assign as assign
from .alignment import text_scores as text_scores
from .labels import LabelPolicy as LabelPolicy
from .labels import normalise_label as normalise_label
from .lines import parse_line as parse_line
from .matching import FAILURE_TYPES as FAILURE_TYPES
from .orphans import ORPHAN_REASONS as ORPHAN_REASONS
from .pairs import GENERATOR_ITEM_COLUMNS as GENERATOR_ITEM_COLUMNS
from .pairs import VALIDATOR_OUTPUT_COLUMNS as VALIDATOR_OUTPUT_COLUMNS
from .parsing import ParsedOutput as ParsedOutput
from .parsing import parse_validator_output as parse_validator_output
from .pipeline import REPAIRED_COLUMNS as REPAIRED_COLUMNS
from .pipeline import repair_judgments as repair_judgments
from .report import RepairReport as RepairReport
from .simulate import MessRates as MessRates
from .simulate import SimulatedOutputs as SimulatedOutputs
from .simulate import simulate_validator_outputs as simulate_validator_outputs
from .switches import ALL as ALL
from .switches import FEEDBACK as FEEDBACK
from .switches import FUZZY_THRESHOLD as FUZZY_THRESHOLD
from .switches import LABELS as LABELS
from .switches import LINES as LINES
from .switches import NONE as NONE
from .switches import PAPER_LEVELS as PAPER_LEVELS
from .switches import PARSING as PARSING
from .switches import Repair as Repair
