"""MT-Bench judgment files (FastChat ``data/mt_bench/model_judgment/*_single.jsonl`` and
``*_pair.jsonl``).

Schema read from lm-sys/FastChat ``fastchat/llm_judge/common.py``:
``play_a_match_single`` writes ``question_id``, ``model``, ``judge`` (judge
model, prompt name), ``user_prompt``, ``judgment``, ``score`` (1-10; -1 when
the rating could not be parsed), ``turn`` and ``tstamp``;
``play_a_match_pair`` writes ``model_1``, ``model_2``, ``g1_winner`` and
``g2_winner`` (the verdicts with the answers in both orders: ``model_1``,
``model_2``, ``tie`` or ``error``), ``g1_/g2_user_prompt``,
``g1_/g2_judgment``, ``turn`` and ``tstamp``. ``load_pairwise_model_judgments``
reads two disagreeing orders as ``inconsistent``. In ``pairwise-baseline``
mode the baseline is ``model_2``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jurycal.importers.names import MT_BENCH_FILES
from jurycal.importers.records import (
    PathsLike,
    VoteBook,
    check_threshold,
    choose_baseline,
    expand_paths,
    finite_number,
    load_jsonl,
)
from jurycal.importers.result import ImportFormatError, ImportResult

__all__ = ["MT_BENCH_DEFAULT_THRESHOLD", "read_mt_bench_judgments"]

#: A 1-10 MT-Bench rating is valid at or above this (jurycal's convention; FastChat has none).
MT_BENCH_DEFAULT_THRESHOLD = 7.0

_EXPECTED = (
    "MT-Bench judgments (JSON Lines with question_id, judge and either model + score or "
    "model_1 + model_2 + g1_winner)"
)
_SINGLE_FIELDS = {
    "question_id", "model", "judge", "user_prompt", "judgment", "score", "turn", "tstamp",
}  # fmt: skip
_PAIR_FIELDS = {
    "question_id", "model_1", "model_2", "g1_winner", "g2_winner", "winner", "judge",
    "g1_user_prompt", "g1_judgment", "g2_user_prompt", "g2_judgment", "turn", "tstamp",
    "m1_score", "m2_score",
}  # fmt: skip


def read_mt_bench_judgments(
    paths: PathsLike,
    threshold: float | None = None,
    *,
    baseline: str | None = None,
    duplicates: str = "error",
) -> ImportResult:
    """Read MT-Bench judgment files into the judgments table.

    Parameters
    ----------
    paths : path or sequence of paths
        ``*_single.jsonl`` and/or ``*_pair.jsonl`` files, or directories.
    threshold : float, optional
        For single-answer grading: a rating ``>= threshold`` is valid.
        Default :data:`MT_BENCH_DEFAULT_THRESHOLD` (7 on the 1-10 scale).
    baseline : str, optional
        For pairwise files: the reference model. Default: the one model in
        ``model_2`` (FastChat's ``pairwise-baseline`` mode).

    duplicates : {"error", "last"}
        A (generator, item, validator) read twice: an error naming the
        option (default), or ``"last"``: keep the last record read.
    Returns
    -------
    ImportResult
        ``item`` = ``"<question_id>#t<turn>"``; ``validator`` = the judge
        model (the first entry of ``judge``; the prompt template varies with
        the question category and is not part of the name). Single:
        ``generator`` = ``model``, a rating of -1 (unparsed) is missing.
        Pairwise: ``generator`` = the model compared with the baseline,
        ``label`` 1 when it wins in both orders, 0 when the baseline does;
        a tie, an error or two orders that disagree are missing.

    Raises
    ------
    ImportFormatError
        For a file that is not MT-Bench judgments, naming the file and line.
    ValueError
        When a pairwise baseline cannot be told, for a bad threshold, or a
        vote read twice.

    Notes
    -----
    The default 7 is a convention, not FastChat's: the judge prompt asks for
    a 1-10 rating with no pass mark. 7 is the first grade clearly above the
    scale's midpoint (5.5), so a valid answer is one the judge rates as
    good rather than middling. A precision estimate depends on this cut;
    report it (``threshold_used``) and try 6 and 8 to see how much it moves.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rows = [{"question_id": 81, "model": "vicuna-13b-v1.3", "judge": ["gpt-4", "single-v1"],
    ...          "score": 8, "turn": 1}]
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "gpt-4_single.jsonl"
    >>> _ = path.write_text("\\n".join(json.dumps(r) for r in rows))
    >>> read_mt_bench_judgments(path).judgments.to_dict("records")
    [{'generator': 'vicuna-13b-v1.3', 'item': '81#t1', 'validator': 'gpt-4', 'label': 1, 'score': 8.0}]
    """
    cut = check_threshold(threshold)
    used = MT_BENCH_DEFAULT_THRESHOLD if cut is None else cut
    book = VoteBook("mt_bench", duplicates)
    single: list[tuple[Path, dict[str, Any]]] = []
    pair: list[tuple[Path, dict[str, Any]]] = []
    for path in expand_paths(paths, (".jsonl",), MT_BENCH_FILES):
        book.sources.append(str(path))
        for number, row in load_jsonl(path, _EXPECTED):
            if "question_id" not in row or "judge" not in row:
                raise ImportFormatError(
                    f"{path}, line {number}: not {_EXPECTED}: no question_id or judge."
                )
            if "model" in row and "score" in row:
                book.unknown(row, _SINGLE_FIELDS, "single")
                single.append((path, row))
            elif {"model_1", "model_2"} <= set(row) and ("g1_winner" in row or "winner" in row):
                book.unknown(row, _PAIR_FIELDS, "pair")
                pair.append((path, row))
            else:
                raise ImportFormatError(
                    f"{path}, line {number}: not {_EXPECTED}: neither model + score nor "
                    "model_1 + model_2 + g1_winner."
                )
    for path, row in single:
        label = _single_label(row["score"], used, book)
        book.vote(
            row["model"], _item(row), _judge(row), "single", label, path,
            explanation=row.get("judgment"), score=row.get("score"),
        )  # fmt: skip
    if pair:
        chosen = choose_baseline((row["model_2"] for _, row in pair), baseline, "model_2")
        for path, row in pair:
            _read_pair(path, row, chosen, book)
    return book.result(used if single else None)


def _item(row: dict[str, Any]) -> str:
    return f"{row['question_id']}#t{row.get('turn', 1)}"


def _judge(row: dict[str, Any]) -> str:
    judge = row["judge"]
    return str(judge[0]) if isinstance(judge, list) and judge else str(judge)


def _single_label(score: Any, threshold: float, book: VoteBook) -> int | None:
    rating = finite_number(score)
    if rating is None or rating < 0:
        book.count("unparsed ratings (-1) read as missing")
        return None
    return int(rating >= threshold)


def _read_pair(path: Path, row: dict[str, Any], baseline: str, book: VoteBook) -> None:
    first, second = str(row["model_1"]), str(row["model_2"])
    if second == baseline:
        generator, slot = first, "model_1"
    elif first == baseline:
        generator, slot = second, "model_2"
    else:
        book.count(f"pairwise judgments not involving the baseline {baseline!r} skipped")
        return
    if "winner" in row:
        winner = row["winner"]
    else:
        winner = row["g1_winner"] if row["g1_winner"] == row.get("g2_winner") else "inconsistent"
    if winner in ("model_1", "model_2"):
        label: int | None = int(winner == slot)
    else:
        book.count(f"pairwise {winner} verdicts read as missing")
        label = None
    reasons = [row.get(k) for k in ("g1_judgment", "g2_judgment")]
    explanation = "\n---\n".join(r for r in reasons if isinstance(r, str) and r.strip())
    book.vote(generator, _item(row), _judge(row), "pair", label, path, explanation=explanation)
