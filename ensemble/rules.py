"""The voting rules on vote counts: which rules and policies exist, their thresholds, the labels.

:class:`VoteTally` holds the per-item counts every rule reads;
:func:`labels_from_tally` applies a rule at a threshold to them (agreeableness
paper, section 4); :func:`default_threshold` is each rule's threshold when none
is given. :mod:`ensemble.voting` reads votes into a tally and labels items;
:mod:`ensemble.threshold` sweeps thresholds over one tally.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ensemble.options import RULES

__all__ = [
    "VoteTally",
    "check_missing",
    "check_rule",
    "check_threshold",
    "default_threshold",
    "labels_from_tally",
]


@dataclass(frozen=True)
class VoteTally:
    """Per-item vote counts: the sufficient statistic of every rule.

    Attributes
    ----------
    n_valid, n_invalid, n_missing : ndarray of int64, shape (n_items,)
        Valid, invalid and missing votes per item; they sum to ``n_validators``.
    n_validators : int
        V, the number of validators (columns of the vote matrix).
    """

    n_valid: np.ndarray
    n_invalid: np.ndarray
    n_missing: np.ndarray
    n_validators: int

    @property
    def n_items(self) -> int:
        """The number of items."""
        return int(self.n_valid.shape[0])

    @property
    def n_cast(self) -> np.ndarray:
        """Votes cast (valid + invalid) per item."""
        return self.n_valid + self.n_invalid

    @property
    def no_vote(self) -> np.ndarray:
        """Boolean mask of the items that no validator labelled."""
        return self.n_cast == 0

    @property
    def n_no_vote(self) -> int:
        """How many items no validator labelled."""
        return int(np.count_nonzero(self.no_vote))

    @property
    def missing_fraction(self) -> float:
        """The fraction of all votes that are missing."""
        return float(self.n_missing.sum() / (self.n_items * self.n_validators))


def default_threshold(rule: str, n_validators: int) -> int:
    """The threshold a rule uses when none is given.

    ``"majority"``: ``V // 2 + 1``; ``"supermajority"``: ``ceil(2 V / 3)``;
    ``"minority_veto"``: ``V - ceil(2 V / 3) + 1``, the veto that mirrors
    supermajority when no vote is missing (4 of 12, 5 of 14). The paper's n = 4
    of 14 was picked on calibration data; do the same with ``pick_threshold``.

    Examples
    --------
    >>> [default_threshold(r, 14) for r in ("majority", "supermajority", "minority_veto")]
    [8, 10, 5]
    """
    check_rule(rule)
    v = int(n_validators)
    if v < 1:
        raise ValueError(f"n_validators ({n_validators!r}) must be at least 1.")
    two_thirds = -(-2 * v // 3)
    return {
        "majority": v // 2 + 1,
        "supermajority": two_thirds,
        "minority_veto": v - two_thirds + 1,
    }[rule]


def check_rule(rule: str) -> str:
    """Return ``rule``, raising unless it is one of :data:`RULES`."""
    if not isinstance(rule, str) or rule not in RULES:
        raise ValueError(
            f"rule ({rule!r}) not recognized; must be 'majority', 'supermajority' or 'minority_veto'."
        )
    return rule


def check_missing(missing: str | None) -> str | None:
    """Return ``missing``, raising unless it is one of :data:`MISSING_POLICIES`."""
    if not (missing is None or (isinstance(missing, str) and missing == "ignore")):
        raise ValueError(
            f"missing ({missing!r}) not recognized; must be None (the paper's behaviour) or 'ignore'."
        )
    return missing


def check_threshold(threshold: Any, rule: str, n_validators: int) -> int:
    """Return ``threshold`` as a whole number of votes in ``1..n_validators`` (None: the rule's default)."""
    if threshold is None:
        return default_threshold(rule, n_validators)
    whole = isinstance(threshold, (int, np.integer)) and not isinstance(threshold, (bool, np.bool_))
    if not whole and isinstance(threshold, (float, np.floating)) and float(threshold).is_integer():
        whole = True
    if not whole:
        raise ValueError(
            f"threshold ({threshold!r}) must be a whole number of votes in 1..{n_validators}."
        )
    k = int(threshold)
    if not 1 <= k <= n_validators:
        raise ValueError(
            f"threshold ({threshold!r}) must lie in 1..{n_validators} (the number of validators)."
        )
    return k


def labels_from_tally(tally: VoteTally, rule: str, k: int, missing: str | None) -> np.ndarray:
    """Item labels from vote counts: ``rule`` at threshold ``k`` (what :func:`vote` returns).

    Integer arithmetic on the counts, so exact; a threshold sweep reuses one
    tally for every ``k``.

    Parameters
    ----------
    tally : VoteTally
    rule : {'majority', 'supermajority', 'minority_veto'}
    k : int
        The threshold, a whole number in ``1..tally.n_validators``.
    missing : {None, 'ignore'}

    Returns
    -------
    ndarray of float
        1.0 valid, 0.0 invalid, NaN (under ``missing='ignore'``) no vote cast.

    Raises
    ------
    ValueError
        An unknown ``rule`` / ``missing``, or ``k`` outside ``1..n_validators``.

    Examples
    --------
    >>> tally = VoteTally(np.array([2, 1]), np.array([1, 2]), np.array([0, 0]), n_validators=3)
    >>> labels_from_tally(tally, "majority", 2, None)
    array([1., 0.])
    """
    check_rule(rule)
    check_missing(missing)
    k = check_threshold(k, rule, tally.n_validators)
    decisive = tally.n_invalid if rule == "minority_veto" else tally.n_valid
    if missing is None:
        reached = decisive >= k
    else:
        # decisive / n_cast >= k / V, cross-multiplied.
        reached = decisive * tally.n_validators >= k * tally.n_cast
    labels = (~reached if rule == "minority_veto" else reached).astype(float)
    if missing == "ignore":
        labels[tally.no_vote] = np.nan
    return labels
