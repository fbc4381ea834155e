"""Combining many judges' votes: majority, supermajority and minority veto (agreeableness paper, section 4).

``vote`` labels items by a rule over the validators' votes; ``ensemble_precision``
and ``ensemble_rates`` say what the labels give (precision per generator, TPR /
TNR / PPV / NPV against humans, Wilson intervals); ``sweep_thresholds`` and
``pick_threshold`` choose a rule's threshold on calibration generators
(leave-one-generator-out); ``simulate_votes`` draws data with correlated
validators and missing votes. Figures live in ``ensemble.plots``.

The names below load on first use (SPEC 1 style, :mod:`regression.lazy`), so
``import ensemble`` (and a ``jurycal`` command's ``--help``) imports neither
pandas nor scipy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regression.lazy import attach

if TYPE_CHECKING:
    from ensemble.baselines import VOTING_BASELINES, majority_baseline, minority_veto_baseline
    from ensemble.metrics import (
        EnsemblePrecision,
        EnsembleRates,
        Proportion,
        ensemble_precision,
        ensemble_rates,
    )
    from ensemble.simulate import SimulatedVotes, simulate_votes
    from ensemble.threshold import METRICS, ThresholdChoice, pick_threshold, sweep_thresholds
    from ensemble.voting import (
        MISSING_POLICIES,
        RULES,
        NoVoteWarning,
        VoteTally,
        default_threshold,
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

_EXPORTS = {
    "VOTING_BASELINES": "ensemble.baselines",
    "majority_baseline": "ensemble.baselines",
    "minority_veto_baseline": "ensemble.baselines",
    "EnsemblePrecision": "ensemble.metrics",
    "EnsembleRates": "ensemble.metrics",
    "Proportion": "ensemble.metrics",
    "ensemble_precision": "ensemble.metrics",
    "ensemble_rates": "ensemble.metrics",
    "SimulatedVotes": "ensemble.simulate",
    "simulate_votes": "ensemble.simulate",
    "METRICS": "ensemble.threshold",
    "ThresholdChoice": "ensemble.threshold",
    "pick_threshold": "ensemble.threshold",
    "sweep_thresholds": "ensemble.threshold",
    "MISSING_POLICIES": "ensemble.voting",
    "RULES": "ensemble.voting",
    "NoVoteWarning": "ensemble.voting",
    "VoteTally": "ensemble.voting",
    "default_threshold": "ensemble.voting",
    "present_validators": "ensemble.voting",
    "tally_votes": "ensemble.voting",
    "vote": "ensemble.voting",
    "vote_judgments": "ensemble.voting",
    "vote_matrices": "ensemble.voting",
    "vote_matrix": "ensemble.voting",
}

__getattr__, __dir__ = attach("ensemble", _EXPORTS)
