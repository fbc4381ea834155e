"""AlpacaEval annotations (``results/<model>/<annotator>/annotations.json``) as pairwise verdicts.

Layout read from tatsu-lab/alpaca_eval (commit cd543a1): each annotation has
``instruction``, ``generator_1`` / ``output_1``, ``generator_2`` /
``output_2``, ``annotator`` and ``preference``, in the order of
``generator_1`` then ``generator_2``: 1 when output_1 is preferred, 2 when
output_2 is, 1.5 (0 in old files) a draw, a value in between for the weighted
annotators (``1 + P(output_2 preferred)``), None when the reply was not parsed.

AlpacaEval shows the two outputs to the judge in a random order and undoes
the switch before writing (``processors.py``, ``RandomSwitchTwoColumnsProcessor``),
dropping the ``is_switched_outputs`` flag; old files kept it. The switch is
seeded: ``random.Random("is_switched_outputs" + instruction + str(seed))
.choices([False, True])`` with the annotator's seed, 0 by default
(``annotators/base.py``), so the order shown is recomputed from the
instruction when the flag is absent. The annotators configured with
``is_randomize_output_order: false`` (``lmsys_gpt4``, ``aviary_gpt4``) always
showed output_1 first.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from jurycal.importers.alpaca_eval import ALPACA_EVAL_EXPECTED, ALPACA_EVAL_FIELDS
from jurycal.importers.names import ALPACA_EVAL_FILES
from jurycal.importers.pairwise.book import BattleBook, PairwiseImportResult
from jurycal.importers.records import PathsLike, expand_paths, finite_number, load_json, short_hash
from jurycal.importers.result import ImportFormatError

__all__ = ["ALPACA_EVAL_UNSWITCHED", "alpaca_eval_switched", "read_alpaca_eval_pairs"]

#: The AlpacaEval annotators that show output_1 first always (``is_randomize_output_order: false``).
ALPACA_EVAL_UNSWITCHED = frozenset({"lmsys_gpt4", "aviary_gpt4"})


def alpaca_eval_switched(instruction: str, seed: int = 0) -> bool:
    """Whether AlpacaEval showed output_2 first for ``instruction`` (its seeded switch).

    ``processors.py`` ``RandomSwitchTwoColumnsProcessor.preprocess`` with the
    switch column ``is_switched_outputs``, the seed column ``instruction`` and
    the annotator's seed.

    Examples
    --------
    >>> alpaca_eval_switched("What is the capital of France?") in (True, False)
    True
    """
    return bool(random.Random(f"is_switched_outputs{instruction}{seed}").choices([False, True])[0])


def read_alpaca_eval_pairs(
    paths: PathsLike, *, seed: int = 0, duplicates: str = "error"
) -> PairwiseImportResult:
    """Read AlpacaEval annotations into the pairwise verdicts table.

    Parameters
    ----------
    paths : path or sequence of paths
        ``annotations.json`` files, or directories holding them.
    seed : int
        The annotator's seed, for the order shown where the file does not
        record it (AlpacaEval's default, 0, unless ``--seed`` was changed).
    duplicates : {"error", "last"}
        A verdict read twice (same battle, annotator and order): an error
        (default), or ``"last"``: keep the last record read.

    Returns
    -------
    PairwiseImportResult
        ``item`` = a 12-digit hash of the instruction (as the judgments
        importer writes it); ``generator_a`` = ``generator_1`` (the baseline),
        ``generator_b`` = ``generator_2``; ``validator`` = ``annotator``;
        ``verdict`` ``"a"`` when the preference is below 1.5, ``"b"`` above,
        ``"tie"`` at 1.5 (or 0, old files' draw), None when unparsed or outside
        [1, 2]; ``position`` ``"ba"`` where output_2 was shown first;
        ``score`` the preference as written.

    Raises
    ------
    ImportFormatError
        For a file that is not AlpacaEval annotations, naming it and the entry.

    Notes
    -----
    A weighted annotator's preference is a probability; the verdict keeps its
    side (more likely than not), and ``score`` keeps the number.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rows = [{"instruction": "Name a prime.", "generator_1": "gpt4_turbo",
    ...          "generator_2": "my-model", "annotator": "weighted_alpaca_eval_gpt4_turbo",
    ...          "preference": 1.8}]
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "annotations.json"
    >>> _ = path.write_text(json.dumps(rows))
    >>> read_alpaca_eval_pairs(path).verdicts[["generator_a", "generator_b", "verdict"]].values.tolist()
    [['gpt4_turbo', 'my-model', 'b']]
    """
    book = BattleBook("alpaca_eval", duplicates)
    for path in expand_paths(paths, (".json",), ALPACA_EVAL_FILES):
        book.sources.append(str(path))
        for row in _load(path, book):
            _read_row(path, row, seed, book)
    return book.result()


def _load(path: Path, book: BattleBook) -> list[dict[str, Any]]:
    data = load_json(path, ALPACA_EVAL_EXPECTED)
    if not isinstance(data, list):
        raise ImportFormatError(f"{path}: not {ALPACA_EVAL_EXPECTED}: the top level is not a list.")
    for position, row in enumerate(data):
        needed = {"instruction", "generator_1", "generator_2", "preference"}
        if not isinstance(row, dict) or not needed <= set(row):
            raise ImportFormatError(
                f"{path}: not {ALPACA_EVAL_EXPECTED}: entry {position} lacks instruction, generator_1, "
                "generator_2 or preference."
            )
        book.unknown(row, ALPACA_EVAL_FIELDS, "annotation")
    return data


def _read_row(path: Path, row: dict[str, Any], seed: int, book: BattleBook) -> None:
    annotator = row.get("annotator")
    if not annotator:
        book.note("some annotations name no annotator; the validator is 'alpaca_eval annotator'.")
        annotator = "alpaca_eval annotator"
    if isinstance(row.get("is_switched_outputs"), bool):
        switched = row["is_switched_outputs"]
    elif annotator in ALPACA_EVAL_UNSWITCHED:
        switched = False
    else:
        switched = alpaca_eval_switched(str(row["instruction"]), seed)
        book.note(
            f"the order shown is recomputed from AlpacaEval's seeded switch (seed {seed}) where "
            "an annotation does not record it."
        )
    raw = row.get("raw_completion")
    if isinstance(raw, dict):
        raw = raw.get("concise_explanation") or raw.get("explanation")
    book.verdict(
        short_hash(row["instruction"]), row["generator_1"], row["generator_2"], annotator,
        _verdict(row.get("preference"), book), "ba" if switched else "ab", path,
        explanation=raw, score=row.get("preference"),
    )  # fmt: skip


def _verdict(preference: Any, book: BattleBook) -> str | None:
    value = finite_number(preference)
    if value is None:
        book.count("annotations without a parsed preference read as no verdict")
        return None
    if value == 0.0:
        book.count("old-style draws (preference 0) read as ties")
        return "tie"
    if not 1.0 <= value <= 2.0:
        book.count("preferences outside [1, 2] read as no verdict")
        return None
    return "a" if value < 1.5 else "b" if value > 1.5 else "tie"
