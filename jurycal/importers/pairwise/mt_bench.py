"""MT-Bench pairwise judgments (FastChat ``model_judgment/*_pair.jsonl``) as pairwise verdicts.

Layout read from lm-sys/FastChat ``fastchat/llm_judge/common.py``
(commit 0e6d3e4), ``play_a_match_pair``: with a pairwise judge prompt, game 1
shows ``model_1``'s answer first and game 2 ``model_2``'s; ``g1_winner`` and
``g2_winner`` are each already mapped to ``model_1``, ``model_2``, ``tie`` or
``error``. With a single-answer prompt the two answers are graded apart
(``m1_score``, ``m2_score``) and ``g1_winner`` = ``g2_winner`` is one verdict
with no order shown. ``turn`` is 1, or 2 for the second turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jurycal.importers.names import MT_BENCH_PAIR_FILES
from jurycal.importers.pairwise.book import BattleBook, PairwiseImportResult
from jurycal.importers.records import PathsLike, expand_paths, load_jsonl
from jurycal.importers.result import ImportFormatError

__all__ = ["read_mt_bench_pairs"]

_EXPECTED = (
    "MT-Bench pairwise judgments (JSON Lines with question_id, model_1, model_2, g1_winner, "
    "g2_winner and judge)"
)
_FIELDS = {
    "question_id", "model_1", "model_2", "g1_winner", "g2_winner", "judge",
    "g1_user_prompt", "g1_judgment", "g2_user_prompt", "g2_judgment", "turn", "tstamp",
    "m1_score", "m2_score",
}  # fmt: skip
_WINNER = {"model_1": "a", "model_2": "b", "tie": "tie"}


def read_mt_bench_pairs(paths: PathsLike, *, duplicates: str = "error") -> PairwiseImportResult:
    """Read MT-Bench ``*_pair.jsonl`` files into the pairwise verdicts table.

    Parameters
    ----------
    paths : path or sequence of paths
        ``*_pair.jsonl`` files, or directories holding them.
    duplicates : {"error", "last"}
        A verdict read twice (same battle, judge and order): an error
        (default), or ``"last"``: keep the last record read, as FastChat does
        with the judgments a re-run appends.

    Returns
    -------
    PairwiseImportResult
        ``item`` = ``"<question_id>#t<turn>"`` (as the judgments importer
        writes it); ``generator_a`` = ``model_1``, ``generator_b`` =
        ``model_2``; ``validator`` = the judge model; two rows per line, game 1
        at position ``"ab"`` and game 2 (the answers swapped) at ``"ba"``,
        each with its own verdict and judgment text; one row at ``"ab"`` for
        a single-answer judge. An ``error`` verdict is None.

    Raises
    ------
    ImportFormatError
        For a file that is not MT-Bench pairwise judgments, or a winner
        outside ``model_1``, ``model_2``, ``tie``, ``error``, naming the file and line.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> row = {"question_id": 81, "model_1": "vicuna-13b-v1.3", "model_2": "gpt-3.5-turbo",
    ...        "g1_winner": "model_1", "g2_winner": "model_2", "judge": ["gpt-4", "pair-v2"],
    ...        "turn": 1}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "gpt-4_pair.jsonl"
    >>> _ = path.write_text(json.dumps(row))
    >>> read_mt_bench_pairs(path).verdicts[["item", "verdict", "position"]].values.tolist()
    [['81#t1', 'a', 'ab'], ['81#t1', 'b', 'ba']]
    """
    book = BattleBook("mt_bench", duplicates)
    for path in expand_paths(paths, (".jsonl",), MT_BENCH_PAIR_FILES):
        book.sources.append(str(path))
        for number, row in load_jsonl(path, _EXPECTED):
            if not {"question_id", "model_1", "model_2", "g1_winner", "judge"} <= set(row):
                single = " (single-answer grading: read it with the mt_bench judgments importer)"
                raise ImportFormatError(
                    f"{path}, line {number}: not {_EXPECTED}: no question_id, model_1, model_2, "
                    f"g1_winner or judge{single if 'score' in row else ''}."
                )
            book.unknown(row, _FIELDS, "pair")
            _read_line(path, number, row, book)
    return book.result()


def _read_line(path: Path, number: int, row: dict[str, Any], book: BattleBook) -> None:
    item = f"{row['question_id']}#t{row.get('turn', 1)}"
    judge = row["judge"]
    judge = str(judge[0]) if isinstance(judge, list) and judge else str(judge)
    games = [("g1", "ab")]
    if "m1_score" in row:
        book.count("single-answer pairs (no order shown) read as one verdict at position 'ab'")
    else:
        games.append(("g2", "ba"))
    for game, position in games:
        winner = row.get(f"{game}_winner")
        if winner != "error" and winner not in _WINNER:
            raise ImportFormatError(
                f"{path}, line {number}: not {_EXPECTED}: {game}_winner {winner!r} is not "
                "model_1, model_2, tie or error."
            )
        if winner == "error":
            book.count("games with an error verdict read as no verdict")
        book.verdict(
            item, row["model_1"], row["model_2"], judge, _WINNER.get(winner), position, path,
            explanation=row.get(f"{game}_judgment"),
        )  # fmt: skip
