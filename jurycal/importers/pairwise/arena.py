"""A plain arena table (``model_a, model_b, winner``) as human votes or one judge's verdicts.

Chatbot Arena's released battles (lm-sys/FastChat ``fastchat/serve/monitor/
clean_battle_data.py`` writes them; the public ``clean_battle_*.json`` and
the ``chatbot_arena_conversations`` set) hold one row per battle:
``question_id``, ``model_a``, ``model_b``, ``winner`` (``model_a``,
``model_b``, ``tie`` or ``tie (bothbad)``), the voter in ``judge`` and
further fields (``conversation_a``, ``turn``, ``anony``, ``language``,
``tstamp``). ``model_a``'s answer is shown on the left. The winner is a
person's vote, so the rows are read as the human table unless a validator is
named, when they are that judge's verdicts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.importers.pairwise.book import BattleBook, PairwiseImportResult
from jurycal.importers.records import PathsLike, expand_paths, load_json
from jurycal.importers.result import ImportFormatError
from jurycal.io import FORMATS, read_table
from regression.pairwise.verdicts import VERDICT_WORDS, verdict_words

__all__ = ["ARENA_ITEM_KEYS", "read_arena_battles"]

#: The columns tried, in order, for the battle's item when ``item_column`` is not given.
ARENA_ITEM_KEYS = ("question_id", "id", "uid", "item")
_EXPECTED = "an arena table (model_a, model_b, winner and a question_id, id, uid or item column)"
_WORD = {1.0: "a", 0.5: "tie", 0.0: "b"}


def read_arena_battles(
    paths: PathsLike,
    *,
    validator: str | None = None,
    item_column: str | None = None,
    duplicates: str = "error",
) -> PairwiseImportResult:
    """Read arena tables (``model_a, model_b, winner``) into human votes or a judge's verdicts.

    Parameters
    ----------
    paths : path or sequence of paths
        Tables: a JSON list of objects (``.json``, as Chatbot Arena releases
        them) or any table :func:`jurycal.io.read_table` reads (CSV, TSV,
        JSON Lines, Parquet, gzipped or not).
    validator : str, optional
        When given, the winners are this judge's verdicts (the verdicts
        table); by default they are human votes (the human table).
    item_column : str, optional
        The column naming each battle's prompt. Default: the first of
        :data:`ARENA_ITEM_KEYS` the table has.
    duplicates : {"error", "last"}
        For a judge's verdicts read twice: an error (default), or ``"last"``.

    Returns
    -------
    PairwiseImportResult
        ``generator_a`` = ``model_a``, ``generator_b`` = ``model_b``, the
        winner read by :data:`~regression.pairwise.verdicts.VERDICT_WORDS`
        (``model_a``, ``model_b``, ``tie``, ``tie (bothbad)``, ``A``, ...);
        verdicts at position ``"ab"`` (model_a shown first). A missing winner
        is no verdict, or for a human table no vote (counted in the notes);
        human votes that disagree on one battle leave it without a vote.

    Raises
    ------
    ImportFormatError
        For a file without the columns, or a winner outside the vocabulary,
        naming the file and the record (1-based).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "battles.csv"
    >>> _ = path.write_text("question_id,model_a,model_b,winner\\nq1,x,y,model_b\\nq2,y,x,tie (bothbad)\\n")
    >>> read_arena_battles(path).human.values.tolist()
    [['q1', 'x', 'y', 'b'], ['q2', 'y', 'x', 'tie']]
    """
    book = BattleBook("arena", duplicates)
    for path in expand_paths(paths, (".json", *FORMATS)):
        book.sources.append(str(path))
        frame = _load(path)
        key = item_column or next((k for k in ARENA_ITEM_KEYS if k in frame.columns), None)
        absent = [c for c in ("model_a", "model_b", "winner", key) if c is None or c not in frame]
        if absent:
            raise ImportFormatError(
                f"{path}: not {_EXPECTED}: no {', '.join(str(c or 'item') for c in absent)} "
                f"column (found {', '.join(map(str, frame.columns))})."
            )
        rows = frame[[key, "model_a", "model_b", "winner"]].itertuples(index=False)
        for number, (item, model_a, model_b, winner) in enumerate(rows, start=1):
            verdict = _winner(path, number, winner)
            if validator is not None:
                book.verdict(item, model_a, model_b, validator, verdict, "ab", path)
            elif verdict is None:
                book.count("battles without a winner left without a human vote")
            else:
                book.human(item, model_a, model_b, verdict, path)
    return book.result()


def _load(path: Path) -> pd.DataFrame:
    if not path.name.endswith(".json"):
        return read_table(path)
    data = load_json(path, _EXPECTED)
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise ImportFormatError(f"{path}: not {_EXPECTED}: the top level is not a list of objects.")
    return pd.DataFrame.from_records(data)


def _winner(path: Path, number: int, winner: Any) -> str | None:
    if winner is None or (
        not isinstance(winner, str) and pd.api.types.is_scalar(winner) and pd.isna(winner)
    ):
        return None
    if isinstance(winner, str) and winner.strip().lower() in VERDICT_WORDS:
        return _WORD[VERDICT_WORDS[winner.strip().lower()]]
    raise ImportFormatError(
        f"{path}, record {number}: not {_EXPECTED}: winner {winner!r} is not a verdict; the words "
        f"read are {verdict_words()}."
    )
