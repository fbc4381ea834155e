"""Realistic messy validator outputs, written from the paper's prompt format, for tests and demos.

The agreeableness paper's raw validator responses are not public, so the
repair stage is exercised on responses written here from the validator
prompt's output format (App. A.2)::

    {"mistakes": [...], "fixes": [...],
     "feedback_lines": [{"line_number": <integer>, "feedback": <string>,
                         "analysis": <string>, "classification": "valid" | "invalid"}]}

with each kind of mess the paper reports (§3, App. B.2-B.3: missing or
mismatched fields, feedback not reproduced, other line-number keys and
formats, invented labels) and the ones validators are known for (prose around
the JSON, trailing commas, Python literals, cut-off output) at configurable
rates. The intended label of each (item, validator) pair is given (e.g. the
real votes of ``regression.datasets``), so a repair can be scored against it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import check_probability, require_columns

__all__ = ["MessRates", "SimulatedOutputs", "simulate_validator_outputs"]

_PROSE_BEFORE = (
    "Here is my analysis of the TA's feedback:\n\n",
    "Sure! Below is the evaluation of each feedback line.\n",
    "I'll go through the student's code step by step and then assess each feedback line.\n\n",
    "Let's analyze the buggy program first. The student's code does not pass the tests.\n",
)
_PROSE_AFTER = (
    "\n\nLet me know if you'd like a more detailed explanation.",
    "\n\nOverall, most of the TA's feedback is helpful.",
    "\n",
)
_REFUSALS = (
    "I'm sorry, but I can't evaluate this feedback without the student's code.",
    "Error: the model's response was empty or blocked by the content filter.",
    "The feedback lines look reasonable overall; the TA identified the main issue.",
    '```json\n{"mistakes": ["The program reads the input as a string"',
)
_ANALYSIS = {
    1: (
        "The feedback correctly identifies the mistake and matches the TA's fix.",
        "This line addresses the actual bug; applying it makes the failing tests pass.",
        "Accurate: the student's code has exactly this problem.",
    ),
    0: (
        "The feedback does not address the actual mistake in this line.",
        "The suggested change is unnecessary and would not fix the failing tests.",
        "This refers to code that is not in the student's program.",
    ),
}
_EXTRA_FEEDBACK = (
    "Consider adding comments to explain the logic of the program.",
    "The variable names could be more descriptive to improve readability.",
    "Add a docstring describing what the program does.",
    "Make sure to test the program with edge cases such as negative numbers.",
)
_VALID_SYNONYMS: tuple[Any, ...] = (
    "Valid",
    "VALID",
    "valid.",
    " valid ",
    "correct",
    "Correct",
    "true",
    True,
    "yes",
    "accurate",
)
_INVALID_SYNONYMS: tuple[Any, ...] = (
    "Invalid",
    "INVALID",
    "invalid.",
    "incorrect",
    "Incorrect",
    "false",
    False,
    "no",
    "wrong",
    "not valid",
)
_INVENTED = (
    "partially valid",
    "Partially Valid",
    "partially correct",
    "mostly valid",
    "needs improvement",
    "valid but incomplete",
)
_LINE_KEYS = ("line_num", "lineNumber", "line", "Line Number", "line_no")
_LABEL_KEYS = ("label", "verdict", "Classification", "class")
_FEEDBACK_KEYS = ("Feedback", "feedback_text", "text")
_FILLER = frozenset({"the", "a", "an", "to", "of", "that", "your", "this", "in", "is"})
_REWORDS = (
    ("should", "must"),
    ("Use ", "Try using "),
    ("instead of", "rather than"),
    ("incorrect", "wrong"),
    ("You need to", "Make sure to"),
    ("variable", "var"),
)


@dataclass(frozen=True)
class MessRates:
    """Probabilities of each kind of mess (before any per-validator scaling).

    Per response: ``missing_output`` (no response: the row is absent, ``None``
    or blank), ``refusal`` (text without usable JSON), ``fence`` (a `````json``
    fence: the normal format, strict JSON copes), ``prose`` (prose around the
    JSON; without a fence the strict reading fails), ``trailing_commas``,
    ``python_literals`` (single quotes, ``True`` / ``None``: a Python repr),
    ``top_level_list`` (only the ``feedback_lines`` list), ``truncation`` (cut
    off inside an entry: that entry and the rest are lost), ``extra_entries``
    (an invented entry about feedback the generator never gave).

    Per entry: ``dropped_entry`` (the validator skipped the item),
    ``key_variants`` (``line_num``, ``lineNumber``, ``label``, ``verdict``,
    ``Feedback``, ...), ``label_synonyms`` (``Valid``, ``incorrect``,
    ``true``, ``yes``, ...), ``invented_labels`` (of the entries meant to be
    invalid: ``partially valid`` and the like, which the default label policy
    reads as invalid), ``line_formats`` (``"line 3"``, ``"L3"``, ``"3."``,
    ``"2–3"``, ``[2, 3]``, a range's start line, ...), ``shortened_feedback``
    (a clipped prefix), ``paraphrased_feedback`` (small word edits).

    The defaults are tuned so that the bundled sample has about the paper's
    missing rate before repair (9.4 %, App. B.2).
    """

    missing_output: float = 0.002
    refusal: float = 0.001
    fence: float = 0.7
    prose: float = 0.045
    trailing_commas: float = 0.005
    python_literals: float = 0.005
    top_level_list: float = 0.003
    truncation: float = 0.003
    extra_entries: float = 0.03
    dropped_entry: float = 0.0015
    key_variants: float = 0.008
    label_synonyms: float = 0.008
    invented_labels: float = 0.06
    line_formats: float = 0.009
    shortened_feedback: float = 0.006
    paraphrased_feedback: float = 0.006

    def __post_init__(self) -> None:
        for field in fields(self):
            check_probability(field.name, getattr(self, field.name))

    def scaled(self, factor: float) -> MessRates:
        """Every rate but ``fence`` times ``factor``, capped at 1."""
        values = {k: (v if k == "fence" else min(1.0, v * factor)) for k, v in asdict(self).items()}
        return MessRates(**values)


@dataclass(frozen=True)
class SimulatedOutputs:
    """Simulated validator responses and what was done to them.

    Attributes
    ----------
    outputs : DataFrame
        ``generator, task, validator, raw``: the input of :func:`repair.repair_judgments`
        (responses simulated as absent have no row).
    truth : DataFrame
        One row per (generator, item, validator) pair: ``label`` (the intended
        label, Int8 with ``<NA>``), ``mess`` (the kinds of mess applied to it,
        joined by ``+``; ``''`` for none) and ``recoverable`` (False when the
        label was never written: missing response, refusal, dropped entry,
        cut by truncation, or no intended label).
    """

    outputs: pd.DataFrame
    truth: pd.DataFrame


def _emit(value: Any, indent: int | None, trailing: bool, level: int = 0) -> str:
    """JSON text, optionally with a trailing comma after every last element."""
    if isinstance(value, dict):
        parts = [
            f"{json.dumps(str(k), ensure_ascii=False)}: {_emit(v, indent, trailing, level + 1)}"
            for k, v in value.items()
        ]
        return _wrap("{", "}", parts, indent, trailing, level)
    if isinstance(value, list):
        return _wrap(
            "[",
            "]",
            [_emit(v, indent, trailing, level + 1) for v in value],
            indent,
            trailing,
            level,
        )
    return json.dumps(value, ensure_ascii=False)


def _wrap(
    open_: str, close: str, parts: list[str], indent: int | None, trailing: bool, level: int
) -> str:
    if not parts:
        return open_ + close
    tail = "," if trailing else ""
    if indent is None:
        return open_ + ", ".join(parts) + tail + close
    pad, inner = " " * (indent * level), " " * (indent * (level + 1))
    return open_ + "\n" + ",\n".join(inner + p for p in parts) + tail + "\n" + pad + close


def _shorten(text: str, rng: np.random.Generator) -> str:
    words = text.split()
    if len(words) < 6:
        return text
    keep = int(rng.integers(max(4, int(0.55 * len(words))), max(5, int(0.85 * len(words)))))
    return " ".join(words[:keep]) + ("..." if rng.random() < 0.5 else "")


def _paraphrase(text: str, rng: np.random.Generator) -> str:
    for old, new in _REWORDS:
        if old in text and rng.random() < 0.5:
            text = text.replace(old, new, 1)
    words = text.split()
    fillers = [k for k, w in enumerate(words) if w.lower() in _FILLER]
    for k in sorted(rng.permutation(fillers)[:2].tolist(), reverse=True):
        del words[k]
    text = " ".join(words).rstrip(".")
    return text[:1].lower() + text[1:] if rng.random() < 0.5 else text


def _line_value(line: str, rng: np.random.Generator, messy: bool) -> Any:
    numbers = [int(n) for n in line.replace(",", " ").replace("-", " ").split() if n.isdigit()]
    clean: Any = int(line) if line.isdigit() else line
    if not messy or not numbers:
        return clean
    a, b = min(numbers), max(numbers)
    if a == b:
        options: list[Any] = [f"line {a}", f"Line {a}", f"L{a}", f"{a}.", str(a), [a]]
    else:
        options = [f"{a}–{b}", f"lines {a} to {b}", [a, b], a, f"{a} - {b}", f"lines {line}"]
    return options[int(rng.integers(len(options)))]


def _pick(options: tuple[Any, ...], rng: np.random.Generator) -> Any:
    return options[int(rng.integers(len(options)))]


def simulate_validator_outputs(
    generator_items: pd.DataFrame,
    labels: pd.DataFrame,
    *,
    rates: MessRates | None = None,
    validator_scale: Mapping[str, float] | None = None,
    seed: int = 0,
    progress: bool = True,
) -> SimulatedOutputs:
    """Write one messy response per (generator, task, validator) from the intended labels.

    Parameters
    ----------
    generator_items : DataFrame
        ``generator, task, item, line, feedback`` (as for :func:`repair.repair_judgments`).
    labels : DataFrame
        The intended labels, in the judgments data model: ``generator, item,
        validator, label`` (1 valid, 0 invalid, missing: the validator gives no
        entry for the item).
    rates : MessRates, optional
        Probabilities of each kind of mess (default ``MessRates()``).
    validator_scale : mapping of validator to float, optional
        Multiplies every rate but ``fence`` for that validator (the paper's
        Fig. 8: some validators fail far more often than others).
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same text.
    progress : bool
        Show a progress bar over responses when there are more than 10,000.

    Returns
    -------
    SimulatedOutputs

    Raises
    ------
    ValueError
        Missing columns, a label pair without a generator item, a negative scale.

    Notes
    -----
    The response format is the validator prompt's (agreeableness paper App.
    A.2); the kinds of failure follow §3 and App. B.2-B.3. Entries keep the
    items' order within a task; an invented label is written only where the
    intended label is invalid, so the default label policy (invented =
    invalid) recovers the intended vote.

    Examples
    --------
    >>> import pandas as pd
    >>> items = pd.DataFrame({"generator": "g", "task": 1, "item": [0, 1], "line": ["2", "3"],
    ...                       "feedback": ["Use int() on the input.", "Print the result."]})
    >>> labels = pd.DataFrame({"generator": "g", "item": [0, 1], "validator": "v", "label": [1, 0]})
    >>> sim = simulate_validator_outputs(items, labels, rates=MessRates(fence=0.0, extra_entries=0.0,
    ...                                  invented_labels=0.0), seed=1)
    >>> import json; [e["classification"] for e in json.loads(sim.outputs["raw"][0])["feedback_lines"]]
    ['valid', 'invalid']
    """
    rates = MessRates() if rates is None else rates
    if not isinstance(rates, MessRates):
        raise ValueError(f"rates must be a MessRates; got {type(rates).__name__}.")
    require_columns(
        generator_items, ("generator", "task", "item", "line", "feedback"), "generator_items"
    )
    require_columns(labels, ("generator", "item", "validator", "label"), "labels")
    scale = dict(validator_scale or {})
    for name, factor in scale.items():
        if not (isinstance(factor, (int, float)) and math.isfinite(factor) and factor >= 0):
            raise ValueError(
                f"validator_scale[{name!r}] ({factor!r}) must be a finite number >= 0."
            )
    rng = np.random.default_rng(seed)
    items = generator_items[["generator", "task", "item", "line", "feedback"]].reset_index(
        drop=True
    )
    merged = labels[["generator", "item", "validator", "label"]].merge(
        items, on=["generator", "item"], how="left", indicator=True, sort=False
    )
    orphan = merged["_merge"] != "both"
    if orphan.any():
        generator, item = (
            merged.loc[orphan, column].tolist()[0] for column in ("generator", "item")
        )
        raise ValueError(
            f"labels has a pair without a generator item: generator {generator!r}, item {item!r}."
        )
    merged = merged.drop(columns="_merge")
    merged["_order"] = np.arange(len(merged))
    item_position = pd.Series(
        np.arange(len(items)), index=pd.MultiIndex.from_frame(items[["generator", "item"]])
    )
    merged["_pos"] = item_position.reindex(
        pd.MultiIndex.from_frame(merged[["generator", "item"]])
    ).to_numpy()
    merged = merged.sort_values(["generator", "task", "validator", "_pos"], kind="stable")
    truth_mess = np.full(len(merged), "", dtype=object)
    truth_ok = np.zeros(len(merged), dtype=bool)

    groups = merged.groupby(["generator", "task", "validator"], sort=False).indices
    rows_out: list[tuple[Any, Any, Any, str | None]] = []
    iterator: Any = groups.items()
    if progress and len(groups) > 10_000:
        from tqdm.auto import tqdm

        iterator = tqdm(
            iterator, total=len(groups), desc="simulating responses", unit="response", leave=False
        )
    label_values = merged["label"].to_numpy(dtype=object)
    line_values = merged["line"].to_numpy(dtype=object)
    feedback_values = merged["feedback"].to_numpy(dtype=object)
    scaled = {name: rates.scaled(factor) for name, factor in scale.items()}
    for (generator, task, validator), where in iterator:
        r = scaled.get(validator, rates)
        result = _one_response(where, label_values, line_values, feedback_values, r, rng)
        raw, entry_mess, entry_ok = result
        truth_mess[where] = entry_mess
        truth_ok[where] = entry_ok
        if raw is not _ABSENT:
            rows_out.append((generator, task, validator, raw))
    outputs = pd.DataFrame(rows_out, columns=["generator", "task", "validator", "raw"])
    outputs["raw"] = outputs["raw"].astype(object)
    order = merged["_order"].to_numpy()
    truth = (
        pd.DataFrame(
            {
                "generator": merged["generator"].to_numpy(),
                "item": merged["item"].to_numpy(),
                "validator": merged["validator"].to_numpy(),
                "label": pd.array(merged["label"].to_numpy(dtype=object), dtype="Int8"),
                "mess": truth_mess,
                "recoverable": truth_ok,
            }
        )
        .iloc[np.argsort(order, kind="stable")]
        .reset_index(drop=True)
    )
    return SimulatedOutputs(outputs=outputs, truth=truth)


_ABSENT = object()


def _one_response(
    where: np.ndarray,
    label_values: np.ndarray,
    line_values: np.ndarray,
    feedback_values: np.ndarray,
    r: MessRates,
    rng: np.random.Generator,
) -> tuple[Any, list[str], list[bool]]:
    n = len(where)
    if rng.random() < r.missing_output:
        u = rng.random()
        raw: Any = _ABSENT if u < 0.5 else (None if u < 0.75 else "")
        return raw, ["missing_output"] * n, [False] * n
    if rng.random() < r.refusal:
        return _pick(_REFUSALS, rng), ["refusal"] * n, [False] * n

    response_mess = []
    entries: list[dict[str, Any]] = []
    owners: list[int] = []  # entry -> position in `where` (-1: invented entry)
    mess: list[list[str]] = [[] for _ in range(n)]
    ok = [True] * n
    for k in range(n):
        label = label_values[where[k]]
        if label is None or label is pd.NA or (isinstance(label, float) and math.isnan(label)):
            mess[k].append("no_vote")
            ok[k] = False
            continue
        if rng.random() < r.dropped_entry:
            mess[k].append("dropped_entry")
            ok[k] = False
            continue
        label = int(label)
        feedback = str(feedback_values[where[k]])
        if rng.random() < r.shortened_feedback:
            feedback = _shorten(feedback, rng)
            mess[k].append("shortened_feedback")
        elif rng.random() < r.paraphrased_feedback:
            feedback = _paraphrase(feedback, rng)
            mess[k].append("paraphrased_feedback")
        line_messy = rng.random() < r.line_formats
        line = _line_value(str(line_values[where[k]]), rng, line_messy)
        if line_messy:
            mess[k].append("line_formats")
        verdict: Any = "valid" if label == 1 else "invalid"
        if label == 0 and rng.random() < r.invented_labels:
            verdict = _pick(_INVENTED, rng)
            mess[k].append("invented_labels")
        elif rng.random() < r.label_synonyms:
            verdict = _pick(_VALID_SYNONYMS if label == 1 else _INVALID_SYNONYMS, rng)
            mess[k].append("label_synonyms")
        keys = ["line_number", "feedback", "analysis", "classification"]
        if rng.random() < r.key_variants:
            which = int(rng.integers(3))
            if which == 0:
                keys[0] = _pick(_LINE_KEYS, rng)
            elif which == 1:
                keys[3] = _pick(_LABEL_KEYS, rng)
            else:
                keys[1] = _pick(_FEEDBACK_KEYS, rng)
            mess[k].append("key_variants")
        entries.append(
            dict(zip(keys, [line, feedback, _pick(_ANALYSIS[label], rng), verdict], strict=True))
        )
        owners.append(k)

    if rng.random() < r.extra_entries:
        extra = {
            "line_number": int(rng.integers(1, 12)),
            "feedback": _pick(_EXTRA_FEEDBACK, rng),
            "analysis": "This is a general suggestion.",
            "classification": "valid" if rng.random() < 0.7 else "invalid",
        }
        at = int(rng.integers(len(entries) + 1))
        entries.insert(at, extra)
        owners.insert(at, -1)
        response_mess.append("extra_entries")

    python = rng.random() < r.python_literals
    trailing = (not python) and rng.random() < r.trailing_commas
    top_list = rng.random() < r.top_level_list
    document: Any = (
        entries
        if top_list
        else {
            "mistakes": ["The student's program does not produce the expected output."],
            "fixes": ["See the TA's fixed code."],
            "feedback_lines": entries,
        }
    )
    if python:
        text = repr(document)
        response_mess.append("python_literals")
    else:
        text = _emit(document, _pick((2, 4, None), rng), trailing)
        if trailing:
            response_mess.append("trailing_commas")
    if top_list:
        response_mess.append("top_level_list")

    if entries and rng.random() < r.truncation:
        cut_entry = int(rng.integers(len(entries)))
        start = 0
        position = -1
        for e, entry in enumerate(entries):
            feedback_key = list(entry)[1]
            needle = (
                repr(entry[feedback_key])
                if python
                else json.dumps(entry[feedback_key], ensure_ascii=False)
            )
            found = text.find(needle, start)
            if found < 0:
                break
            if e == cut_entry:
                position = found + 1 + int(rng.integers(max(len(needle) - 2, 1)))
                break
            start = found + len(needle)
        if position > 0:
            text = text[:position]
            response_mess.append("truncation")
            for e in range(cut_entry, len(entries)):
                if owners[e] >= 0:
                    ok[owners[e]] = False
                    mess[owners[e]].append("truncated_away")

    fenced = rng.random() < r.fence
    if fenced:
        text = "```json\n" + text + ("\n```" if "truncation" not in response_mess else "")
    if rng.random() < r.prose:
        text = _pick(_PROSE_BEFORE, rng) + text
        if "truncation" not in response_mess:
            text += _pick(_PROSE_AFTER, rng)
        response_mess.append("prose" if fenced else "prose_unfenced")
    joined = ["+".join(response_mess + m) for m in mess]
    return text, joined, ok
