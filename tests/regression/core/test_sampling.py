"""Active designs keep every unit's floor of the uniform chance (the defensive mixture)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression.core.sampling import (
    DEFENSIVE_SHARE,
    active_probabilities,
    capped_proportional,
    systematic_sample,
)

# sums of a few hundred probabilities, each a mixture of two: rounding of order 1e-12 at most
ROUNDING = 1e-9


@settings(max_examples=200, deadline=None)
@given(
    q=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=300),
    share=st.sampled_from([DEFENSIVE_SHARE, 0.1, 0.9, 1.0]),
    fraction=st.floats(0.0, 1.0),
)
def test_probabilities_sum_to_n_keep_the_floor_and_stay_below_one(q, share, fraction):
    q = np.array(q)
    n = int(round(fraction * q.size))
    pi = active_probabilities(q, n, share)
    assert pi.sum() == pytest.approx(n, abs=ROUNDING)
    assert (pi <= 1.0).all()
    assert (pi >= share * n / q.size - ROUNDING).all()


def test_capped_proportional_holds_the_large_units_and_spreads_the_rest():
    pi = capped_proportional(np.array([10.0, 1.0, 1.0, 0.0, 0.0]), 3)
    assert pi.tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]  # exact: capped units are set to 1
    spread = capped_proportional(np.array([5.0, 0.0, 0.0, 0.0]), 3)
    assert spread.tolist() == pytest.approx([1.0, 2 / 3, 2 / 3, 2 / 3], abs=ROUNDING)


def test_share_outside_the_unit_interval_is_named():
    with pytest.raises(ValueError, match="share must be in \\(0, 1\\]; got 0"):
        active_probabilities(np.full(4, 0.5), 2, 0)


def test_a_blind_spot_keeps_its_uniform_share():
    """Judges sure of 800 items, 38 of them a kind they all wrongly accept (q = 0.9995: issue 37's
    blind spot), and unsure of 200: the blind-spot items keep at least half their uniform chance,
    where the active design alone would give them a fifth of it; and a draw of 25 labels, repeated,
    holds one of them as often as that chance says (about 1 - (1 - 0.5 * 25 / 1000)^38 = 0.38,
    against 0.16 under the active design alone)."""
    q = np.r_[np.full(800, 0.9995), np.full(200, 0.5)]
    blind = np.arange(38)  # among the items the judges are sure of
    n = 25
    pi = active_probabilities(q, n)
    uniform = n / q.size
    assert (pi[blind] >= DEFENSIVE_SHARE * uniform - ROUNDING).all()
    pure = capped_proportional(np.sqrt(q * (1 - q)), n)
    assert (pure[blind] < 0.25 * uniform).all()  # what the floor is for
    rng = np.random.default_rng(0)
    draws = 2000
    seen = np.mean([np.isin(systematic_sample(pi, rng), blind).any() for _ in range(draws)])
    expected = 1 - np.prod(1 - pi[blind])
    # systematic sampling on a random order is close to independent draws; 4 Monte Carlo se
    assert seen == pytest.approx(
        expected, abs=4 * np.sqrt(expected * (1 - expected) / draws) + 0.02
    )
