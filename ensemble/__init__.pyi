"""The public names of ensemble, listed once: ensemble/__init__.py reads this stub
(lazy_loader.attach_stub) and loads each name on first use."""

from .baselines import VOTING_BASELINES as VOTING_BASELINES
from .baselines import majority_baseline as majority_baseline
from .baselines import minority_veto_baseline as minority_veto_baseline
from .metrics import EnsemblePrecision as EnsemblePrecision
from .metrics import EnsembleRates as EnsembleRates
from .metrics import Proportion as Proportion
from .metrics import ensemble_precision as ensemble_precision
from .metrics import ensemble_rates as ensemble_rates
from .options import METRICS as METRICS
from .options import MISSING_POLICIES as MISSING_POLICIES
from .options import RULES as RULES
from .rules import VoteTally as VoteTally
from .rules import default_threshold as default_threshold
from .simulate import SimulatedVotes as SimulatedVotes
from .simulate import simulate_votes as simulate_votes
from .threshold import ThresholdChoice as ThresholdChoice
from .threshold import pick_threshold as pick_threshold
from .threshold import sweep_thresholds as sweep_thresholds
from .voting import NoVoteWarning as NoVoteWarning
from .voting import present_validators as present_validators
from .voting import tally_votes as tally_votes
from .voting import vote as vote
from .voting import vote_judgments as vote_judgments
from .voting import vote_matrices as vote_matrices
from .voting import vote_matrix as vote_matrix
