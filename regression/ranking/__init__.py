"""Pairwise differences and rank sets for many generators, from the joint error of their estimates.

The generators' estimates share judges and calibration, so their errors move
together: a difference can be known better (or worse) than the two levels
suggest, and ranks read off overlapping marginal intervals say almost nothing.
Everything here works on a :class:`~regression.results.JointError` (the joint
law of ``estimate - truth``) and draws from it, so it serves every estimator
that can describe its joint error: the transfer estimator, the latent-trait
fit's bootstrap, a single judge's Rogan-Gladen estimates sharing one
calibration table.

* :func:`compare`: simultaneous (or one-at-a-time) intervals for the
  differences ``g_a - g_b``.
* :func:`rank_sets`: for every generator at once, the ranks it may hold
  (1 = the highest estimate), by the step-down procedure of Mogstad, Romano,
  Shaikh and Wilhelm (2024, *Inference for ranks with applications to
  mobility across neighbourhoods and academic achievement across countries*,
  Review of Economic Studies; section 3.2, Algorithm 3.1; the ``csranks``
  package).
* :func:`could_be_best`: the generators whose rank set contains 1.

How the family-wise level is held. For every ordered pair (a, b) the
statistic is ``T_ab = (ghat_a - ghat_b) / sd_ab`` with ``sd_ab`` the scale of
the difference; its null law is that of ``(e_a - e_b) / sd_ab`` for ``e``
drawn from the joint error. The components of the error may have different
laws (a normal item-sampling part, a heavy-tailed t part from a handful of
calibration generators), so one critical value for all pairs would let the
heavy-tailed pairs take the whole error budget. The critical values are
*balanced* instead (Beran 1988, *Balanced simultaneous confidence sets*,
JASA 83; the min-p form of Westfall and Young 1993): every pair is tested at
the same marginal level ``q``, chosen so that the largest of the pairs'
marginal percentiles exceeds ``q`` with probability ``alpha``. With a normal
joint error this is the max-|t| procedure. The step-down repeats the choice
over the pairs not yet decided (Romano and Wolf 2005), which can only decide
more pairs and keeps the family-wise error at ``alpha``. A joint error given
by its law (no draws of its own) gives every pair one known null law, so the
balanced critical value is one quantile of the per-draw maximum, resolved by
a few thousand draws on a board of any size
(:class:`~regression.ranking.family.PairFamily`).

Generators without an interval (a non-finite estimate or variance) hold the
full range of ranks with a ``reason``; the others are ranked among
themselves, their worst ranks widened by one for each such generator
(:func:`rank_sets`).

How it scales. Only the upper tail of each pair's null law can set a
critical value, so :class:`~regression.ranking.family.PairFamily` keeps a few
of the largest null draws per ordered pair (never pairs x draws at once), and
each step of the step-down reads the per-draw maximum off them; it decides
exactly what forming every pair x draw decides. Modules: ``family`` (the
draws, the pairs and their tails), ``sets`` (:func:`compare`,
:func:`rank_sets`, :func:`could_be_best` and the baselines), ``board``
(:class:`Leaderboard`), ``plot`` (its figure).
"""

from regression.ranking.board import PAIR_PROCEDURES, Leaderboard, Ranked, leaderboard
from regression.ranking.family import N_DRAWS, SCALE_FLOOR, error_draws
from regression.ranking.sets import (
    bonferroni_rank_sets,
    compare,
    could_be_best,
    projection_rank_sets,
    rank_sets,
    rank_sets_from_decisions,
)

__all__ = [
    "N_DRAWS",
    "PAIR_PROCEDURES",
    "SCALE_FLOOR",
    "Leaderboard",
    "Ranked",
    "bonferroni_rank_sets",
    "compare",
    "could_be_best",
    "error_draws",
    "leaderboard",
    "projection_rank_sets",
    "rank_sets",
    "rank_sets_from_decisions",
]
