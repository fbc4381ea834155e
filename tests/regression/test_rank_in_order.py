"""rank_in_order: the one order the score and pairwise tables number their rows in, whatever the
rows' order."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from regression.checks import rank_in_order

VALUES = st.lists(
    st.one_of(st.integers(-50, 50), st.text("abc", max_size=3)), min_size=1, max_size=30
)


@given(VALUES, st.randoms(use_true_random=False))
def test_the_rank_of_a_value_does_not_depend_on_the_rows_order(values, random) -> None:
    shuffled = list(range(len(values)))
    random.shuffle(shuffled)
    ranks = rank_in_order(values)
    again = rank_in_order([values[i] for i in shuffled])
    assert again.tolist() == ranks[shuffled].tolist()


@given(VALUES)
def test_equal_values_share_a_rank_and_the_ranks_are_dense(values) -> None:
    ranks = rank_in_order(values)
    distinct = {(type(v), v) for v in values}
    assert sorted(set(ranks.tolist())) == list(range(len(distinct)))
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if type(a) is type(b) and a == b:
                assert ranks[i] == ranks[j]


def test_numbers_rank_as_numbers_and_text_as_text() -> None:
    assert rank_in_order(np.array([10, 9, 100])).tolist() == [1, 0, 2]
    assert rank_in_order(["10", "9", "100"]).tolist() == [0, 2, 1]


def test_a_number_and_its_text_rank_the_same_whatever_comes_first() -> None:
    assert rank_in_order([1, "1", "a"]).tolist() == rank_in_order(["a", "1", 1]).tolist()[::-1]
