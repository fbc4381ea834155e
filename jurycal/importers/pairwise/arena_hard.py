"""Arena-Hard-Auto judgments (``data/<bench>/model_judgment/<judge>/<model>.jsonl``) as pairwise
verdicts.

Layout read from lmarena/arena-hard-auto. Version 2 (commit 196f6b8,
``gen_judgment.py`` ``judgment``) writes per line ``uid``, ``category``,
``judge``, ``model``, ``baseline`` and two ``games``: game 1 shows the
baseline's answer as A and the model's as B, game 2 the model's as A. Each
game is ``{"score": label, "judgment": {"answer": text, ...}, "prompt": ...}``
or null when the judge call failed; ``score`` is the label the judge gave,
upper-cased (``A>>B``, ``A>B``, ``A=B``, ``B>A``, ``B>>A``; ``show_result.py``
reads the mirrored ``A<B`` ... too), or null when none was found. Version 0.1
(commit 4ce0f00) writes ``question_id``, ``model``, ``judge`` and ``games`` of
``{"user_prompt", "judgment", "score"}``, the baseline coming from the
settings file (``baseline_model``, gpt-4-0314 by default) rather than the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jurycal.importers.names import ARENA_HARD_FILES
from jurycal.importers.pairwise.book import BattleBook, PairwiseImportResult
from jurycal.importers.records import PathsLike, expand_paths, load_jsonl
from jurycal.importers.result import ImportFormatError

__all__ = ["ARENA_HARD_LABELS", "read_arena_hard_judgments"]

#: The labels Arena-Hard-Auto's judges give, as the verdict on the answer shown as A.
ARENA_HARD_LABELS = {
    "A>>B": "a", "A>B": "a", "B<A": "a", "B<<A": "a",
    "A=B": "tie", "B=A": "tie",
    "B>A": "b", "B>>A": "b", "A<B": "b", "A<<B": "b",
}  # fmt: skip
_STRONG = {"A>>B", "B>>A", "A<<B", "B<<A"}
_EXPECTED = "Arena-Hard-Auto judgments (JSON Lines with uid or question_id, model, judge and games)"
_FIELDS = {"uid", "question_id", "category", "judge", "model", "baseline", "games"}
_GAME_FIELDS = {"score", "judgment", "prompt", "user_prompt"}


def read_arena_hard_judgments(
    paths: PathsLike, *, baseline: str | None = None, duplicates: str = "error"
) -> PairwiseImportResult:
    """Read Arena-Hard-Auto judgment files into the pairwise verdicts table.

    Parameters
    ----------
    paths : path or sequence of paths
        ``model_judgment/<judge>/<model>.jsonl`` files, or directories holding them.
    baseline : str, optional
        The baseline model, for version 0.1 files, whose lines do not name it
        (the settings file's ``baseline_model``). A line that names its
        baseline is read with that one.
    duplicates : {"error", "last"}
        A verdict read twice (same battle, judge and game): an error
        (default), or ``"last"``: keep the last record read.

    Returns
    -------
    PairwiseImportResult
        ``item`` = ``uid`` (``question_id`` in version 0.1); ``generator_a`` =
        the baseline, ``generator_b`` = ``model``; ``validator`` = ``judge``;
        two rows per line: game 1 at position ``"ab"`` (the baseline shown as
        A), game 2 at ``"ba"``, its label turned to say which generator won.
        A failed game or a label not found is None; the strength of a
        preference (``>>``) is not kept, and the notes count it.

    Raises
    ------
    ImportFormatError
        For a file that is not Arena-Hard-Auto judgments, or a label outside
        :data:`ARENA_HARD_LABELS`, naming the file and line.
    ValueError
        When a line names no baseline and none is given.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> row = {"uid": "q1", "category": "hard_prompt", "judge": "gpt-4.1", "model": "m",
    ...        "baseline": "o3-mini-2025-01-31",
    ...        "games": [{"score": "B>A", "judgment": {"answer": "... [[B>A]]"}, "prompt": []},
    ...                  {"score": "A>>B", "judgment": {"answer": "... [[A>>B]]"}, "prompt": []}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.jsonl"
    >>> _ = path.write_text(json.dumps(row))
    >>> read_arena_hard_judgments(path).verdicts[["generator_b", "verdict", "position"]].values.tolist()
    [['m', 'b', 'ab'], ['m', 'b', 'ba']]
    """
    book = BattleBook("arena_hard", duplicates)
    for path in expand_paths(paths, (".jsonl",), ARENA_HARD_FILES):
        book.sources.append(str(path))
        for number, row in load_jsonl(path, _EXPECTED):
            item = row.get("uid", row.get("question_id"))
            games = row.get("games")
            if item is None or not {"model", "judge"} <= set(row) or not isinstance(games, list):
                raise ImportFormatError(
                    f"{path}, line {number}: not {_EXPECTED}: no uid or question_id, model, "
                    "judge or games list."
                )
            book.unknown(row, _FIELDS, "judgment")
            against = row.get("baseline", baseline)
            if against is None:
                raise ValueError(
                    f"{path}, line {number} names no baseline (an Arena-Hard-Auto v0.1 file): pass "
                    "baseline=, the settings file's baseline_model "
                    "(gpt-4-0314 by default)."
                )
            for game, position in zip(games[:2], ("ab", "ba"), strict=False):
                _read_game(path, number, item, row, str(against), game, position, book)
            if len(games) != 2:
                book.count("lines without exactly two games (only the first two are read)")
    return book.result()


def _read_game(
    path: Path,
    number: int,
    item: Any,
    row: dict[str, Any],
    baseline: str,
    game: Any,
    position: str,
    book: BattleBook,
) -> None:
    if not isinstance(game, dict) or game.get("score") is None:
        book.count("games that failed or gave no label read as no verdict")
        verdict = None
        text = None
    else:
        book.unknown(game, _GAME_FIELDS, "judgment.games")
        label = str(game["score"]).strip().upper()
        shown_a = ARENA_HARD_LABELS.get(label)
        if shown_a is None:
            raise ImportFormatError(
                f"{path}, line {number}: not {_EXPECTED}: label {game['score']!r} is not one of "
                f"{', '.join(ARENA_HARD_LABELS)}."
            )
        if label in _STRONG:
            book.count("strong preferences (A>>B, B>>A) read as plain preferences")
        # game 2 shows the model (generator_b) as A: its "A" verdict is a win for b
        verdict = shown_a if position == "ab" else {"a": "b", "b": "a"}.get(shown_a, shown_a)
        text = game.get("judgment")
        if isinstance(text, dict):
            text = text.get("answer")
    book.verdict(
        item, baseline, row["model"], row["judge"], verdict, position, path, explanation=text
    )
