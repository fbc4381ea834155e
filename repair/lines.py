"""Line-number normalisation: "line 3", "L3", "3.", "2-3", "2–3", "lines 2 to 3", [2, 3].

The agreeableness paper (§4, App. B.3) repairs line numbers that a validator
wrote in another format ("line 3" instead of ``3``) or under another key
(``line_num`` instead of ``line_number``), and matches a range such as
``"2-3"`` by its starting line when no item has exactly that range. Here a
line reference becomes a closed range ``(start, end)`` of whole numbers:

* a single line ``3``, ``"3"``, ``"line 3"``, ``"L3"``, ``"3."`` is ``(3, 3)``;
* a range ``"2-3"``, ``"2–3"``, ``"lines 2 to 3"``, ``[2, 3]`` is ``(2, 3)``;
* a list ``"5, 8, 11"`` or ``[5, 8, 11]`` spans ``(5, 11)``.

The strict reading (no line repair) compares the value's text as written,
:func:`strict_line_key`, with the item's.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

__all__ = [
    "LINE_MATCH_EXACT",
    "LINE_MATCH_START",
    "LINE_MATCH_UNKNOWN",
    "LINE_MATCH_NONE",
    "line_agreement",
    "parse_line",
    "strict_line_key",
]

#: Line agreement codes (larger is better): the same range, the same start line,
#: no line on one side, different lines.
LINE_MATCH_EXACT, LINE_MATCH_START, LINE_MATCH_UNKNOWN, LINE_MATCH_NONE = 3, 2, 1, 0

_NUMBER = re.compile(r"\d+")
_MAX_DIGITS = 9  # longer digit runs are not line numbers (and would overflow int64)
_MAX_LIST = 1000  # a list longer than this is not a line reference


def _from_number(value: float) -> tuple[int, int] | None:
    if not math.isfinite(value) or value < 0 or value >= 1e9:
        return None
    line = int(value)
    return (line, line)


def parse_line(value: Any) -> tuple[int, int] | None:
    """Read a line reference as a closed range ``(start, end)``; ``None`` when there is none.

    Parameters
    ----------
    value : object
        What the validator (or the generator item) gave as the line: an int,
        a string in any of the formats above, or a list of those.

    Returns
    -------
    tuple of int or None
        ``(start, end)`` with ``start <= end``; ``None`` for ``None``, booleans,
        text without a number and anything else. Never raises.

    Notes
    -----
    Agreeableness paper §4 and App. B.3: line-number repairs. Every whole
    number of up to nine digits in a string counts (so "lines 2 to 3" and
    "2–3" give ``(2, 3)``); the range spans the smallest to the largest.

    Examples
    --------
    >>> parse_line("line 3"), parse_line("L3"), parse_line("3."), parse_line(3)
    ((3, 3), (3, 3), (3, 3), (3, 3))
    >>> parse_line("2-3"), parse_line("2–3"), parse_line("lines 2 to 3"), parse_line([2, 3])
    ((2, 3), (2, 3), (2, 3), (2, 3))
    >>> parse_line("5, 8, 11"), parse_line("n/a"), parse_line(True)
    ((5, 11), None, None)
    """
    if value is None or isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, np.integer)):
        return _from_number(float(value)) if -1e18 < value < 1e18 else None
    if isinstance(value, (float, np.floating)):
        return _from_number(float(value))
    if isinstance(value, str):
        numbers = [int(n) for n in _NUMBER.findall(value[:10_000]) if len(n) <= _MAX_DIGITS]
        if not numbers:
            return None
        return (min(numbers), max(numbers))
    if isinstance(value, (list, tuple)) and 0 < len(value) <= _MAX_LIST:
        spans = [parse_line(v) for v in value if not isinstance(v, (list, tuple, dict))]
        found = [s for s in spans if s is not None]
        if not found:
            return None
        return (min(s[0] for s in found), max(s[1] for s in found))
    return None


def strict_line_key(value: Any) -> str | None:
    """The line as written, for the strict (unrepaired) comparison; ``None`` if not an int or string.

    Examples
    --------
    >>> strict_line_key(3), strict_line_key("2-3"), strict_line_key("line 3"), strict_line_key(None)
    ('3', '2-3', 'line 3', None)
    >>> strict_line_key(3.0)  # a whole float, as pandas stores an int column with gaps
    '3'
    """
    if isinstance(value, (bool, np.bool_)) or value is None:
        return None
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return str(int(value)) if math.isfinite(value) and float(value).is_integer() else None
    if isinstance(value, str):
        return value
    return None


def line_agreement(
    entry_start: np.ndarray, entry_end: np.ndarray, item_start: np.ndarray, item_end: np.ndarray
) -> np.ndarray:
    """Vectorised agreement code between validator lines and item lines (``-1`` marks no line).

    Returns :data:`LINE_MATCH_EXACT` for the same range, :data:`LINE_MATCH_START`
    for the same start line (the paper's fallback for ranges, §4),
    :data:`LINE_MATCH_UNKNOWN` when either side has no line and
    :data:`LINE_MATCH_NONE` otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> line_agreement(np.array([2, 2, -1, 4]), np.array([3, 2, -1, 4]),
    ...                np.array([2, 2, 2, 5]), np.array([3, 3, 3, 5])).tolist()
    [3, 2, 1, 0]
    """
    unknown = (entry_start < 0) | (item_start < 0)
    same_start = entry_start == item_start
    exact = same_start & (entry_end == item_end)
    code = np.where(
        exact, LINE_MATCH_EXACT, np.where(same_start, LINE_MATCH_START, LINE_MATCH_NONE)
    )
    return np.where(unknown, LINE_MATCH_UNKNOWN, code).astype(np.int8)
