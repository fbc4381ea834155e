"""The pairwise verdict vocabulary: the words read as "a", "b" and "tie", decoded once per value.

A verdict says which of a battle's two answers was preferred: ``"a"`` the
answer of ``generator_a``, ``"b"`` that of ``generator_b``, ``"tie"`` neither.
The eval tools spell these their own ways; :data:`VERDICT_WORDS` lists every
spelling read (after trimming and lower-casing), so that a table written by
any of them is read as it stands:

- jurycal's own: ``a``, ``b``, ``tie``;
- Chatbot Arena's released battles: ``model_a``, ``model_b``, ``tie``, ``tie (bothbad)``;
- Arena-Hard-Auto's labels: ``a>b``, ``a>>b``, ``b>a``, ``b>>a``, ``a=b`` and
  the mirrored spellings ``a<b``, ``a<<b``, ``b<a``, ``b<<a``, ``b=a``
  (``show_result.py``'s ``label_to_score``); the strength (``>>``) is not kept;
- AlpacaEval's preferences: ``1`` (the first output), ``2`` (the second) and
  ``1.5`` (a draw), as strings or numbers.

A verdict is stored as the score of ``generator_a``: 1.0 (a), 0.5 (tie),
0.0 (b), NaN (no verdict), so that swapping the two generators is ``1 - score``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from regression.checks import plain
from regression.errors import InputError

__all__ = [
    "POSITIONS",
    "VERDICTS",
    "VERDICT_WORDS",
    "VerdictError",
    "decode_positions",
    "decode_verdicts",
    "verdict_words",
]

#: The canonical verdicts, in the order of the score of ``generator_a`` (1, 0.5, 0).
VERDICTS = ("a", "tie", "b")
#: Which answer was shown first: ``"ab"`` generator_a's (the default), ``"ba"`` generator_b's.
POSITIONS = ("ab", "ba")

_A = ("a", "model_a", "a>b", "a>>b", "b<a", "b<<a", "1")
_TIE = ("tie", "tie (bothbad)", "a=b", "b=a", "1.5")
_B = ("b", "model_b", "b>a", "b>>a", "a<b", "a<<b", "2")
#: Every spelling read, lower-cased, mapped to the score of generator_a.
VERDICT_WORDS: dict[str, float] = {
    **dict.fromkeys(_A, 1.0),
    **dict.fromkeys(_TIE, 0.5),
    **dict.fromkeys(_B, 0.0),
}
_NUMBERS = {1.0: 1.0, 1.5: 0.5, 2.0: 0.0}


class VerdictError(InputError):
    """A verdict (or position) word outside the vocabulary; ``value`` is the word, ``row`` its row."""


def verdict_words() -> str:
    """The vocabulary as one line, for messages and docs."""
    return (
        f"'a': {', '.join(map(repr, _A))}; 'tie': {', '.join(map(repr, _TIE))}; "
        f"'b': {', '.join(map(repr, _B))} (any case; the numbers 1, 1.5 and 2 too)"
    )


def _word(value: Any) -> float | None:
    """One value's score of generator_a, or None when it is no verdict word."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return _NUMBERS.get(float(value))
    if isinstance(value, str):
        return VERDICT_WORDS.get(value.strip().lower())
    return None


def decode_verdicts(values: pd.Series, name: str, column: str) -> np.ndarray:
    """Verdicts as the score of generator_a (1.0, 0.5, 0.0), NaN where missing.

    Decoded once per distinct value, so a million rows cost milliseconds.

    Raises
    ------
    VerdictError
        Naming the first value outside :data:`VERDICT_WORDS`, its row and the words read.
    """
    codes, uniques = pd.factorize(values.to_numpy(dtype=object), use_na_sentinel=True)
    table = np.full(len(uniques) + 1, np.nan)  # code -1: missing
    for j, value in enumerate(uniques):
        score = _word(value)
        if score is None:
            row = int(np.flatnonzero(codes == j)[0])
            raise VerdictError(
                f"{name} has {plain(value)!r} in column {column!r} at row {row}, not a verdict; "
                f"the words read are {verdict_words()}.",
                row=row,
                column=column,
                value=plain(value),
            )
        table[j] = score
    return table[codes]


def decode_positions(frame: pd.DataFrame, name: str) -> np.ndarray:
    """Each row's position as 0 (``"ab"``: generator_a shown first) or 1 (``"ba"``).

    A table without a ``position`` column, or a missing entry, is ``"ab"``.

    Raises
    ------
    VerdictError
        Naming the first position that is neither ``"ab"`` nor ``"ba"`` (any case), and its row.
    """
    if "position" not in frame.columns:
        return np.zeros(len(frame), dtype=np.int8)
    codes, uniques = pd.factorize(frame["position"].to_numpy(dtype=object), use_na_sentinel=True)
    table = np.zeros(len(uniques) + 1, dtype=np.int8)
    for j, value in enumerate(uniques):
        word = value.strip().lower() if isinstance(value, str) else None
        if word not in POSITIONS:
            row = int(np.flatnonzero(codes == j)[0])
            raise VerdictError(
                f"{name} has position {plain(value)!r} at row {row}; a position is 'ab' "
                "(generator_a's answer shown first) or 'ba'.",
                row=row,
                column="position",
                value=plain(value),
            )
        table[j] = POSITIONS.index(word)
    return table[codes]
