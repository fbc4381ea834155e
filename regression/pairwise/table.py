"""Pairwise verdicts and human votes, checked once into a :class:`PairwiseTable`.

A *battle* is one item (a prompt) answered by two generators; the same item
may be played by several pairs (AlpacaEval, MT-Bench and Arena-Hard-Auto set
every model against a baseline on one prompt set), so a battle is an item
and an unordered pair of generators. Each judge's verdict on a battle is a
row of the verdicts table, ``item, generator_a, generator_b, validator,
verdict`` and optionally ``position``; a battle judged in both orders is two
rows. A row that lists the pair the other way round (``generator_a`` and
``generator_b`` swapped) is the same battle: it is turned to the battle's
orientation (the first row's), its verdict and position flipped. Human votes,
``item, generator_a, generator_b, human``, cover any subset of the battles:
a uniform sample unless an ``inclusion_probability`` column gives each vote's
probability of having been drawn (independent draws, ``0 < p <= 1``), as for
partial labels (:mod:`regression.labels.design`).

The words read as verdicts are :data:`regression.pairwise.verdicts.VERDICT_WORDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from regression.checks import (
    check_inclusion_probabilities,
    duplicate_error,
    plain,
    rank_in_order,
    repeat_of,
    require_columns,
)
from regression.errors import InputError, MissingValueError, from_table
from regression.pairwise.verdicts import POSITIONS, VERDICTS, decode_positions, decode_verdicts

__all__ = [
    "HUMAN_VERDICT_COLUMNS",
    "VERDICT_COLUMNS",
    "BattleError",
    "PairwiseTable",
    "check_pairwise",
]

#: The judges' verdicts, one row per judge, battle and position shown.
VERDICT_COLUMNS = ("item", "generator_a", "generator_b", "validator", "verdict")
#: The human votes, one row per voted battle.
HUMAN_VERDICT_COLUMNS = ("item", "generator_a", "generator_b", "human")

_PAIR = ("item", "generator_a", "generator_b")


class BattleError(InputError):
    """A row that is not a battle of the table: one generator on both sides, or a human vote on a
    battle no judge gave a verdict on. ``value`` is the row's ``(item, generator_a, generator_b)``."""


@dataclass(frozen=True, eq=False)
class PairwiseTable:
    """The checked verdicts and human votes, as codes and arrays.

    Attributes
    ----------
    generators, validators : Index
        In order of first appearance in the verdicts table (``generator_a``
        before ``generator_b`` within a row).
    battles : DataFrame
        One row per battle, ordered by item, then by the pair's names, whatever
        the rows' order: ``item``, ``generator_a``, ``generator_b`` (oriented as
        the battle's first row).
    battle_a, battle_b : ndarray of int
        Each battle's generators, as positions in ``generators``.
    battle, validator : ndarray of int
        Each verdict row's battle (position in ``battles``) and validator, in table order.
    score : ndarray of float
        Each verdict row's score of its battle's ``generator_a``: 1.0 (a
        preferred), 0.5 (a tie), 0.0 (b preferred), NaN (no verdict).
    position : ndarray of int8
        Each verdict row's order shown: 0 when the battle's ``generator_a``
        answer came first, 1 when it came second.
    human : ndarray of float
        Per battle: the human vote's score of ``generator_a``, NaN where unvoted.
    inclusion_probability : ndarray of float
        Per battle: the probability the voted battle had of being drawn (the
        given column, else the uniform ``n_votes / n_battles``), NaN where unvoted.
    weighted : bool
        Whether the human votes came with inclusion probabilities.
    human_row : ndarray of int
        Per battle: the row of the human table that voted on it, -1 where none did.
    """

    generators: pd.Index
    validators: pd.Index
    battles: pd.DataFrame
    battle_a: np.ndarray
    battle_b: np.ndarray
    battle: np.ndarray
    validator: np.ndarray
    score: np.ndarray
    position: np.ndarray
    human: np.ndarray
    inclusion_probability: np.ndarray
    weighted: bool
    human_row: np.ndarray

    @property
    def n_battles(self) -> int:
        """Battles: distinct items and generator pairs."""
        return len(self.battles)

    @property
    def n_verdicts(self) -> int:
        """Rows of the verdicts table, with a verdict or without."""
        return int(self.score.size)

    @property
    def n_labels(self) -> int:
        """Battles with a human vote."""
        return int(np.count_nonzero(self.human_row >= 0))

    def battles_per_generator(self) -> pd.Series:
        """Battles each generator played (a battle counts for both its generators)."""
        counts = np.bincount(self.battle_a, minlength=len(self.generators)) + np.bincount(
            self.battle_b, minlength=len(self.generators)
        )
        return pd.Series(counts, index=self.generators, name="battles")

    def among(self, keep: np.ndarray) -> PairwiseTable:
        """The battles between two generators of ``keep`` (a mask over :attr:`generators`),
        their verdicts and votes, the generators and battles renumbered in their order.

        Examples
        --------
        >>> verdicts = pd.DataFrame({"item": [1, 2, 3], "generator_a": ["x", "y", "x"],
        ...                          "generator_b": ["y", "z", "z"], "validator": "j",
        ...                          "verdict": ["a", "b", "tie"]})
        >>> part = check_pairwise(verdicts).among(np.array([True, False, True]))
        >>> list(part.generators), part.battles["item"].tolist(), part.n_verdicts
        (['x', 'z'], [3], 1)
        """
        keep = np.asarray(keep, dtype=bool)
        kept = keep[self.battle_a] & keep[self.battle_b]
        new_generator = np.cumsum(keep) - 1
        new_battle = np.cumsum(kept) - 1
        rows = kept[self.battle]
        human_row = self.human_row[kept]
        voted = human_row >= 0
        human_row[voted] = np.argsort(np.argsort(human_row[voted]))  # rows in their order
        return PairwiseTable(
            generators=self.generators[keep],
            validators=self.validators,
            battles=self.battles[kept].reset_index(drop=True),
            battle_a=new_generator[self.battle_a[kept]],
            battle_b=new_generator[self.battle_b[kept]],
            battle=new_battle[self.battle[rows]],
            validator=self.validator[rows],
            score=self.score[rows],
            position=self.position[rows],
            human=self.human[kept],
            inclusion_probability=self.inclusion_probability[kept],
            weighted=self.weighted,
            human_row=human_row,
        )

    def verdict_counts(self) -> pd.DataFrame:
        """Verdicts per validator and position shown, with the votes without one.

        Columns ``validator, position, a, tie, b, none``, where ``a`` counts
        verdicts for the battle's ``generator_a`` and ``position`` says whose
        answer was shown first (``"ab"``: generator_a's): a judge that favours
        the first answer has ``a`` high at ``"ab"`` and ``b`` high at ``"ba"``.
        """
        outcome = np.full(self.n_verdicts, 3)  # 3: no verdict
        for code, value in enumerate((1.0, 0.5, 0.0)):
            outcome[self.score == value] = code
        cell = (self.validator * 2 + self.position) * 4 + outcome
        counts = np.bincount(cell, minlength=len(self.validators) * 8).reshape(-1, 4)
        frame = pd.DataFrame(counts, columns=[*VERDICTS, "none"])
        frame.insert(0, "position", np.tile(POSITIONS, len(self.validators)))
        frame.insert(0, "validator", np.repeat(self.validators.to_numpy(), 2))
        return frame


def _missing_keys(frame: pd.DataFrame, columns: tuple[str, ...], name: str) -> None:
    for column in columns:
        missing = frame[column].isna().to_numpy()
        if missing.any():
            row = int(np.flatnonzero(missing)[0])
            raise MissingValueError(
                f"{name} has a missing {column} at row {row}.", row=row, column=column
            )


def _same_generator(frame: pd.DataFrame, name: str) -> None:
    same = (frame["generator_a"] == frame["generator_b"]).to_numpy()
    if same.any():
        row = int(np.flatnonzero(same)[0])
        key = tuple(plain(v) for v in frame[list(_PAIR)].iloc[row])
        raise BattleError(
            f"{name} has generator_a equal to generator_b ({plain(key[1])!r}) at row {row}: a "
            "battle sets two different generators against each other.",
            row=row,
            column="generator_b",
            value=key,
        )


def check_pairwise(verdicts: pd.DataFrame, human: pd.DataFrame | None = None) -> PairwiseTable:
    """Check the judges' pairwise verdicts (and the human votes) and encode them.

    Parameters
    ----------
    verdicts : DataFrame
        ``item, generator_a, generator_b, validator, verdict`` and optionally
        ``position`` (``"ab"``: generator_a's answer shown first, the default;
        ``"ba"``). ``verdict`` is a word of
        :data:`~regression.pairwise.verdicts.VERDICT_WORDS` (``"a"``: the
        answer of generator_a preferred, ``"b"``, ``"tie"``, and the tools'
        spellings) or missing (no verdict: kept and counted, not a vote).
    human : DataFrame, optional
        ``item, generator_a, generator_b, human`` (a verdict word), one row
        per voted battle, and optionally ``inclusion_probability``.

    Returns
    -------
    PairwiseTable

    Raises
    ------
    ValueError
        An :class:`~regression.errors.InputError` naming the first offending
        row and column: a missing column
        (:class:`~regression.errors.MissingColumnError`); a missing item,
        generator or validator, or a missing human vote
        (:class:`~regression.errors.MissingValueError`); a verdict or position
        outside the vocabulary (:class:`~regression.pairwise.verdicts.VerdictError`);
        one generator on both sides of a battle, or a human vote on a battle no
        judge gave a verdict on (:class:`BattleError`); a judge's verdict on a
        battle in one position given twice, or two human votes on one battle
        (:class:`~regression.errors.DuplicateRowError`); an inclusion
        probability outside (0, 1] or given for some votes only.

    Examples
    --------
    >>> verdicts = pd.DataFrame({"item": [1, 1, 2], "generator_a": ["x", "x", "y"],
    ...                          "generator_b": ["y", "y", "x"], "validator": "judge",
    ...                          "verdict": ["A>B", "model_b", "tie"], "position": ["ab", "ba", "ab"]})
    >>> table = check_pairwise(verdicts)
    >>> table.score.tolist(), table.position.tolist(), list(table.generators)
    ([1.0, 0.0, 0.5], [0, 1, 0], ['x', 'y'])

    An error names its table in ``table`` (``"verdicts"`` or ``"human
    votes"``): the two share their key columns, so the column cannot tell.
    """
    with from_table("verdicts"):  # the human votes' part marks its own errors first
        return _encode(verdicts, human)


def _encode(verdicts: pd.DataFrame, human: pd.DataFrame | None) -> PairwiseTable:
    require_columns(verdicts, VERDICT_COLUMNS, "verdicts")
    _missing_keys(verdicts, (*_PAIR, "validator"), "verdicts")
    _same_generator(verdicts, "verdicts")
    score = decode_verdicts(verdicts["verdict"], "verdicts", "verdict")
    position = decode_positions(verdicts, "verdicts")
    shown = np.asarray(POSITIONS)[position]  # as given, for messages
    pair = np.column_stack([verdicts["generator_a"].to_numpy(), verdicts["generator_b"].to_numpy()])
    gen_code, generators = pd.factorize(pair.ravel())
    code_a, code_b = gen_code[0::2].astype(np.int64), gen_code[1::2].astype(np.int64)
    item_code, items = pd.factorize(verdicts["item"])
    n_gen = len(generators)
    low, high = np.minimum(code_a, code_b), np.maximum(code_a, code_b)
    battle_key = (item_code.astype(np.int64) * n_gen + low) * n_gen + high
    battle, keys = pd.factorize(battle_key)
    # the battles in one order whatever the rows' order (the cross-fit's folds and the betting
    # interval's bets follow it): by item, then the pair's names
    first = np.unique(battle, return_index=True)[1]
    named = rank_in_order(generators)
    rank_a, rank_b = named[code_a[first]], named[code_b[first]]
    order = np.lexsort(
        (
            np.maximum(rank_a, rank_b),
            np.minimum(rank_a, rank_b),
            rank_in_order(items)[item_code[first]],
        )
    )
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    battle, keys, first = rank[battle], keys[order], first[order]  # first: each battle's first row
    battle_a, battle_b = code_a[first], code_b[first]
    flipped = code_a != battle_a[battle]
    score = np.where(flipped, 1.0 - score, score)
    position = np.where(flipped, 1 - position, position).astype(np.int8)
    val_code, validators = pd.factorize(verdicts["validator"])
    rows = repeat_of((battle.astype(np.int64) * len(validators) + val_code) * 2 + position)
    if rows is not None:
        row = rows[0]
        key = (*(plain(v) for v in verdicts[[*_PAIR, "validator"]].iloc[row]), str(shown[row]))
        raise duplicate_error(
            "verdicts",
            [*_PAIR, "validator", "position"],
            key,
            rows,
            "a judge gives one verdict per battle and position shown (a pair listed either way "
            "is one battle)",
            column="validator",
        )
    battles = pd.DataFrame({
        "item": items.take(item_code[first]),
        "generator_a": generators.take(battle_a),
        "generator_b": generators.take(battle_b),
    })  # fmt: skip
    n_battles = len(keys)
    human_score = np.full(n_battles, np.nan)
    probability = np.full(n_battles, np.nan)
    human_row = np.full(n_battles, -1, dtype=np.int64)
    weighted = False
    if human is not None:
        with from_table("human votes"):
            at, votes, given = _human_votes(
                human, pd.Index(items), pd.Index(generators), keys, battle_a
            )
        human_score[at] = votes
        human_row[at] = np.arange(len(human))
        weighted = given is not None
        probability[at] = given if given is not None else len(human) / n_battles
    return PairwiseTable(
        generators=pd.Index(generators, name="generator"),
        validators=pd.Index(validators, name="validator"),
        battles=battles,
        battle_a=battle_a,
        battle_b=battle_b,
        battle=battle.astype(np.int64),
        validator=val_code.astype(np.int64),
        score=score,
        position=position,
        human=human_score,
        inclusion_probability=probability,
        weighted=weighted,
        human_row=human_row,
    )


def _human_votes(
    human: pd.DataFrame,
    items: pd.Index,
    generators: pd.Index,
    keys: np.ndarray,
    battle_a: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Each human vote's battle, its score of the battle's generator_a, and the probabilities."""
    n_gen = len(generators)
    require_columns(human, HUMAN_VERDICT_COLUMNS, "human")
    _missing_keys(human, _PAIR, "human")
    _same_generator(human, "human")
    score = decode_verdicts(human["human"], "human", "human")
    if np.isnan(score).any():
        row = int(np.flatnonzero(np.isnan(score))[0])
        raise MissingValueError(
            f"human has a missing vote at row {row}; drop the row (a battle without a vote is "
            "simply not in the human table).",
            row=row,
            column="human",
        )
    item_at = items.get_indexer(human["item"])
    code_a = generators.get_indexer(human["generator_a"])
    code_b = generators.get_indexer(human["generator_b"])
    low, high = np.minimum(code_a, code_b), np.maximum(code_a, code_b)
    key = (item_at.astype(np.int64) * n_gen + low) * n_gen + high
    known = (item_at >= 0) & (low >= 0)
    at = np.where(known, pd.Index(keys).get_indexer(np.where(known, key, -1)), -1)
    if (at < 0).any():
        row = int(np.flatnonzero(at < 0)[0])
        raise _unjudged(human, row, item_at[row], items, generators, keys, n_gen)
    rows = repeat_of(at)
    if rows is not None:
        pair = tuple(plain(v) for v in human[list(_PAIR)].iloc[rows[0]])
        raise duplicate_error(
            "human",
            list(_PAIR),
            pair,
            rows,
            "a battle has one human vote (a pair listed either way is one battle)",
            column="human",
        )
    flipped = code_a != battle_a[at]
    return (
        at,
        np.where(flipped, 1.0 - score, score),
        check_inclusion_probabilities(human, "human", every="vote"),
    )


def _unjudged(
    human: pd.DataFrame,
    row: int,
    item_at: int,
    items: pd.Index,
    generators: pd.Index,
    keys: np.ndarray,
    n_gen: int,
) -> BattleError:
    """The error for a human vote on a battle without judge verdicts, saying what was judged."""
    key = tuple(plain(v) for v in human[list(_PAIR)].iloc[row])
    if item_at < 0:
        why = f"no judge gave a verdict on item {key[0]!r}"
    else:
        on_item = keys[keys // (n_gen * n_gen) == item_at]
        pairs = [
            (plain(generators[(k // n_gen) % n_gen]), plain(generators[k % n_gen]))
            for k in on_item[:3]
        ]
        why = (
            f"the generators differ from the judged battle(s) of item {key[0]!r}: "
            f"{', '.join(map(repr, pairs))}"
        )
    return BattleError(
        f"human has a vote on (item, generator_a, generator_b) = {key!r} at row {row}, a battle "
        f"with no judge verdict: {why}.",
        row=row,
        column="generator_b" if item_at >= 0 else "item",
        value=key,
    )
