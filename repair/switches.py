"""The repair switches: which repairs :func:`repair.repair_judgments` may apply.

The agreeableness paper released its data at four repair levels (§4, App. B.3;
:data:`PAPER_LEVELS`): outputs as produced, fuzzy feedback
matching, + line-number repairs, + label repairs. jurycal adds a fifth switch,
tolerant parsing, which the paper's levels leave out (its repairs start from
parsed JSON). Switches combine with ``|``.
"""

from __future__ import annotations

import enum

__all__ = [
    "ALL",
    "FEEDBACK",
    "FUZZY_THRESHOLD",
    "LABELS",
    "LINES",
    "NONE",
    "PAPER_LEVELS",
    "PARSING",
    "Repair",
    "check_repairs",
]


#: How similar a response's text must be to an item's to match it unless told (rapidfuzz's
#: score, 0 to 100); here, in a module that imports nothing heavy, so that ``jurycal repair``
#: offers it without importing pandas.
FUZZY_THRESHOLD = 85


class Repair(enum.Flag):
    """One repair each; combine with ``|``.

    * ``PARSING``: tolerant parsing of the response (prose and fences, trailing
      commas, single quotes, Python literals, cut-off output, a top-level list,
      other names for the entry list).
    * ``FEEDBACK``: fuzzy alignment of the validator's feedback text with the
      generator's (rapidfuzz), and other keys for the feedback text.
    * ``LINES``: line-number formats and keys; a range matched by its start
      line; the line only breaks near-ties, a missing or wrong line does not
      block a match.
    * ``LABELS``: case, punctuation, synonyms, other keys for the label, and
      invented labels mapped by the label policy.

    Examples
    --------
    >>> (FEEDBACK | LINES) in ALL, LINES in FEEDBACK
    (True, False)
    >>> PAPER_LEVELS["feedback+lines"] == FEEDBACK | LINES
    True
    """

    PARSING = enum.auto()
    FEEDBACK = enum.auto()
    LINES = enum.auto()
    LABELS = enum.auto()


NONE = Repair(0)
PARSING, FEEDBACK, LINES, LABELS = Repair.PARSING, Repair.FEEDBACK, Repair.LINES, Repair.LABELS
ALL = PARSING | FEEDBACK | LINES | LABELS

#: The paper's four data versions, by the names of its released files (the bundled data's
#: ``regression.datasets.REPAIR_LEVELS`` takes its names from here).
PAPER_LEVELS: dict[str, Repair] = {
    "none": NONE,
    "feedback": FEEDBACK,
    "feedback+lines": FEEDBACK | LINES,
    "feedback+lines+labels": FEEDBACK | LINES | LABELS,
}


def check_repairs(repairs: object) -> Repair:
    """Return ``repairs`` if it is a :class:`Repair` value, else raise a ``ValueError``.

    Examples
    --------
    >>> check_repairs("feedback")
    Traceback (most recent call last):
    ...
    ValueError: repairs ('feedback') must be a Repair flag such as ALL, NONE or FEEDBACK | LINES; for the paper's levels use PAPER_LEVELS['feedback'].
    """
    if isinstance(repairs, Repair):
        return repairs
    hint = (
        f"; for the paper's levels use PAPER_LEVELS[{repairs!r}]"
        if isinstance(repairs, str) and repairs in PAPER_LEVELS
        else ""
    )
    raise ValueError(
        f"repairs ({repairs!r}) must be a Repair flag such as ALL, NONE or FEEDBACK | LINES{hint}."
    )
