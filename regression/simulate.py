"""Every simulator of regression in one namespace: worlds with known truth, for coverage checks.

Single judge (:mod:`regression.single_judge.simulate`): one judge's verdicts
with a known TPR / TNR, paired comparisons, and the coverage and
distribution-shift studies of the Rogan-Gladen and PPI++ intervals. Many
judges (:mod:`regression.latent.simulate`, :mod:`regression.latent.worlds`):
generator x validator matrices and item votes from the latent-trait model
(agreeableness paper, section 5.1, eq. (1)), and worlds whose judges move
between generators. Pairwise verdicts (:mod:`regression.pairwise.simulate`):
arenas with unbalanced battles, ties and three position-biased judges.
Graded scores (:mod:`regression.scores.simulate`): judges on their own
scales, monotone but non-linear, one lenient to a generator, ratings piled at
the top of the scale.

Examples
--------
>>> from regression import simulate
>>> world = simulate.simulate_latent_world(6, 4, seed=0)
>>> world.counts.rates.shape
(6, 4)
"""

from regression.latent.simulate import (
    ItemWorld,
    LatentWorld,
    simulate_item_votes,
    simulate_latent_world,
)
from regression.latent.worlds import TRANSFER_WORLDS, simulate_transfer_world, transfer_world
from regression.pairwise.simulate import pairwise_world
from regression.scores.simulate import ScoreWorld, score_world
from regression.single_judge.simulate import (
    SimulatedComparison,
    SimulatedSingleJudge,
    coverage_study,
    distribution_shift_study,
    simulate_comparison,
    simulate_single_judge,
)

__all__ = [
    "TRANSFER_WORLDS",
    "ItemWorld",
    "LatentWorld",
    "ScoreWorld",
    "SimulatedComparison",
    "SimulatedSingleJudge",
    "coverage_study",
    "distribution_shift_study",
    "pairwise_world",
    "score_world",
    "simulate_comparison",
    "simulate_item_votes",
    "simulate_latent_world",
    "simulate_single_judge",
    "simulate_transfer_world",
    "transfer_world",
]
