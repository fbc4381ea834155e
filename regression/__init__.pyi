"""The front door of regression: the stable names a user needs, listed once.

regression/__init__.py reads this stub (lazy_loader.attach_stub) and loads
each name on first use; everything else is imported from its own module
(regression.single_judge, regression.latent, regression.transfer, ...). Each
name is imported ``as`` itself, the stub form of a re-export, so that a type
checker reads it as public.
"""

from . import simulate as simulate
from .data import Anchors as Anchors
from .data import Counts as Counts
from .data import counts_from_judgments as counts_from_judgments
from .errors import InputError as InputError
from .errors import JurycalWarning as JurycalWarning
from .intervals import ConfidenceInterval as ConfidenceInterval
from .labels import PartialLabels as PartialLabels
from .labels import suggest_labels as suggest_labels
from .labels.plan import plan_labels as plan_labels
from .latent import LatentTraitModel as LatentTraitModel
from .latent import LatentTraitResult as LatentTraitResult
from .leave_out import leave_out_evaluation as leave_out_evaluation
from .pairwise import PairwiseModel as PairwiseModel
from .ranking import Leaderboard as Leaderboard
from .ranking import leaderboard as leaderboard
from .registry import REGISTRY as REGISTRY
from .registry import fit as fit
from .registry import make_estimator as make_estimator
from .results import JointError as JointError
from .scores import ScoreModel as ScoreModel
from .results import Summary as Summary
from .single_judge import ModelComparison as ModelComparison
from .single_judge import SingleJudgeResult as SingleJudgeResult
from .single_judge import compare_models as compare_models
from .single_judge import estimate_prevalence as estimate_prevalence
from .single_judge import ppi_mean as ppi_mean
from .single_judge import rg_interval as rg_interval
from .transfer import TransferModel as TransferModel
from .transfer import TransferResult as TransferResult
