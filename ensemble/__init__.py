"""Combining many judges' votes: majority, supermajority and minority veto (agreeableness paper, section 4).

``vote`` labels items by a rule over the validators' votes; ``ensemble_precision``
and ``ensemble_rates`` say what the labels give (precision per generator, TPR /
TNR / PPV / NPV against humans, Wilson intervals); ``sweep_thresholds`` and
``pick_threshold`` choose a rule's threshold on calibration generators
(leave-one-generator-out); ``simulate_votes`` draws data with correlated
validators and missing votes. Figures live in ``ensemble.plots``.
"""

from ensemble.baselines import VOTING_BASELINES, majority_baseline, minority_veto_baseline
from ensemble.metrics import (
    EnsemblePrecision,
    EnsembleRates,
    Proportion,
    ensemble_precision,
    ensemble_rates,
)
from ensemble.rules import MISSING_POLICIES, RULES, VoteTally, default_threshold
from ensemble.simulate import SimulatedVotes, simulate_votes
from ensemble.threshold import METRICS, ThresholdChoice, pick_threshold, sweep_thresholds
from ensemble.voting import (
    NoVoteWarning,
    present_validators,
    tally_votes,
    vote,
    vote_judgments,
    vote_matrices,
    vote_matrix,
)

__all__ = [
    "VOTING_BASELINES",
    "majority_baseline",
    "minority_veto_baseline",
    "METRICS",
    "MISSING_POLICIES",
    "RULES",
    "EnsemblePrecision",
    "EnsembleRates",
    "NoVoteWarning",
    "Proportion",
    "SimulatedVotes",
    "ThresholdChoice",
    "VoteTally",
    "default_threshold",
    "ensemble_precision",
    "ensemble_rates",
    "pick_threshold",
    "simulate_votes",
    "sweep_thresholds",
    "present_validators",
    "tally_votes",
    "vote",
    "vote_judgments",
    "vote_matrices",
    "vote_matrix",
]
