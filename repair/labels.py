"""Label normalisation: case, punctuation, synonyms and invented labels such as "partially valid".

The validator prompt (agreeableness paper, App. A.2) asks for
``"classification": "valid" | "invalid"``. Validators also answer ``"Valid"``,
``"INVALID."``, ``"correct"``, ``true``, ``"yes"`` or invent a label
(``"partially valid"``). The paper's label repair (§4, App. B.3) maps such
answers to valid / invalid; :class:`LabelPolicy` says how, and every label that
needed mapping is counted in the repair report.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from regression.checks import FALSE_STRINGS, TRUE_STRINGS

__all__ = [
    "DEFAULT_INVALID_SYNONYMS",
    "DEFAULT_VALID_SYNONYMS",
    "INVENTED_POLICIES",
    "LABEL_EXACT",
    "LABEL_INVENTED",
    "LABEL_MISSING",
    "LABEL_SYNONYM",
    "LabelPolicy",
    "canonical_label_text",
    "normalise_label",
    "strict_label",
]

#: How a label was read: exactly as asked, a synonym, invented, or absent.
LABEL_EXACT, LABEL_SYNONYM, LABEL_INVENTED, LABEL_MISSING = (
    "exact",
    "synonym",
    "invented",
    "missing",
)

#: What an invented label becomes: the invalid class (default), the valid class, or a missing vote.
INVENTED_POLICIES = ("invalid", "valid", "missing")

#: Answers read as "valid" (after :func:`canonical_label_text`).
DEFAULT_VALID_SYNONYMS = frozenset(TRUE_STRINGS) | frozenset(
    {
        "correct",
        "yes",
        "y",
        "accurate",
        "right",
        "ok",
        "okay",
        "good",
        "pass",
        "passed",
        "agree",
        "acceptable",
        "is valid",
        "fully valid",
        "completely valid",
    }
)
#: Answers read as "invalid" (after :func:`canonical_label_text`).
DEFAULT_INVALID_SYNONYMS = frozenset(FALSE_STRINGS) | frozenset(
    {
        "incorrect",
        "no",
        "n",
        "inaccurate",
        "wrong",
        "not valid",
        "not correct",
        "fail",
        "failed",
        "bad",
        "disagree",
        "unacceptable",
        "is invalid",
        "erroneous",
    }
)

_NON_WORD = re.compile(r"[\W_]+")


def canonical_label_text(text: str) -> str:
    """Lower case, punctuation and underscores to spaces, white space collapsed.

    Examples
    --------
    >>> canonical_label_text("  Partially-Valid. "), canonical_label_text("**INVALID**")
    ('partially valid', 'invalid')
    """
    return _NON_WORD.sub(" ", text.lower()).strip()


@dataclass(frozen=True)
class LabelPolicy:
    """How validator labels become 1 (valid) / 0 (invalid) / missing.

    Parameters
    ----------
    invented : {'invalid', 'valid', 'missing'}, default 'invalid'
        What a label outside both synonym sets becomes (``"partially valid"``,
        ``"needs improvement"``, a number other than 0 / 1). The default reads
        it as invalid, since a hedge is not a clean endorsement of the feedback;
        ``'missing'`` leaves the vote missing instead. Either way it is counted
        in the repair report.
    valid, invalid : frozenset of str
        The synonyms of each class, compared after :func:`canonical_label_text`.

    Raises
    ------
    ValueError
        If ``invented`` is not one of the three policies, or a word is in both sets.

    Notes
    -----
    Agreeableness paper §4 ("label standardization ... mapping 'incorrect' to
    'invalid'") and App. B.3 (the invented label "partially valid").

    Examples
    --------
    >>> LabelPolicy().invented
    'invalid'
    >>> LabelPolicy(invented="maybe")
    Traceback (most recent call last):
    ...
    ValueError: invented ('maybe') not recognized; must be one of ('invalid', 'valid', 'missing').
    """

    invented: str = "invalid"
    valid: frozenset[str] = DEFAULT_VALID_SYNONYMS
    invalid: frozenset[str] = DEFAULT_INVALID_SYNONYMS

    def __post_init__(self) -> None:
        if self.invented not in INVENTED_POLICIES:
            raise ValueError(
                f"invented ({self.invented!r}) not recognized; must be one of {INVENTED_POLICIES}."
            )
        for name in ("valid", "invalid"):
            words = getattr(self, name)
            if isinstance(words, str) or not all(isinstance(w, str) for w in words):
                raise ValueError(f"{name} must be a set of strings; got {words!r}.")
            object.__setattr__(self, name, frozenset(canonical_label_text(w) for w in words))
        both = sorted(self.valid & self.invalid)
        if both:
            raise ValueError(f"label synonym(s) {both} are in both the valid and the invalid set.")

    @property
    def invented_label(self) -> float:
        """The value an invented label takes: 0.0, 1.0 or NaN."""
        return {"invalid": 0.0, "valid": 1.0, "missing": math.nan}[self.invented]


def strict_label(value: Any) -> float:
    """The label as the prompt asks for it: exactly ``"valid"`` (1.0) or ``"invalid"`` (0.0), else NaN.

    Examples
    --------
    >>> strict_label("valid"), strict_label("invalid"), strict_label("Valid")
    (1.0, 0.0, nan)
    """
    if value == "valid" and isinstance(value, str):
        return 1.0
    if value == "invalid" and isinstance(value, str):
        return 0.0
    return math.nan


def normalise_label(value: Any, policy: LabelPolicy) -> tuple[float, str, str]:
    """Read one validator label under ``policy``.

    Parameters
    ----------
    value : object
        The validator's label: a string, a bool, a number, ``None`` (absent), ...
    policy : LabelPolicy

    Returns
    -------
    label : float
        1.0 valid, 0.0 invalid, NaN missing.
    kind : str
        ``'exact'``, ``'synonym'``, ``'invented'`` or ``'missing'``.
    text : str
        The canonical text of the label (for the report); ``''`` when absent.

    Notes
    -----
    Agreeableness paper §4 and App. B.3 (label repairs). Never raises.

    Examples
    --------
    >>> policy = LabelPolicy()
    >>> normalise_label("valid", policy), normalise_label(" Incorrect. ", policy)
    ((1.0, 'exact', 'valid'), (0.0, 'synonym', 'incorrect'))
    >>> normalise_label(True, policy), normalise_label("Partially valid", policy)
    ((1.0, 'synonym', 'true'), (0.0, 'invented', 'partially valid'))
    >>> normalise_label("Partially valid", LabelPolicy(invented="missing"))
    (nan, 'invented', 'partially valid')
    >>> normalise_label(None, policy)
    (nan, 'missing', '')
    """
    if value is None:
        return math.nan, LABEL_MISSING, ""
    if isinstance(value, str):
        exact = strict_label(value)
        if not math.isnan(exact):
            return exact, LABEL_EXACT, value
        text = canonical_label_text(value[:200])
        if not text:
            return math.nan, LABEL_MISSING, ""
    elif isinstance(value, (bool, np.bool_)):
        text = "true" if value else "false"
    elif isinstance(value, (int, float, np.integer, np.floating)):
        if isinstance(value, (float, np.floating)) and math.isnan(value):
            return math.nan, LABEL_MISSING, ""
        text = "1" if value == 1 else "0" if value == 0 else "number"
    else:
        try:
            text = canonical_label_text(repr(value)[:200])
        except (ValueError, RecursionError):  # an int too long to print, a self-referencing list
            text = type(value).__name__
    if text in policy.valid:
        return 1.0, LABEL_SYNONYM, text
    if text in policy.invalid:
        return 0.0, LABEL_SYNONYM, text
    return policy.invented_label, LABEL_INVENTED, text
