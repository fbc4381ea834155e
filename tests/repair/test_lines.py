"""Line-number normalisation (agreeableness paper §4, App. B.3)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from repair.lines import (
    LINE_MATCH_EXACT,
    LINE_MATCH_NONE,
    LINE_MATCH_START,
    LINE_MATCH_UNKNOWN,
    line_agreement,
    parse_line,
    strict_line_key,
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # The paper's App. B.3 format ("line 3" instead of 3) and its spellings ("L3", "3.").
        (3, (3, 3)),
        ("3", (3, 3)),
        ("line 3", (3, 3)),
        ("Line 3", (3, 3)),
        ("L3", (3, 3)),
        ("3.", (3, 3)),
        (3.0, (3, 3)),
        ([3], (3, 3)),
        # Ranges (paper §4: "line number ranges (e.g., '2-3')").
        ("2-3", (2, 3)),
        ("2–3", (2, 3)),
        ("2 — 3", (2, 3)),
        ("lines 2 to 3", (2, 3)),
        ([2, 3], (2, 3)),
        (["2", "3"], (2, 3)),
        ("3-2", (2, 3)),
        # Lists as the generators wrote them in the released items ("5, 8, 11").
        ("5, 8, 11", (5, 11)),
        ([5, 8, 11], (5, 11)),
        # No line.
        (None, None),
        (True, None),
        ("n/a", None),
        ("", None),
        ([], None),
        ({"line": 3}, None),
        (float("nan"), None),
        (float("inf"), None),
        (-1, None),
        ("12345678901234", None),
    ],
)
def test_parse_line_formats(value, expected):
    assert parse_line(value) == expected


def test_strict_key_keeps_the_text_as_written():
    assert strict_line_key(3) == strict_line_key("3") == "3"
    assert strict_line_key("line 3") == "line 3"
    assert (
        strict_line_key(3.5) is None
        and strict_line_key(False) is None
        and strict_line_key([3]) is None
    )


def test_line_agreement_codes():
    entry = (np.array([2, 2, -1, 4, 2]), np.array([3, 2, -1, 4, 2]))
    item = (np.array([2, 2, 2, 5, -1]), np.array([3, 3, 3, 5, -1]))
    codes = line_agreement(*entry, *item)
    assert codes.tolist() == [
        LINE_MATCH_EXACT,
        LINE_MATCH_START,
        LINE_MATCH_UNKNOWN,
        LINE_MATCH_NONE,
        LINE_MATCH_UNKNOWN,
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=3)
    ),
    max_leaves=10,
)


@given(json_values)
def test_parse_line_never_raises_and_orders_the_range(value):
    span = parse_line(value)
    assert span is None or (0 <= span[0] <= span[1] < 10**9)
    key = strict_line_key(value)
    assert key is None or isinstance(key, str)
