"""Inspect AI eval logs: the ``.eval`` zip and ``--log-format=json``.

Schema read from UKGovernmentBEIS/inspect_ai: ``log/_log.py`` (``EvalLog``,
``EvalSpec``, ``EvalSample``), ``log/_recorders/eval.py`` (the zip members
``header.json``, ``samples/<id>_epoch_<n>.json``, ``summaries.json``,
``_journal/start.json``), ``scorer/_metric.py`` (``Score``, ``ScoreEdit`` and
the grades C / P / I / N), ``log/_score.py`` (``edit_score``: the first history
entry is the scorer's own score, later entries carry a person's provenance) and
``scorer/_model.py`` (``model_graded_qa``: the grader's reply is
``metadata["grading"][-1]`` with its ``model``; an unparsed grade is
``Score.unscored`` with ``unscored_reason="grade_parse_failure"`` and value NaN;
older versions wrote ``I`` with the explanation "Grade not found in model
output").
"""

from __future__ import annotations

import json
import math
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jurycal.importers.names import PARTIAL_POLICIES
from jurycal.importers.records import (
    PathsLike,
    VoteBook,
    check_threshold,
    expand_paths,
    load_json,
    typed,
)
from jurycal.importers.result import ImportFormatError, ImportResult
from jurycal.importers.zipped import read_member
from repair.labels import DEFAULT_INVALID_SYNONYMS, DEFAULT_VALID_SYNONYMS, canonical_label_text

__all__ = ["INSPECT_DEFAULT_THRESHOLD", "read_inspect_log"]

#: Numeric scores between 0 and 1 are valid at or above this when no threshold is given.
INSPECT_DEFAULT_THRESHOLD = 0.5

_EXPECTED = "an Inspect AI log (.eval zip with header.json, or JSON with 'eval' and 'samples')"
_LOG_FIELDS = {
    "version", "status", "eval", "plan", "results", "stats", "error", "invalidated",
    "log_updates", "config_updates", "tags", "metadata", "samples", "reductions",
    "location", "etag",
}  # fmt: skip
_SAMPLE_FIELDS = {
    "id", "epoch", "input", "choices", "target", "sandbox", "files", "setup", "messages",
    "output", "scores", "metadata", "store", "events", "timelines", "model_usage", "role_usage",
    "started_at", "completed_at", "total_time", "working_time", "uuid", "invalidation", "error",
    "error_retries", "attachments", "events_data", "limit", "retries", "completed",
    "message_count", "transcript", "score", "description", "model_fallbacks", "turn_count",
    "token_limit", "token_limit_type", "token_limit_usage", "message_limit", "time_limit",
}  # fmt: skip
_SCORE_FIELDS = {"value", "answer", "explanation", "reason", "metadata", "history"}
_EDIT_FIELDS = {"value", "answer", "explanation", "reason", "metadata", "provenance"}
_PARSE_FAILURE = "Grade not found in model output"


def read_inspect_log(
    paths: PathsLike,
    threshold: float | None = None,
    *,
    partial: str = "missing",
    duplicates: str = "error",
    keep_scores: bool = False,
) -> ImportResult:
    """Read Inspect AI eval logs into the judgments table (and the score table).

    Parameters
    ----------
    paths : path or sequence of paths
        ``.eval`` files, ``.json`` logs, or directories holding them; one log
        per evaluated model, all read into one table.
    threshold : float, optional
        For numeric score values: ``value >= threshold`` is valid. Without it,
        values 0 and 1 are read as they are, other values in [0, 1] are cut at
        :data:`INSPECT_DEFAULT_THRESHOLD`, and values outside [0, 1] are an
        error (say where a 1-10 grade passes).
    partial : {"missing", "valid", "invalid"}
        How a partial grade ``P`` is read. Default ``"missing"``: partial
        credit is neither a valid nor an invalid output.

    duplicates : {"error", "last"}
        A (generator, item, validator) read twice: an error naming the
        option (default), or ``"last"``: keep the last record read.
    keep_scores : bool
        Read for the score table (:attr:`ImportResult.scores`): a numeric
        ``Score.value`` on any scale is kept as it is (a value outside [0, 1]
        gets no label rather than an error).

    Returns
    -------
    ImportResult
        ``generator`` = the log's ``eval.model``; ``item`` =
        ``"<sample id>#<epoch>"``; one ``validator`` per named scorer, named
        after the grader model recorded in the score's ``grading`` metadata (or
        the scorer's ``model`` option), else after the scorer. Grades: ``C`` 1,
        ``I`` 0, ``N`` missing, ``P`` per ``partial``; an unscored grade
        (``grade_parse_failure``, NaN, no value) is missing, never 0. A score a
        person edited gives the scorer's original grade as the vote and the
        edited grade as the human label. ``scores``: the numeric values,
        one row per scorer that gave a number (a NaN or unscored value is a
        missing score).

    Raises
    ------
    ImportFormatError
        For a file that is not an Inspect log, naming it.
    ValueError
        For an unknown ``partial``, a bad threshold, numeric scores outside
        [0, 1] without a threshold, or a vote read twice.

    Notes
    -----
    A ``model_graded_qa`` / ``model_graded_fact`` scorer given a list of
    grader models records only their mode (Inspect's ``multi_scorer`` with
    the ``"mode"`` reducer): the graders' own verdicts are not in the log. The
    result's notes say so; give each grader its own named scorer to keep one
    validator per grader (the agreeableness paper's ensembles, section 4,
    need each validator's vote).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> log = {"version": 2, "status": "success",
    ...        "eval": {"task": "qa", "model": "openai/gpt-4o-mini"},
    ...        "samples": [{"id": 1, "epoch": 1, "scores": {"model_graded_qa": {"value": "C"}}}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "log.json"
    >>> _ = path.write_text(json.dumps(log))
    >>> read_inspect_log(path).judgments.to_dict("records")
    [{'generator': 'openai/gpt-4o-mini', 'item': '1#1', 'validator': 'model_graded_qa', 'label': 1}]
    """
    if partial not in PARTIAL_POLICIES:
        raise ValueError(
            f"partial ({partial!r}) not recognized; must be 'missing', 'valid' or 'invalid'."
        )
    reader = _InspectReader(check_threshold(threshold), partial, duplicates, keep_scores)
    for path in expand_paths(paths, (".eval", ".json")):
        reader.read_file(path)
    return reader.book.result(reader.threshold_used)


class _InspectReader:
    def __init__(
        self, threshold: float | None, partial: str, duplicates: str, keep_scores: bool
    ) -> None:
        self.threshold = threshold
        self.partial = partial
        self.keep_scores = keep_scores
        self.book = VoteBook("inspect", duplicates)
        self.threshold_used: float | None = threshold

    def read_file(self, path: Path) -> None:
        self.book.sources.append(str(path))
        if path.suffix == ".eval" or zipfile.is_zipfile(path):
            header, samples = _read_eval_zip(path, self.book)
        else:
            log = load_json(path, _EXPECTED)
            if not isinstance(log, dict) or not isinstance(log.get("eval"), dict):
                raise ImportFormatError(f"{path}: not {_EXPECTED}: no 'eval' object at the top.")
            header, samples = log, typed(log.get("samples") or [], list, path, _EXPECTED, "samples")
        spec = header["eval"]
        if not isinstance(spec.get("model"), str):
            raise ImportFormatError(f"{path}: not {_EXPECTED}: 'eval' records no 'model'.")
        self.book.unknown(header, _LOG_FIELDS, "log")
        generator = spec["model"]
        if header.get("status") not in (None, "success"):
            self.book.note(f"{path}: status {header.get('status')!r}: the run did not finish.")
        scorer_models = self._scorer_models(path, spec)
        if not samples:
            self.book.note(f"{path}: no samples logged (log_samples=False?): nothing imported.")
            return
        for sample in samples:
            self._read_sample(path, generator, sample, scorer_models)

    def _scorer_models(self, path: Path, spec: Mapping[str, Any]) -> dict[str, list[str]]:
        """Grader models per scorer from the scorers' ``options.model``.

        The option is a model name, a model's dict (``{"model": name, ...}``)
        or a list of either (a grader panel); anything else is left alone. A
        scorer used twice is listed twice under one name and keyed in the
        samples as Inspect's ``unique_scorer_name`` (``scorer/_scorer.py``)
        makes it: ``likert``, ``likert1``, ``likert2``.
        """
        models: dict[str, list[str]] = {}
        used: list[str] = []
        for scorer in typed(spec.get("scorers") or [], list, path, _EXPECTED, "eval.scorers"):
            base = str(scorer.get("name")) if isinstance(scorer, dict) else ""
            key, count = base, 1
            while key in used:
                key, count = f"{base}{count}", count + 1
            used.append(key)
            options = scorer.get("options") if isinstance(scorer, dict) else None
            if not isinstance(options, dict):
                continue
            model = options.get("model")
            listed = model if isinstance(model, list) else [model]
            names = [_model_name(m) for m in listed]
            if names and all(isinstance(n, str) for n in names):
                models[key] = [str(n) for n in names]
        return models

    def _read_sample(
        self, path: Path, generator: str, sample: Any, scorer_models: Mapping[str, list[str]]
    ) -> None:
        if not isinstance(sample, dict) or "id" not in sample:
            raise ImportFormatError(f"{path}: not {_EXPECTED}: a sample without an 'id'.")
        self.book.unknown(sample, _SAMPLE_FIELDS, "sample")
        item = f"{sample['id']}#{sample.get('epoch', 1)}"
        scores = sample.get("scores")
        if scores is None and "score" in sample:  # logs before multiple scorers
            scores = {"score": sample["score"]}
        scores = typed(scores or {}, dict, path, _EXPECTED, "sample.scores")
        for name, score in scores.items():
            if not isinstance(score, dict) or "value" not in score:
                raise ImportFormatError(
                    f"{path}: not {_EXPECTED}: sample {sample['id']!r} score {name!r} has no value."
                )
            self._read_score(path, generator, item, str(name), score, scorer_models)

    def _read_score(
        self,
        path: Path,
        generator: str,
        item: str,
        name: str,
        score: Mapping[str, Any],
        scorer_models: Mapping[str, list[str]],
    ) -> None:
        self.book.unknown(score, _SCORE_FIELDS, "score")
        history = score.get("history") or []
        history = [
            h for h in typed(history, list, path, _EXPECTED, "score.history") if isinstance(h, dict)
        ]
        for edit in history:
            self.book.unknown(edit, _EDIT_FIELDS, "score.history")
        edited = [h for h in history if h.get("provenance") and h.get("value") != "UNCHANGED"]
        if history and history[0].get("provenance"):
            original = None  # the score was added by a person: no judge voted
        elif history:
            first = history[0]
            original = {
                "value": first.get("value"),
                "metadata": first.get("metadata")
                if isinstance(first.get("metadata"), dict)
                else score.get("metadata"),
                "explanation": first.get("explanation"),
            }
        else:
            original = dict(score)
        if original is not None:
            metadata = original.get("metadata") or {}
            panel = metadata.get("panel") if isinstance(metadata, Mapping) else None
            graders = scorer_models.get(name, [])
            if isinstance(panel, Mapping) and isinstance(panel.get("votes"), list):
                self._read_panel(path, generator, item, name, panel, metadata, graders)
            else:
                self._read_single(path, generator, item, name, original, metadata, graders)
        if edited:
            human = self._label(name, score.get("value"), {}, None)
            if human is not None:
                self.book.human(generator, item, human, path)
                self.book.count("human edits read as human labels")

    def _read_single(
        self,
        path: Path,
        generator: str,
        item: str,
        name: str,
        original: Mapping[str, Any],
        metadata: Any,
        graders: list[str],
    ) -> None:
        """One grader's score: the validator is the grader model recorded, else the scorer."""
        # the configured model names the validator (as the panel's do), else the reply's model
        judge = (graders[0] if len(graders) == 1 else None) or _grader_model(metadata)
        if len(graders) > 1:
            self.book.note(
                f"{path}: scorer {name!r} graded with {len(graders)} models {graders} but the "
                "log keeps only their combined grade (Inspect before 'panel' metadata); each "
                "grader's own verdict is lost: the validator is the scorer."
            )
            judge = None
        if judge is None:
            self.book.note(
                f"scorer {name!r}: no grader model recorded; the validator is named after the "
                "scorer."
            )
            judge = name
        label = self._label(name, original.get("value"), metadata, original.get("explanation"))
        self.book.vote(
            generator, item, judge, name, label, path,
            explanation=original.get("explanation") or _grader_reply(metadata)[1],
            score=original.get("value"), usable=self._usable(label, metadata),
        )  # fmt: skip

    def _read_panel(
        self,
        path: Path,
        generator: str,
        item: str,
        name: str,
        panel: Mapping[str, Any],
        metadata: Mapping[str, Any],
        graders: list[str],
    ) -> None:
        """A grader panel: one vote per grader from ``metadata.panel.votes``, in model order."""
        votes = panel["votes"]
        if len(graders) != len(votes):
            self.book.note(
                f"{path}: scorer {name!r} records a panel of {len(votes)} graders but "
                f"{len(graders)} grader models; the validators are named '{name} grader <k>'."
            )
            graders = [f"{name} grader {k + 1}" for k in range(len(votes))]
        failures = {
            f.get("index"): f for f in panel.get("failures") or [] if isinstance(f, Mapping)
        }
        replier, reply = _grader_reply(metadata)
        for index, (grader, value) in enumerate(zip(graders, votes, strict=True)):
            failure = failures.get(index) or {}
            if value is None:
                reason = failure.get("reason") or "no grade"
                self.book.count(f"panel votes withheld ({reason}) read as missing")
                label = None
            else:
                label = self._label(name, value, {}, None)
            # the grading transcript kept is the first grader's; it explains that grader's vote
            own = reply if replier is not None and grader.endswith(replier) else None
            self.book.vote(
                generator, item, grader, name, label, path,
                explanation=failure.get("explanation") or own, score=value,
                usable=self._usable(label, {}),
            )  # fmt: skip
        self.book.count("panel grades read as one vote per grader")

    def _usable(self, label: int | None, metadata: Any) -> bool:
        """Whether a numeric value is the grader's score: read for scores, any value not marked
        unscored (a NaN is missing anyway); else only a value that gave a label."""
        if not self.keep_scores:
            return label is not None
        return not (isinstance(metadata, Mapping) and metadata.get("unscored_reason"))

    def _label(
        self, scorer: str, value: Any, metadata: Mapping[str, Any], explanation: Any
    ) -> int | None:
        if isinstance(metadata, Mapping) and metadata.get("unscored_reason"):
            self.book.count(f"unscored grades ({metadata['unscored_reason']}) read as missing")
            return None
        if value is None or (isinstance(value, float) and math.isnan(value)):
            self.book.count("scores without a value read as missing")
            return None
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, str):
            return self._grade(scorer, value, explanation)
        if isinstance(value, (int, float)):
            return self._numeric(scorer, float(value))
        self.book.note(
            f"scorer {scorer!r}: a {type(value).__name__} value is not a verdict; read as missing."
        )
        return None

    def _grade(self, scorer: str, value: str, explanation: Any) -> int | None:
        grade = value.strip()
        if grade.upper() == "C":
            return 1
        if grade.upper() == "I":
            if isinstance(explanation, str) and explanation.startswith(_PARSE_FAILURE):
                self.book.count("unparsed grades (old 'I' + 'Grade not found') read as missing")
                return None
            return 0
        if grade.upper() == "N":
            self.book.count("no-answer grades N read as missing")
            return None
        if grade.upper() == "P":
            self.book.count(f"partial grades P read as {self.partial}")
            return {"missing": None, "valid": 1, "invalid": 0}[self.partial]
        word = canonical_label_text(grade)
        if word in DEFAULT_VALID_SYNONYMS:
            return 1
        if word in DEFAULT_INVALID_SYNONYMS:
            return 0
        try:
            number = float(grade)
        except ValueError:
            self.book.note(f"scorer {scorer!r}: grade {value!r} is not C/P/I/N; read as missing.")
            return None
        return self._numeric(scorer, number)

    def _numeric(self, scorer: str, value: float) -> int | None:
        if not math.isfinite(value):
            self.book.count("scores without a finite value read as missing")
            return None
        if self.threshold is not None:
            return int(value >= self.threshold)
        if value in (0.0, 1.0):
            return int(value)
        if 0.0 <= value <= 1.0:
            self.threshold_used = INSPECT_DEFAULT_THRESHOLD
            return int(value >= INSPECT_DEFAULT_THRESHOLD)
        if self.keep_scores:  # a score on the judge's own scale: kept, with no label
            return None
        raise ValueError(
            f"scorer {scorer!r} gives the numeric score {value!r}, outside [0, 1]: pass a "
            "threshold (score >= threshold is valid)."
        )


def _model_name(model: Any) -> str | None:
    """A model option's name: the string itself, or a model dict's ``model`` (or ``name``)."""
    if isinstance(model, str) and model:
        return model
    if isinstance(model, Mapping):
        for key in ("model", "name"):
            if isinstance(model.get(key), str) and model[key]:
                return str(model[key])
    return None


def _grader_model(metadata: Any) -> str | None:
    """The model of the last assistant message in ``metadata["grading"]``, if recorded."""
    return _grader_reply(metadata)[0]


def _grader_reply(metadata: Any) -> tuple[str | None, str | None]:
    """The model and the text of the last assistant message in ``metadata["grading"]``."""
    grading = metadata.get("grading") if isinstance(metadata, Mapping) else None
    if not isinstance(grading, list):
        return None, None
    for message in reversed(grading):
        if isinstance(message, dict) and message.get("role") == "assistant":
            model, content = message.get("model"), message.get("content")
            return (
                model if isinstance(model, str) and model else None,
                content if isinstance(content, str) else None,
            )
    return None, None


def _read_eval_zip(path: Path, book: VoteBook) -> tuple[dict[str, Any], list[Any]]:
    """The header and the samples of an ``.eval`` zip (full samples, else the summaries)."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as err:
        raise ImportFormatError(f"{path}: a truncated or corrupt .eval zip ({err}).") from None
    with archive:
        names = set(archive.namelist())

        def member(name: str) -> Any:
            try:
                return json.loads(read_member(archive, name, path).decode("utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError) as err:
                raise ImportFormatError(f"{path}: member {name!r} is not JSON ({err}).") from None

        header_name = next((n for n in ("header.json", "_journal/start.json") if n in names), None)
        if header_name is None:
            raise ImportFormatError(
                f"{path}: a zip, but not {_EXPECTED}: no header.json or _journal/start.json."
            )
        header = member(header_name)
        if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
            raise ImportFormatError(f"{path}: not {_EXPECTED}: {header_name} has no 'eval' object.")
        if header_name != "header.json":
            book.note(f"{path}: no header.json (the run did not finish); read _journal/start.json.")
        sample_names = sorted(n for n in names if n.startswith("samples/") and n.endswith(".json"))
        if sample_names:
            return header, [member(n) for n in sample_names]
        summaries: list[Any] = []
        if "summaries.json" in names:
            summaries = member("summaries.json")
        else:
            for name in sorted(n for n in names if n.startswith("_journal/summaries/")):
                summaries.extend(member(name))
        if summaries:
            book.note(
                f"{path}: no samples/ members; read summaries.json (score metadata thinned, "
                "edit history not kept)."
            )
        return header, summaries
