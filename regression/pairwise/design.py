"""Which generators a draw of human votes reaches: the battles each generator's votes stand for.

A generator's win rate (or strength) is over all its battles; the human votes
estimate it design-unbiasedly only if every one of those battles could have
been drawn (``pi_b > 0``). A draw that gives some battles probability 0 (e.g.
:func:`~regression.pairwise.suggest_labels` with ``generators=["g00"]``: the
battles without ``g00`` are never drawn), or votes all held at probability 1
on part of a generator's battles, reaches only part of them, and no variance
computed from the votes can show what the rest would have said.

The sample says so through the Horvitz-Thompson count of a generator's
battles, ``N^_g = sum_{voted b in g} 1 / pi_b`` (Sarndal, Swensson & Wretman,
1992, ch. 2-3): unbiased for its ``N_g`` battles under any design that gives
each of them ``pi_b > 0``, short by the battles it cannot reach otherwise. The
design reached ``g``'s battles unless ``N^_g`` falls short of ``N_g`` by more
than :data:`~regression.core.sampling.REACH_Z` standard deviations of that
count (one-sided level 0.001; :func:`~regression.core.sampling.count_short`).
The standard deviation is the count's under a design that reaches every battle,
``Var(N^_g) = sum_{unheld b in g} (1 - pi_b) / pi_b``, taken as the unheld
battles times the largest ``(1 - pi) / pi`` among ``g``'s drawn votes (among all
drawn votes where ``g`` has none): from the design's probabilities, so that a
uniform draw's count is tested by its binomial z-score, not by the spread of the
few votes drawn, and on the side of keeping an estimate where the probabilities
vary (a varying design's count is not normal, and a mean of
``(1 - pi) / pi`` read off a few votes can understate its spread). A
design that gives some battles probability 0 falls short by their share of
``N_g`` (a generator of ``G`` not named in ``suggest_labels(generators=...)``:
about ``(G - 2) / (G - 1)`` of it), many standard deviations. Held votes (``pi =
1``) reach only their own battles.

A generator outside the named ones whose few votes happened to fall on its
battles against them can pass its own test (seven votes where twenty were due
is 3 standard deviations short), but not a test of where its votes fell: the
generators the drawn votes stand for are set aside one by one until no drawn
vote is left among the battles of the others (:func:`unvoted_block`). A
generator with ``k`` battles there, none voted, is not reached either where a
draw that reached them would miss all ``k`` with chance under
:data:`~regression.core.sampling.REACH_LEVEL` (0.001, the level of ``REACH_Z``):
``(1 - pi_min)^k``, ``pi_min`` the smallest probability of a drawn vote (the count's normal
approximation fails for a few battles drawn with a large chance). A draw that
reaches every battle leaves few battles so (those of a pair or two its votes
missed by chance).

Votes given without inclusion probabilities are a uniform sample by declaration
(:func:`~regression.pairwise.check_pairwise`): every battle could have been
drawn, and the test is not made (at its level it would drop one generator in a
thousand of a valid uniform draw whose count fell short by chance).
"""

from __future__ import annotations

import numpy as np

from regression.core.sampling import REACH_LEVEL, count_short
from regression.pairwise.table import PairwiseTable

__all__ = [
    "UNREACHED_HINT",
    "DesignReach",
    "battle_sides",
    "unvoted_block",
]


def battle_sides(table: PairwiseTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each battle twice, once per generator: the battle, the generator and the sign of its side
    (+1 generator_a, -1 generator_b), so a generator's score is ``1/2 + sign (s_a - 1/2)``."""
    n = table.n_battles
    battle = np.concatenate([np.arange(n), np.arange(n)])
    generator = np.concatenate([table.battle_a, table.battle_b])
    sign = np.concatenate([np.ones(n), -np.ones(n)])
    return battle, generator, sign


class DesignReach:
    """Per generator of a checked table: the battles its votes stand for, and whether the draw
    reached all its battles.

    Attributes
    ----------
    n_battles : ndarray
        ``N_g``: the generator's battles.
    stand_for : ndarray
        ``N^_g = sum 1 / pi`` over its voted battles (0 without votes).
    held : ndarray
        Its votes held at probability 1.
    reached : ndarray of bool
        False where ``N^_g`` falls short of ``N_g`` by more than
        :data:`~regression.core.sampling.REACH_Z` standard deviations, or where too many of
        its battles lie among those no drawn vote joins (:func:`unvoted_block`; the module
        docstring); True without votes (too few votes says why) and for votes without
        inclusion probabilities (a uniform sample by declaration).
    drawn_weight : ndarray
        Per generator: the mean ``1 / pi`` of its drawn votes (``pi < 1``), else of every
        drawn vote of the table, else 1 (every vote held): the weight of a battle the draw
        could still have reached.
    """

    def __init__(self, table: PairwiseTable) -> None:
        n_gen = len(table.generators)
        battle, generator, _ = battle_sides(table)
        voted = table.human_row >= 0
        pi = np.where(voted, table.inclusion_probability, 1.0)
        drawn = voted & (pi < 1.0)
        on, on_drawn = voted[battle], drawn[battle]
        self.n_battles = np.bincount(generator, minlength=n_gen).astype(float)
        self.stand_for = np.bincount(generator[on], 1.0 / pi[battle[on]], minlength=n_gen)
        self.held = np.bincount(generator[on & ~on_drawn], minlength=n_gen).astype(float)
        odds = (1.0 - pi) / pi  # a battle's (1 - pi) / pi: its share of the count's variance
        largest = np.full(n_gen, float(odds[drawn].max()) if drawn.any() else 0.0)
        self.drawn_weight = np.full(n_gen, float(np.mean(1.0 / pi[drawn])) if drawn.any() else 1.0)
        for g in np.unique(generator[on_drawn]):
            mine = battle[on_drawn & (generator == g)]
            largest[g] = float(odds[mine].max())
            self.drawn_weight[g] = float(np.mean(1.0 / pi[mine]))
        self.reached = ~count_short(self.n_battles, self.stand_for, self.held, largest)
        if drawn.any():
            # a generator's battles among those no drawn vote joins, more than the draw's
            # probabilities leave unvoted by chance: never reached
            block = unvoted_block(table.battle_a, table.battle_b, pi, voted, n_gen)[battle]
            missed = np.bincount(generator[block & ~on], minlength=n_gen).astype(float)
            # the chance that a draw reaching them missed every one: (1 - smallest drawn pi)^k
            unlikely = missed * np.log1p(-float(pi[drawn].min())) < np.log(REACH_LEVEL)
            self.reached &= ~unlikely
        # votes without probabilities are a uniform sample by declaration: every battle drawable
        self.reached |= not table.weighted

    def unreached(self) -> dict[int, str]:
        """Per generator whose battles the draw did not reach (its position): why it has no estimate."""
        return {
            int(g): f"its votes stand for {self.stand_for[g]:.1f} of its "
            f"{int(self.n_battles[g])} battles: the draw did not reach the others"
            for g in np.flatnonzero(~self.reached)
        }


def unvoted_block(
    battle_a: np.ndarray, battle_b: np.ndarray, pi: np.ndarray, voted: np.ndarray, n_gen: int
) -> np.ndarray:
    """The battles among the generators no drawn vote joins: a mask over the battles.

    The generator that the most drawn votes stand for (``sum 1 / pi``) is set
    aside with its battles, then the next among the battles left, until no
    drawn vote is left among them. A draw aimed at named generators
    (``suggest_labels(generators=[...])``) leaves exactly the battles among
    the others, which it gave probability 0; a draw that reaches every battle
    leaves few (the battles of a pair or two its votes happened to miss).
    """
    drawn = voted & (pi < 1.0)
    block = np.ones(battle_a.size, dtype=bool)
    while (in_block := drawn & block).any():
        weight = np.bincount(battle_a[in_block], 1.0 / pi[in_block], minlength=n_gen)
        weight += np.bincount(battle_b[in_block], 1.0 / pi[in_block], minlength=n_gen)
        aside = int(np.argmax(weight))
        block &= (battle_a != aside) & (battle_b != aside)
    return block


#: What a draw that does not reach a generator's battles is, for the warning that names them.
UNREACHED_HINT = (
    "A vote stands for 1 / inclusion_probability battles, and a draw reaches a generator's "
    "battles only where each of them could have been drawn: a draw aimed at some generators "
    "(suggest_labels(generators=...), jurycal suggest --generator) gives the battles of the "
    "others probability 0, and votes held at probability 1 stand only for themselves. "
    "Estimate these generators from a draw that reaches their battles (one naming them)."
)
