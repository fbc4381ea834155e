"""Ensemble voting over many validators: majority, supermajority and minority veto.

Agreeableness paper (``002``), section 4 and Fig. 5. Each validator casts a
vote per item: 1 (valid), 0 (invalid) or missing (NaN: the validator's output
could not be parsed or aligned, App. B.2). The rules:

* ``"majority"`` -- valid iff the number of valid votes is at least the
  threshold k (default ``V // 2 + 1`` of all ``V`` validators; the paper's
  *Simple Majority* is k = 8 of 14). This is the paper's *valid voting*
  family: ``paper_ensemble_errors.csv``'s ``valid_voting`` at k is
  ``vote(votes, "majority", threshold=k)``.
* ``"supermajority"`` -- the same rule with a higher default threshold,
  ``ceil(2 V / 3)`` (the paper's *Super Majority*, 10 of 14).
* ``"minority_veto"`` -- invalid iff the number of invalid votes is at least
  the threshold n (the paper's *Minority Veto*; it picked n = 4 of 14 on its
  calibration data). ``paper_ensemble_errors.csv``'s ``minority_veto`` at k is
  ``vote(votes, "minority_veto", threshold=k)``.

Missing votes, ``missing=None`` (the paper's behaviour): a missing vote is
neither a valid nor an invalid vote, so it counts against "valid" under the
valid-voting rules and against "invalid" under the veto. ``missing="ignore"``
applies the rule to the votes that were cast, as a fraction: valid iff
``n_valid / n_cast >= k / V`` (veto: invalid iff ``n_invalid / n_cast >= k / V``),
and an item with no vote cast is returned as missing (NaN), never silently
valid or invalid. Under either policy, items with no vote cast are counted and
reported (a :class:`NoVoteWarning`; :func:`tally_votes` gives the counts).

Absent validators: in the judgments table a validator that judged none of a
generator's items (one AlpacaEval annotator per model, a judge added for some
models only) is *absent* for that generator, not missing on every one of its
items. :func:`vote_judgments` (and :func:`vote` given the judgments table)
votes each generator among the validators present for it: V is their number,
the default threshold is the rule's for that V, and the missing-vote policy
above applies to their votes. With every validator present for every
generator this is the paper's vote over the whole matrix.

Without missing votes the two families mirror each other: valid voting at k
labels every item exactly as the minority veto at ``V - k + 1`` (the caption
of Fig. 5).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ensemble.rules import (
    VoteTally,
    check_missing,
    check_rule,
    check_threshold,
    default_threshold,
    labels_from_tally,
)
from regression.checks import JUDGMENT_COLUMNS, coerce_binary, plain, require_columns
from regression.errors import JurycalWarning, MissingValueError

__all__ = [
    "NoVoteWarning",
    "present_validators",
    "read_votes",
    "tally_votes",
    "vote",
    "vote_matrices",
    "vote_judgments",
    "vote_matrix",
]


class NoVoteWarning(JurycalWarning):
    """Some items had no vote cast by any validator; the message says how many and what they got."""


def tally_votes(votes: Any) -> VoteTally:
    """Count valid, invalid and missing votes per item.

    Parameters
    ----------
    votes : array-like or DataFrame
        Items x validators with 1 (valid), 0 (invalid), NaN (missing), or the
        long judgments table (``generator, item, validator, label``).

    Returns
    -------
    VoteTally

    Raises
    ------
    ValueError
        For an empty matrix or a vote other than 0, 1 or missing (naming it).

    Examples
    --------
    >>> t = tally_votes([[1, 0, np.nan], [np.nan, np.nan, np.nan]])
    >>> t.n_valid.tolist(), t.n_invalid.tolist(), t.n_no_vote
    ([1, 0], [1, 0], 1)
    """
    return read_votes(votes)[2]


def vote(
    votes: Any, rule: str, threshold: int | None = None, missing: str | None = None
) -> np.ndarray | pd.Series:
    """Label each item valid (1.0) or invalid (0.0) by a voting rule over its validators.

    Parameters
    ----------
    votes : array-like, DataFrame
        Items x validators: 1 valid, 0 invalid, NaN / ``pd.NA`` missing. Or the
        long judgments table (``generator, item, validator, label``), which is
        pivoted by :func:`vote_matrix` first (a (generator, item) pair that a
        validator did not label is a missing vote).
    rule : {"majority", "supermajority", "minority_veto"}
        See the module docstring.
    threshold : int, optional
        k, in ``1..V`` (V = number of validators): the number of valid votes
        needed for "valid" (majority, supermajority) or of invalid votes needed
        for a veto (minority_veto). Default :func:`default_threshold`.
    missing : {None, "ignore"}
        ``None`` (the paper's behaviour): a missing vote is neither valid nor
        invalid. ``"ignore"``: the rule applies to the votes cast, as the
        fraction ``k / V`` of them; items with no vote are returned as NaN.

    Returns
    -------
    labels : ndarray or Series of float
        1.0 valid, 0.0 invalid, NaN (only with ``missing="ignore"``) for items
        with no vote. A wide DataFrame gives a Series with its index kept; the
        judgments table gives a Series indexed by (generator, item).

    Raises
    ------
    ValueError
        For an unknown rule or policy, a threshold outside ``1..V``, an empty
        matrix, or a vote other than 0, 1 or missing.

    Warns
    -----
    NoVoteWarning
        When some items had no vote cast, with their count and how they were
        labelled (invalid under majority, valid under the veto, NaN under
        ``missing="ignore"``).

    Notes
    -----
    Agreeableness paper, section 4 and Fig. 5. Vectorised over items: the
    labels come from the per-item counts of :func:`tally_votes`.

    Examples
    --------
    Three validators; the second item has one missing vote, the third two.

    >>> v = np.array([[1, 1, 0], [1, np.nan, 0], [np.nan, np.nan, 0]])
    >>> vote(v, "majority")  # 2 of 3 valid votes needed; missing is not valid
    array([1., 0., 0.])
    >>> vote(v, "minority_veto", threshold=2)  # 2 invalid votes veto; missing is not invalid
    array([1., 1., 1.])
    >>> vote(v, "minority_veto", threshold=2, missing="ignore")  # 2/3 of the votes cast
    array([1., 1., 0.])

    An item with no vote cast is reported, and under ``missing="ignore"`` left unlabelled:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     labels = vote([[1, 1, 0], [np.nan] * 3], "majority", missing="ignore")
    >>> labels
    array([ 1., nan])
    >>> print(caught[0].message)
    1 of 2 item(s) had no vote cast by any of the 3 validators; labelled NaN (rule='majority', missing='ignore').
    """
    check_rule(rule)
    check_missing(missing)
    if isinstance(votes, pd.DataFrame) and set(JUDGMENT_COLUMNS) <= set(votes.columns):
        return vote_judgments(votes, rule, threshold, missing)[0]
    values, index, tally = read_votes(votes)
    k = check_threshold(threshold, rule, values.shape[1])
    labels = labels_from_tally(tally, rule, k, missing)
    if tally.n_no_vote:
        got = "NaN" if missing == "ignore" else ("valid" if rule == "minority_veto" else "invalid")
        warnings.warn(
            f"{tally.n_no_vote} of {tally.n_items} item(s) had no vote cast by any of the "
            f"{tally.n_validators} validators; labelled {got} (rule={rule!r}, missing={missing!r}).",
            NoVoteWarning,
            stacklevel=2,
        )
    if index is None:
        return labels
    return pd.Series(labels, index=index, name="label")


def present_validators(judgments: pd.DataFrame) -> dict[Any, list[Any]]:
    """The validators present for each generator: those with at least one row for its items.

    A row with a missing label counts as present (the validator was asked and
    gave no usable verdict); a validator with no row for any of a
    generator's items is absent for it.

    Examples
    --------
    >>> j = pd.DataFrame({"generator": ["g", "g", "h"], "item": [0, 0, 0],
    ...                   "validator": ["a", "b", "a"], "label": [1, None, 0]})
    >>> present_validators(j)
    {'g': ['a', 'b'], 'h': ['a']}
    """
    require_columns(judgments, JUDGMENT_COLUMNS, "judgments")
    pairs = judgments[["generator", "validator"]].drop_duplicates()
    present: dict[Any, list[Any]] = {}
    for generator, validator in zip(pairs["generator"], pairs["validator"], strict=True):
        present.setdefault(plain(generator), []).append(plain(validator))
    return present


def vote_judgments(
    judgments: pd.DataFrame, rule: str, threshold: int | None = None, missing: str | None = None
) -> tuple[pd.Series, pd.DataFrame]:
    """Vote each generator's items among the validators present for that generator.

    Parameters
    ----------
    judgments : DataFrame
        The judgments table (``generator, item, validator, label``).
    rule, missing
        As in :func:`vote`.
    threshold : int, optional
        k for every generator, in ``1..V_g`` (V_g = the validators present
        for generator g). Default: the rule's :func:`default_threshold` for
        each generator's V_g.

    Returns
    -------
    labels : Series of float
        Indexed by (generator, item), in the order of :func:`vote_matrix`.
    panel : DataFrame
        One row per generator: ``n_validators`` (present), ``threshold``
        (the k used), ``absent`` (the validators that judged none of its
        items, comma-separated, empty when none).

    Raises
    ------
    ValueError
        As :func:`vote`, and for a ``threshold`` above a generator's V_g
        (naming the generator).

    Notes
    -----
    Agreeableness paper, section 4: the vote of an ensemble is taken over
    the validators that judged the item's generator; a validator never asked
    about a generator is not a missing vote on each of its items (which
    would make every item of that generator fail a majority).

    Examples
    --------
    Annotator ``a`` judged only generator ``g``, annotator ``b`` only ``h``:

    >>> j = pd.DataFrame({"generator": ["g", "g", "h", "h"], "item": [0, 1, 0, 1],
    ...                   "validator": ["a", "a", "b", "b"], "label": [1, 0, 1, 1]})
    >>> labels, panel = vote_judgments(j, "majority")
    >>> labels.tolist()
    [1.0, 0.0, 1.0, 1.0]
    >>> panel["absent"].tolist()
    ['b', 'a']
    """
    check_rule(rule)
    check_missing(missing)
    wide = vote_matrix(judgments)
    present = present_validators(judgments)
    generators = wide.index.get_level_values("generator")
    labels = pd.Series(np.nan, index=wide.index, name="label")
    rows = []
    for generator in pd.unique(np.asarray(generators)):
        mask = np.asarray(generators == generator)
        columns = [v for v in wide.columns if plain(v) in present[plain(generator)]]
        k = default_threshold(rule, len(columns)) if threshold is None else threshold
        if threshold is not None and not 1 <= threshold <= len(columns):
            raise ValueError(
                f"threshold ({threshold!r}) must be in 1..{len(columns)} for generator "
                f"{plain(generator)!r}, which {len(columns)} validator(s) judged."
            )
        labels[mask] = np.asarray(vote(wide.loc[mask, columns], rule, k, missing), dtype=float)
        absent = [str(v) for v in wide.columns if v not in columns]
        rows.append((plain(generator), len(columns), k, ", ".join(absent)))
    panel = pd.DataFrame(rows, columns=["generator", "n_validators", "threshold", "absent"])
    return labels, panel.set_index("generator")


def vote_matrix(judgments: pd.DataFrame) -> pd.DataFrame:
    """Pivot the long judgments table into one items x validators vote matrix.

    Parameters
    ----------
    judgments : DataFrame
        Columns ``generator, item, validator, label`` (1 / 0 / missing), one row per vote.

    Returns
    -------
    DataFrame
        Indexed by (``generator``, ``item``) in order of first appearance, one
        float column per validator (1.0, 0.0, NaN). A pair a validator did not
        label is NaN, a missing vote.

    Raises
    ------
    ValueError
        For missing columns, an empty table, a missing generator / item /
        validator, a label other than 0, 1 or missing, or a duplicated
        (generator, item, validator) vote (each names the value).

    Examples
    --------
    >>> j = pd.DataFrame({"generator": ["g", "g", "g"], "item": [0, 0, 1],
    ...                   "validator": ["a", "b", "a"], "label": [1, 0, 1]})
    >>> vote_matrix(j)
    validator         a    b
    generator item
    g         0     1.0  0.0
              1     1.0  NaN
    """
    require_columns(judgments, JUDGMENT_COLUMNS, "judgments")
    if len(judgments) == 0:
        raise ValueError("judgments is empty; expected at least one vote.")
    for column in ("generator", "item", "validator"):
        absent = judgments[column].isna().to_numpy()
        if absent.any():
            position = int(np.flatnonzero(absent)[0])
            raise MissingValueError(
                f"judgments has a missing {column} at row {judgments.index[position]!r}.",
                row=position,
                column=column,
            )
    labels = coerce_binary("judgments label", judgments["label"], allow_missing=True)
    # (generator, item) pairs in order of first appearance, factorised as integers
    # (factorising the tuples themselves is ~10x slower on a million rows).
    generator_codes, generators = pd.factorize(judgments["generator"])
    item_codes_raw, item_values = pd.factorize(judgments["item"])
    n_item_values = max(len(item_values), 1)
    pair_key = generator_codes.astype(np.int64) * n_item_values + item_codes_raw
    item_codes, pair_keys = pd.factorize(pair_key)
    index = pd.MultiIndex(
        levels=[generators, item_values],
        codes=[pair_keys // n_item_values, pair_keys % n_item_values],
        names=["generator", "item"],
    )
    validator_codes, validators = pd.factorize(judgments["validator"])
    n_validators = len(validators)
    flat = item_codes.astype(np.int64) * n_validators + validator_codes
    counts = np.bincount(flat, minlength=len(index) * n_validators)
    if counts.max() > 1:
        first = int(np.flatnonzero(counts[flat] > 1)[0])
        row = judgments.iloc[first]
        raise ValueError(
            f"judgments has {int((counts > 1).sum())} duplicated vote(s); first: generator "
            f"{plain(row['generator'])!r}, item {plain(row['item'])!r}, validator "
            f"{plain(row['validator'])!r}."
        )
    matrix = np.full(len(index) * n_validators, np.nan)
    matrix[flat] = labels
    return pd.DataFrame(
        matrix.reshape(len(index), n_validators),
        index=index,
        columns=pd.Index(validators, name="validator"),
    )


def vote_matrices(judgments: pd.DataFrame) -> dict[Any, pd.DataFrame]:
    """One items x validators vote matrix per generator (index ``item``), from the judgments table.

    All matrices share the same validator columns (those of the whole table).

    Examples
    --------
    >>> j = pd.DataFrame({"generator": ["g", "h"], "item": [0, 0],
    ...                   "validator": ["a", "a"], "label": [1, 0]})
    >>> {g: m["a"].tolist() for g, m in vote_matrices(j).items()}
    {'g': [1.0], 'h': [0.0]}
    """
    wide = vote_matrix(judgments)
    generators = wide.index.get_level_values("generator")
    return {
        g: wide[generators == g].droplevel("generator") for g in pd.unique(np.asarray(generators))
    }


def read_votes(votes: Any) -> tuple[np.ndarray, pd.Index | None, VoteTally]:
    """Votes as a checked float matrix, with the index to label items by and the tally.

    Parameters
    ----------
    votes : array-like, DataFrame or judgments table
        As :func:`vote` takes them.

    Returns
    -------
    (values, index, tally)
        ``values``: float (items x validators), 1.0 / 0.0 / NaN; ``index``: the
        DataFrame's row index (None for arrays); ``tally``: :class:`VoteTally`.

    Raises
    ------
    ValueError
        Naming the first entry that is not 1, 0 or missing, or a shape that is
        not a non-empty matrix.

    Examples
    --------
    >>> values, index, tally = read_votes([[1, 0, np.nan]])
    >>> index is None, tally.n_valid.tolist(), tally.n_missing.tolist()
    (True, [1], [1])
    """
    index: pd.Index | None = None
    if isinstance(votes, pd.DataFrame):
        if set(JUDGMENT_COLUMNS) <= set(votes.columns):
            votes = vote_matrix(votes)
        index = votes.index
        try:
            values = votes.to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError):
            values = _first_non_numeric(votes.to_numpy(dtype=object))
    elif isinstance(votes, Mapping):
        raise ValueError(
            "votes must be an items x validators matrix or the judgments table, not a mapping; "
            "vote on each generator's matrix separately."
        )
    else:
        try:
            values = np.asarray(votes, dtype=float)
        except (TypeError, ValueError):
            values = _first_non_numeric(np.asarray(votes, dtype=object))
    if values.ndim != 2:
        raise ValueError(
            f"votes must be a 2-D items x validators matrix; got {values.ndim} dimension(s) "
            f"with shape {values.shape}."
        )
    if values.size == 0:
        raise ValueError(
            f"votes is empty (shape {values.shape}); expected at least one item and one validator."
        )
    tally = _tally(values)
    if (tally.n_valid + tally.n_invalid + tally.n_missing != values.shape[1]).any():
        bad = ~(np.isnan(values) | (values == 0.0) | (values == 1.0))
        item, validator = np.argwhere(bad)[0]
        raise ValueError(
            f"votes must be 1 (valid), 0 (invalid) or NaN (missing); got "
            f"{values[item, validator].item()!r} at item {int(item)}, validator {int(validator)}."
        )
    return values, index, tally


def _first_non_numeric(values: np.ndarray) -> np.ndarray:
    """Raise naming the first entry that is neither a number nor missing."""
    for position, v in np.ndenumerate(values):
        if v is None or v is pd.NA:
            continue
        try:
            float(v)
        except (TypeError, ValueError):
            raise ValueError(
                f"votes must be 1 (valid), 0 (invalid) or NaN (missing); got {v!r} at "
                f"position {tuple(int(p) for p in position)}."
            ) from None
    return np.array(
        [[np.nan if v is None or v is pd.NA else float(v) for v in row] for row in values]
    )


def _tally(values: np.ndarray) -> VoteTally:
    """Per-item counts; ``n_missing`` counts NaN only, so with bad entries the three fall short of V."""
    n_valid = _row_counts(values == 1.0)
    n_invalid = _row_counts(values == 0.0)
    n_missing = _row_counts(np.isnan(values))
    return VoteTally(
        n_valid=n_valid, n_invalid=n_invalid, n_missing=n_missing, n_validators=int(values.shape[1])
    )


def _row_counts(mask: np.ndarray) -> np.ndarray:
    """True entries per row, as int64. A uint8 product is exact below 256 columns and ~2x faster
    than ``count_nonzero(axis=1)`` on a tall, narrow matrix."""
    n_columns = mask.shape[1]
    if n_columns < 256:
        counts = mask.view(np.uint8) @ np.ones(n_columns, dtype=np.uint8)
    else:
        counts = mask.sum(axis=1)
    return np.asarray(counts, dtype=np.int64)
