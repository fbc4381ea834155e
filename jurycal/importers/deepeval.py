"""DeepEval test runs (``.deepeval/.latest_test_run.json`` or a saved test-run JSON).

Schema read from confident-ai/deepeval: ``test_run/test_run.py`` (``TestRun``:
``testCases``, ``conversationalTestCases``, ``hyperparameters``, ...; the
latest run is saved wrapped as ``{"testRunData": ...}``), ``test_run/api.py``
(``LLMApiTestCase``: ``name``, ``order``, ``metricsData``, ...) and
``tracing/api.py`` (``MetricData``: ``name``, ``threshold``, ``success``,
``score``, ``evaluationModel``, ``error``, ...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jurycal.importers.records import (
    PathsLike,
    VoteBook,
    check_threshold,
    expand_paths,
    load_json,
    pass_or_score,
    typed,
)
from jurycal.importers.result import ImportFormatError, ImportResult

__all__ = ["read_deepeval_run"]

_EXPECTED = "a DeepEval test run (JSON with 'testCases', optionally inside 'testRunData')"
_RUN_FIELDS = {
    "testFile", "testCases", "conversationalTestCases", "metricsScores", "traceMetricsScores",
    "identifier", "hyperparameters", "prompts", "testPassed", "testFailed", "runDuration",
    "evaluationCost", "datasetAlias", "datasetId", "official", "dict_test_cases",
    "metricScores", "configurations",
}  # fmt: skip
_CASE_FIELDS = {
    "expectations", "name", "input", "actualOutput", "expectedOutput", "context",
    "retrievalContext", "toolsCalled", "expectedTools", "tokenCost", "inputTokenCount",
    "outputTokenCount", "completionTime", "tags", "flaky", "imagesMapping", "success",
    "metricsData", "runDuration", "evaluationCost", "order", "metadata", "comments", "trace",
    "turns", "scenario", "expectedOutcome", "userDescription", "additionalMetadata",
}  # fmt: skip
_METRIC_FIELDS = {
    "name", "threshold", "success", "score", "reason", "strictMode", "flaky",
    "evaluationModel", "error", "evaluationCost", "inputTokenCount", "outputTokenCount",
    "verboseLogs",
}  # fmt: skip


def read_deepeval_run(
    paths: PathsLike,
    threshold: float | None = None,
    *,
    generator: str | None = None,
    duplicates: str = "error",
) -> ImportResult:
    """Read DeepEval test runs into the judgments table.

    Parameters
    ----------
    paths : path or sequence of paths
        Test-run JSON files, or directories holding them.
    threshold : float, optional
        When given, a metric is valid when its ``score >= threshold``.
        Default: the metric's own ``success``, which applies the metric's
        threshold in the right direction (for Bias, Toxicity or
        Hallucination lower scores pass; a ``threshold`` here does not know
        that, so leave it out for such metrics).
    generator : str, optional
        The model that wrote the outputs of the files that record none.
        DeepEval records it only when the run logged
        ``hyperparameters={"model": ...}``; a file that records it keeps its
        own, so runs of several models import together.

    duplicates : {"error", "last"}
        A (generator, item, validator) read twice: an error naming the
        option (default), or ``"last"``: keep the last record read.
    Returns
    -------
    ImportResult
        ``generator`` as above; ``item`` = the test case's ``name`` (with
        ``#<order>`` added where names repeat); ``validator`` = the metric's
        ``evaluationModel`` (``"model:metric"`` when one model serves several
        metrics), or the metric name when no model is recorded. A metric that
        errored or has no verdict is a missing label.

    Raises
    ------
    ImportFormatError
        For a file that is not a DeepEval test run, naming it.
    ValueError
        When no generator is recorded or given, for a bad threshold, or a
        vote read twice.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> run = {"testCases": [{"name": "q1", "input": "2+2?", "order": 0, "metricsData": [
    ...     {"name": "Correctness [GEval]", "score": 0.9, "threshold": 0.5, "success": True,
    ...      "evaluationModel": "gpt-4.1"}]}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.json"
    >>> _ = path.write_text(json.dumps(run))
    >>> read_deepeval_run(path, generator="my-rag-v2").judgments.to_dict("records")
    [{'generator': 'my-rag-v2', 'item': 'q1', 'validator': 'gpt-4.1', 'label': 1, 'score': 0.9}]
    """
    cut = check_threshold(threshold)
    book = VoteBook("deepeval", duplicates)
    for path in expand_paths(paths, (".json",)):
        book.sources.append(str(path))
        _read_file(path, cut, generator, book)
    return book.result(cut)


def _read_file(path: Path, threshold: float | None, generator: str | None, book: VoteBook) -> None:
    data = load_json(path, _EXPECTED)
    if isinstance(data, dict) and isinstance(data.get("testRunData"), dict):
        data = data["testRunData"]
    if not isinstance(data, dict) or not (
        isinstance(data.get("testCases"), list)
        or isinstance(data.get("conversationalTestCases"), list)
    ):
        raise ImportFormatError(f"{path}: not {_EXPECTED}.")
    book.unknown(data, _RUN_FIELDS, "run")
    recorded = _recorded_model(data.get("hyperparameters"))
    if generator is None and recorded is None:
        raise ValueError(
            f"{path} does not record the generator (no hyperparameters 'model'); pass "
            "generator= (CLI: --generator NAME) to name the files that record none."
        )
    if recorded is None:
        book.note(f"{path}: generator not recorded; taken from the argument ({generator!r}).")
    name = recorded if recorded is not None else generator
    cases = [
        *typed(data.get("testCases") or [], list, path, _EXPECTED, "testCases"),
        *typed(
            data.get("conversationalTestCases") or [],
            list,
            path,
            _EXPECTED,
            "conversationalTestCases",
        ),
    ]
    names = Counter(str(c.get("name")) for c in cases if isinstance(c, dict))
    for position, case in enumerate(cases):
        if not isinstance(case, dict) or "name" not in case:
            raise ImportFormatError(f"{path}: not {_EXPECTED}: test case {position} has no name.")
        book.unknown(case, _CASE_FIELDS, "testCase")
        item = str(case["name"])
        if names[item] > 1:
            item = f"{item}#{case.get('order', position)}"
        metrics = typed(case.get("metricsData") or [], list, path, _EXPECTED, "metricsData")
        for metric in metrics:
            if not isinstance(metric, dict) or "name" not in metric:
                raise ImportFormatError(
                    f"{path}: not {_EXPECTED}: a metric of test case {item!r} has no name."
                )
            book.unknown(metric, _METRIC_FIELDS, "metricsData")
            judge = metric.get("evaluationModel")
            if not judge:
                book.note(
                    f"metric {metric['name']!r} records no evaluation model; the validator is "
                    "named after the metric."
                )
                judge = metric["name"]
            book.vote(
                name, item, judge, metric["name"], _label(metric, threshold, book), path,
                explanation=metric.get("reason"), score=metric.get("score"),
                usable=not metric.get("error"),
            )  # fmt: skip


def _recorded_model(hyperparameters: Any) -> str | None:
    if not isinstance(hyperparameters, Mapping):
        return None
    for key, value in hyperparameters.items():
        if str(key).lower() in ("model", "model_name", "generator") and value:
            return str(value)
    return None


def _label(metric: Mapping[str, Any], threshold: float | None, book: VoteBook) -> int | None:
    if metric.get("error"):
        book.count("metrics that errored read as missing")
        return None
    return pass_or_score(metric.get("success"), metric.get("score"), threshold, book, "metrics")
