"""The pair table of ``jurycal rank``, one for judgments and pairwise verdicts.

By default the table is the leaderboard's own pairs: the step-down decisions
its rank sets rest on (``pairs_level`` ``"step-down"``). ``--pairs A:B ...``
asks for intervals on the pairs named, simultaneous over them, and
``--one-at-a-time`` for each interval at the level alone
(:func:`regression.ranking.compare` on the board's joint error, so the pairs
and the rank sets come from one joint error).

This module imports nothing heavy: ``jurycal rank --help`` loads it.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from jurycal.cli.reading import find_name

if TYPE_CHECKING:
    import pandas as pd

    from regression.ranking import Leaderboard

__all__ = ["asked_pairs", "pair_value", "pairs_text"]


def pair_value(text: str) -> tuple[str, str]:
    """``A:B`` as a pair of generator names (argparse type)."""
    a, sep, b = text.partition(":")
    if not sep or not a or not b:
        raise argparse.ArgumentTypeError(f"a pair is written A:B (two generators); got {text!r}")
    return a, b


def asked_pairs(
    args: argparse.Namespace, board: Leaderboard, where: str
) -> tuple[pd.DataFrame, str]:
    """The pairs ``rank`` reports and their level (the JSON's ``pairs`` and ``pairs_level``).

    Without ``--pairs`` or ``--one-at-a-time``: the board's pairs at its
    procedure (``"step-down"``). With them: the intervals of the pairs named
    (every pair without ``--pairs``), ``"simultaneous"`` over those pairs or
    ``"one at a time"``. ``where`` names the board in the error for a
    generator not on it.

    Raises
    ------
    ValueError
        A pair naming a generator that is not on the board (naming it).
    """
    if not (args.pairs or args.one_at_a_time):
        return board.pairs, board.procedure
    from regression.ranking import compare

    assert board.joint is not None  # a board built by regression.ranking.leaderboard keeps it
    for name in (g for pair in args.pairs or () for g in pair):
        find_name(name, board.table.index, "generator", where)
    simultaneous = not args.one_at_a_time
    pairs = compare(board.joint, board.alpha, args.pairs, simultaneous, seed=args.seed)
    return pairs, "simultaneous" if simultaneous else "one at a time"


def pairs_text(args: argparse.Namespace, pairs: pd.DataFrame, level: str) -> str:
    """The pairs asked for, as a table after the board ("" when none was asked for)."""
    if not (args.pairs or args.one_at_a_time):
        return ""
    from regression.text_table import text_table

    # a reader's words: the higher generator named, not "a higher"; the variance ratio is
    # for --json readers (it says how much the two errors move together)
    shown = pairs.drop(columns=["var_ratio"], errors="ignore").rename(
        columns={"estimate": "a minus b"}
    )
    if "decided" in shown:
        named = {"a higher": "generator_a", "b higher": "generator_b"}
        shown["decided"] = [
            f"{row[named[word]]} higher" if word in named else word
            for word, (_, row) in zip(shown["decided"], shown.iterrows(), strict=True)
        ]
    table = text_table(shown, index=False, empty="no pair asked for.")
    return f"\n\npairs asked for ({level}):\n{table}"
