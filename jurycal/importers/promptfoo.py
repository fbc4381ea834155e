"""promptfoo result files (``promptfoo eval -o results.json``).

Schema read from promptfoo/promptfoo ``src/types/index.ts``: the output file
holds ``evalId``, ``results`` (``EvaluateSummaryV3``: ``version``,
``timestamp``, ``results``, ``prompts``, ``stats``), ``config`` and
``shareableUrl``. Each ``EvaluateResult`` has ``provider`` (``id``,
``label``), ``promptIdx``, ``testIdx``, ``vars`` and ``gradingResult``, whose
``componentResults`` are one ``GradingResult`` per assertion (``pass``,
``score``, ``assertion`` with ``type`` and ``provider``, ``metadata`` with
``graderError`` when the grader could not answer). The ``human`` assertion
type is a rating a person gave in the web viewer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from jurycal.importers.names import ITEM_KEYS
from jurycal.importers.records import (
    PathsLike,
    VoteBook,
    check_threshold,
    expand_paths,
    load_json,
    pass_or_score,
    short_hash,
    typed,
)
from jurycal.importers.result import ImportFormatError, ImportResult

__all__ = ["MODEL_GRADED_ASSERTIONS", "read_promptfoo_results"]

#: Assertion types graded by a model (a ``not-`` prefix inverts one and keeps it model-graded).
MODEL_GRADED_ASSERTIONS = frozenset({
    "llm-rubric", "g-eval", "factuality", "model-graded-closedqa", "model-graded-factuality",
    "answer-relevance", "context-faithfulness", "context-recall", "context-relevance",
    "conversation-relevance", "search-rubric", "trajectory:goal-success",
})  # fmt: skip

_EXPECTED = "a promptfoo output file (promptfoo eval -o results.json) with results.results"
_FILE_FIELDS = {"evalId", "results", "config", "shareableUrl", "metadata", "vars", "runtimeOptions"}
_SUMMARY_FIELDS = {"version", "timestamp", "results", "prompts", "stats", "table"}
_RESULT_FIELDS = {
    "id", "description", "promptIdx", "testIdx", "testCase", "promptId", "provider", "prompt",
    "vars", "response", "error", "failureReason", "success", "score", "latencyMs",
    "gradingResult", "namedScores", "cost", "metadata", "tokenUsage",
}  # fmt: skip
_GRADING_FIELDS = {
    "pass", "score", "reason", "namedScores", "namedScoreWeights", "tokensUsed",
    "componentResults", "assertion", "comment", "suggestions", "metadata",
}  # fmt: skip
_DEFAULT_GRADER = "promptfoo default grader"


def read_promptfoo_results(
    paths: PathsLike,
    threshold: float | None = None,
    *,
    item_key: str = "test",
    duplicates: str = "error",
) -> ImportResult:
    """Read promptfoo result files into the judgments table.

    Parameters
    ----------
    paths : path or sequence of paths
        ``results.json`` files written by ``promptfoo eval -o``, or directories.
    threshold : float, optional
        When given, an assertion is valid when its ``score >= threshold``.
        Default: the assertion's own ``pass`` (which already applies the
        assertion's threshold, and the inversion of a ``not-`` assertion).
    item_key : {"test", "vars"}
        ``"test"``: the item is the test index (``testIdx``). ``"vars"``: a
        12-digit hash of the test's variables, stable when files from runs
        with a different test order are combined.

    duplicates : {"error", "last"}
        A (generator, item, validator) read twice: an error naming the
        option (default), or ``"last"``: keep the last record read.
    Returns
    -------
    ImportResult
        ``generator`` = the provider's label (else its id), with
        ``" [prompt k]"`` added when the file ran several prompts;
        ``validator`` = each model-graded assertion's grading provider (the
        assertion's ``provider``, else the test's or ``defaultTest``'s
        ``options.provider``, else ``"promptfoo default grader"``). A grader
        error is a missing label. ``human`` assertions become human labels.

    Raises
    ------
    ImportFormatError
        For a file that is not a promptfoo output file, naming it.
    ValueError
        For an unknown ``item_key``, a bad threshold, or a vote read twice.

    Notes
    -----
    Deterministic assertions (``contains``, ``equals``, ``is-json``, ...) are
    not judges and are left out; the notes count them.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rubric = {"pass": False, "score": 0, "reason": "vague",
    ...           "assertion": {"type": "llm-rubric", "provider": "openai:gpt-4o"}}
    >>> out = {"evalId": "e1", "results": {"version": 3, "results": [
    ...     {"provider": {"id": "openai:gpt-4o-mini"}, "promptIdx": 0, "testIdx": 0,
    ...      "gradingResult": {"pass": False, "score": 0, "componentResults": [rubric]}}]}}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = path.write_text(json.dumps(out))
    >>> read_promptfoo_results(path).judgments.to_dict("records")
    [{'generator': 'openai:gpt-4o-mini', 'item': '0', 'validator': 'openai:gpt-4o', 'label': 0,
      'explanation': 'vague', 'score': 0.0}]
    """
    if item_key not in ITEM_KEYS:
        raise ValueError(f"item_key ({item_key!r}) not recognized; must be 'test' or 'vars'.")
    cut = check_threshold(threshold)
    book = VoteBook("promptfoo", duplicates)
    for path in expand_paths(paths, (".json",)):
        book.sources.append(str(path))
        _read_file(path, cut, item_key, book)
    return book.result(cut)


def _read_file(path: Path, threshold: float | None, item_key: str, book: VoteBook) -> None:
    data = load_json(path, _EXPECTED)
    summary = _dig(data, "results")
    results = _dig(data, "results", "results")
    if not isinstance(results, list) or not isinstance(summary, dict):
        raise ImportFormatError(f"{path}: not {_EXPECTED}: no 'results.results' list.")
    book.unknown(data, _FILE_FIELDS, "file")
    book.unknown(summary, _SUMMARY_FIELDS, "results")
    default_grader = _grader_name(_dig(data, "config", "defaultTest", "options", "provider"))
    prompt_names = _prompt_names(results)
    for position, result in enumerate(results):
        if not isinstance(result, dict) or "provider" not in result:
            raise ImportFormatError(
                f"{path}: not {_EXPECTED}: results.results[{position}] has no 'provider'."
            )
        book.unknown(result, _RESULT_FIELDS, "result")
        generator = _provider_name(result["provider"]) or "unknown provider"
        if len(set(prompt_names.values())) > 1:
            generator = f"{generator} [{prompt_names[_prompt_key(result)]}]"
        if item_key == "vars":
            item = short_hash(result.get("vars") or _dig(result, "testCase", "vars"))
        else:
            item = str(result.get("testIdx", position))
        grading = result.get("gradingResult")
        if not isinstance(grading, dict):
            book.count("results without a grading result (provider errors?) skipped")
            continue
        test_grader = _grader_name(_dig(result, "testCase", "options", "provider"))
        test_grader = test_grader or default_grader
        seen: Counter[tuple[str, str]] = Counter()
        for component in _components(grading, book, path):
            assertion = component.get("assertion")
            assertion = assertion if isinstance(assertion, dict) else {}
            kind = str(assertion.get("type", ""))
            base = kind[4:] if kind.startswith("not-") else kind
            if kind == "human":
                if isinstance(component.get("pass"), bool):
                    book.human(generator, item, int(component["pass"]), path)
                continue
            if base not in MODEL_GRADED_ASSERTIONS:
                book.count("deterministic assertions (not judges) skipped")
                continue
            judge = _grader_name(assertion.get("provider")) or test_grader
            if judge is None:
                book.note(
                    "some model-graded assertions name no grading provider; the validator is "
                    f"{_DEFAULT_GRADER!r} (promptfoo's default for the assertion type)."
                )
                judge = _DEFAULT_GRADER
            question = str(assertion.get("metric") or kind)
            seen[(judge, question)] += 1
            if seen[(judge, question)] > 1:
                book.note(
                    f"{path}: graders share the name {judge!r} on one test with no label or "
                    "config to tell them apart; they are told apart by position (#2, #3, ...)."
                )
                question = f"{question}#{seen[(judge, question)]}"
            book.vote(
                generator, item, judge, question, _label(component, threshold, book), path,
                explanation=component.get("reason"), score=component.get("score"),
                usable=not _dig(component, "metadata", "graderError"),
            )  # fmt: skip


def _components(
    grading: Mapping[str, Any], book: VoteBook, path: Path
) -> Iterator[Mapping[str, Any]]:
    """Per-assertion grading results, assert-sets flattened."""
    book.unknown(grading, _GRADING_FIELDS, "gradingResult")
    components = grading.get("componentResults") or []
    for component in typed(components, list, path, _EXPECTED, "componentResults"):
        if not isinstance(component, dict):
            continue
        assertion = component.get("assertion")
        kind = assertion.get("type") if isinstance(assertion, dict) else None
        if kind == "assert-set" or (not assertion and component.get("componentResults")):
            yield from _components(component, book, path)
        else:
            yield component


def _label(component: Mapping[str, Any], threshold: float | None, book: VoteBook) -> int | None:
    if _dig(component, "metadata", "graderError"):
        book.count("grader errors read as missing")
        return None
    return pass_or_score(
        component.get("pass"), component.get("score"), threshold, book, "assertions"
    )


def _prompt_key(result: Mapping[str, Any]) -> str:
    """What tells a result's prompt apart: its ``promptId``, else its text, else its index."""
    for key in (result.get("promptId"), _dig(result, "prompt", "raw")):
        if isinstance(key, str) and key:
            return key
    return f"#{result.get('promptIdx')}"


def _prompt_names(results: list[Any]) -> dict[str, str]:
    """A short name per distinct prompt: its label when short, else ``prompt k`` (first seen k)."""
    names: dict[str, str] = {}
    for result in results:
        if not isinstance(result, dict):
            continue
        key = _prompt_key(result)
        if key not in names:
            label = _dig(result, "prompt", "label")
            short = isinstance(label, str) and 0 < len(label) <= 40 and "\n" not in label
            names[key] = str(label) if short else f"prompt {len(names)}"
    return names


def _grader_name(provider: Any) -> str | None:
    """A grading provider's name: its label, else its id with its config's scalar settings.

    Two graders that share a provider id (one local script asked to act as
    two judges) differ in their ``config``; the name keeps them apart.
    """
    name = _provider_name(provider)
    if name is None or not isinstance(provider, dict) or provider.get("label"):
        return name
    config = provider.get("config")
    if not isinstance(config, dict) or not config:
        return name
    settings = ",".join(
        f"{key}={value}"
        for key, value in sorted(config.items())
        if isinstance(value, (str, int, float, bool))
    )
    if not settings or len(settings) > 60:
        settings = short_hash(config)
    return f"{name} ({settings})"


def _provider_name(provider: Any) -> str | None:
    """A grading or generating provider's name: a string, or an object's label, else its id."""
    if isinstance(provider, str) and provider:
        return provider
    if isinstance(provider, dict):
        for key in ("label", "id"):
            if isinstance(provider.get(key), str) and provider[key]:
                return str(provider[key])
    return None


def _dig(obj: Any, *keys: str) -> Any:
    """``obj[k1][k2]...``, or None where a level is absent or not an object."""
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj
