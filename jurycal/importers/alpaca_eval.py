"""AlpacaEval annotations (``results/<model>/<annotator>/annotations.json``).

Schema read from tatsu-lab/alpaca_eval: each annotation holds
``instruction``, ``output_1`` / ``generator_1`` (the baseline by
convention), ``output_2`` / ``generator_2``, ``annotator`` and
``preference``: 1 when output_1 is preferred, 2 when output_2 is, 1.5 (or 0
in old files) a draw, a value in between the weighted annotators'
probability ``1 + P(output_2 preferred)`` (``metrics/helpers.py``,
``metrics/winrate.py``), None when the annotator's reply was not parsed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jurycal.importers.names import ALPACA_EVAL_FILES
from jurycal.importers.records import (
    PathsLike,
    VoteBook,
    check_threshold,
    choose_baseline,
    expand_paths,
    finite_number,
    load_json,
    short_hash,
)
from jurycal.importers.result import ImportFormatError, ImportResult

__all__ = [
    "ALPACA_EVAL_EXPECTED",
    "ALPACA_EVAL_FIELDS",
    "ALPACA_EVAL_DEFAULT_THRESHOLD",
    "read_alpaca_eval_annotations",
]

#: The generator's output is valid when P(preferred over the baseline) >= this.
ALPACA_EVAL_DEFAULT_THRESHOLD = 0.5

#: What an AlpacaEval annotations file is, for messages (both readers).
ALPACA_EVAL_EXPECTED = (
    "AlpacaEval annotations (a JSON list of objects with instruction, generator_1, generator_2 "
    "and preference)"
)
#: The fields AlpacaEval writes in an annotation (both readers list others as unknown).
ALPACA_EVAL_FIELDS = {
    "instruction", "output_1", "generator_1", "output_2", "generator_2", "annotator",
    "preference", "raw_completion", "price_per_example", "time_per_example", "dataset",
    "datasplit", "index", "is_switched_outputs", "referenced_models", "glm_preference",
}  # fmt: skip


def read_alpaca_eval_annotations(
    paths: PathsLike,
    threshold: float | None = None,
    *,
    baseline: str | None = None,
    duplicates: str = "error",
) -> ImportResult:
    """Read AlpacaEval annotations into the judgments table.

    Parameters
    ----------
    paths : path or sequence of paths
        ``annotations.json`` files (one per model and annotator), or
        directories holding them.
    threshold : float, optional
        The generator's output is valid when the probability that the
        annotator prefers it to the baseline's is ``>= threshold``. Default
        :data:`ALPACA_EVAL_DEFAULT_THRESHOLD`: preferred more often than not.
    baseline : str, optional
        The reference generator every output is compared with. Default: the
        one model in ``generator_1`` (AlpacaEval's convention).

    duplicates : {"error", "last"}
        A (generator, item, validator) read twice: an error naming the
        option (default), or ``"last"``: keep the last record read.
    Returns
    -------
    ImportResult
        ``generator`` = the model compared with the baseline; ``item`` = a
        12-digit hash of the instruction (the same instruction gives the same
        item across files); ``validator`` = ``annotator``; ``label`` 1 when
        the generator's output is preferred. A draw (1.5 or 0) and an
        unparsed preference are missing labels.

    Raises
    ------
    ImportFormatError
        For a file that is not AlpacaEval annotations, naming it.
    ValueError
        When the baseline cannot be told, for a bad threshold, or a vote read
        twice.

    Notes
    -----
    A preference against a baseline is not a verdict on the output alone: a
    label 1 means "better than the baseline's answer", so the estimated
    precision is a win rate corrected for the annotator's errors (the
    calibrated quantity is the same as AlpacaEval's win rate without length
    control).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rows = [{"instruction": "Name a prime.", "generator_1": "gpt4_turbo",
    ...          "generator_2": "my-model", "annotator": "weighted_alpaca_eval_gpt4_turbo",
    ...          "preference": 1.8}]
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "annotations.json"
    >>> _ = path.write_text(json.dumps(rows))
    >>> read_alpaca_eval_annotations(path).judgments[["generator", "label"]].to_dict("records")
    [{'generator': 'my-model', 'label': 1}]
    """
    cut = check_threshold(threshold)
    used = ALPACA_EVAL_DEFAULT_THRESHOLD if cut is None else cut
    book = VoteBook("alpaca_eval", duplicates)
    files = expand_paths(paths, (".json",), ALPACA_EVAL_FILES)
    tables = []
    for path in files:
        book.sources.append(str(path))
        tables.append((path, _load(path, book)))
    chosen = choose_baseline(
        (row["generator_1"] for _, rows in tables for row in rows), baseline, "generator_1"
    )
    for path, rows in tables:
        for row in rows:
            _read_row(path, row, chosen, used, book)
    return book.result(used)


def _load(path: Path, book: VoteBook) -> list[dict[str, Any]]:
    data = load_json(path, ALPACA_EVAL_EXPECTED)
    if not isinstance(data, list):
        raise ImportFormatError(f"{path}: not {ALPACA_EVAL_EXPECTED}: the top level is not a list.")
    for position, row in enumerate(data):
        if not isinstance(row, dict) or not {"instruction", "generator_1", "generator_2"} <= set(
            row
        ):
            raise ImportFormatError(
                f"{path}: not {ALPACA_EVAL_EXPECTED}: entry {position} lacks instruction, generator_1 or "
                "generator_2."
            )
        if "preference" not in row:
            raise ImportFormatError(
                f"{path}: not {ALPACA_EVAL_EXPECTED}: entry {position} has no preference (model outputs, "
                "not annotations?)."
            )
        book.unknown(row, ALPACA_EVAL_FIELDS, "annotation")
    return data


def _read_row(
    path: Path, row: dict[str, Any], baseline: str, threshold: float, book: VoteBook
) -> None:
    first, second = str(row["generator_1"]), str(row["generator_2"])
    if first == baseline:
        generator, flip = second, False
    elif second == baseline:
        generator, flip = first, True
    else:
        book.count(f"annotations not involving the baseline {baseline!r} skipped")
        return
    annotator = row.get("annotator")
    if not annotator:
        book.note("some annotations name no annotator; the validator is 'alpaca_eval annotator'.")
        annotator = "alpaca_eval annotator"
    item = short_hash(row["instruction"])
    label = _label(row, flip, threshold, book)
    book.vote(
        generator, item, annotator, "preference", label, path,
        explanation=_reason(row.get("raw_completion")), score=row.get("preference"),
    )  # fmt: skip


def _reason(raw: Any) -> str | None:
    """The annotator's reply: its ``concise_explanation`` (chain-of-thought annotators), else
    the raw text."""
    if isinstance(raw, dict):
        raw = raw.get("concise_explanation") or raw.get("explanation")
    return raw if isinstance(raw, str) else None


def _label(row: dict[str, Any], flip: bool, threshold: float, book: VoteBook) -> int | None:
    value = finite_number(row.get("preference"))
    if value is None:
        book.count("annotations without a parsed preference read as missing")
        return None
    if value == 0.0 or value == 1.5:
        book.count("draws read as missing")
        return None
    if not 1.0 <= value <= 2.0:
        book.count("preferences outside [1, 2] read as missing")
        return None
    wins = value - 1.0 if not flip else 2.0 - value
    return int(wins >= threshold)
