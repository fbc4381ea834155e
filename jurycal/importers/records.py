"""Building blocks the format readers share: finding and parsing files, naming validators,
collecting votes into the judgments table, and keeping account of unknown fields and notes."""

from __future__ import annotations

import errno
import hashlib
import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.importers.result import ImportFormatError, ImportResult
from regression.checks import HUMAN_COLUMNS, JUDGMENT_COLUMNS, plain
from regression.scores import SCORE_COLUMNS

__all__ = [
    "ImportLog",
    "CARRIED_COLUMNS",
    "DUPLICATE_POLICIES",
    "PathsLike",
    "VoteBook",
    "check_threshold",
    "choose_baseline",
    "expand_paths",
    "finite_number",
    "load_json",
    "load_jsonl",
    "pass_or_score",
    "short_hash",
    "typed",
]

#: Optional columns an import carries after ``label``: the judge's reason text and its raw grade.
#: They travel through repair and counting and every estimator ignores them.
CARRIED_COLUMNS = ("explanation", "score")
#: What to do with a repeated (generator, item, validator): refuse (default) or keep the last.
DUPLICATE_POLICIES = ("error", "last")

#: One path, or several; a directory stands for the files in it with the format's endings.
PathsLike = str | Path | Sequence[str | Path]


def expand_paths(
    paths: PathsLike, suffixes: Sequence[str], tool_names: Sequence[str] = ()
) -> list[Path]:
    """The files ``paths`` names, directories expanded to the tool's files in them.

    Parameters
    ----------
    paths : path or sequence of paths
        Files and directories.
    suffixes : sequence of str
        The endings of the format's files: a directory stands for its files
        with these endings (at its top level) when it holds none of ``tool_names``.
    tool_names : sequence of str
        The names (glob patterns) the tool gives its own files, e.g.
        AlpacaEval's ``annotations.json``: a directory is searched for them at
        every depth (``results/<model>/<annotator>/annotations.json``).

    Raises
    ------
    FileNotFoundError
        For a path that does not exist.
    ValueError
        When nothing is named, or a directory holds none of the format's files.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "gpt4" / "judge").mkdir(parents=True)
    >>> _ = (root / "gpt4" / "judge" / "annotations.json").write_text("[]")
    >>> _ = (root / "leaderboard.json").write_text("{}")
    >>> [p.relative_to(root).as_posix() for p in expand_paths(root, (".json",), ("annotations.json",))]
    ['gpt4/judge/annotations.json']
    """
    items = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if not items:
        raise ValueError("no input file given.")
    files: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted({p for name in tool_names for p in path.rglob(name) if p.is_file()})
            if not found:  # files named otherwise, at its top level
                found = sorted(
                    p for p in path.iterdir() if p.is_file() and p.name.endswith(tuple(suffixes))
                )
            if not found:
                named = (
                    f" named {' or '.join(tool_names)} at any depth, nor one" if tool_names else ""
                )
                raise ValueError(
                    f"directory {str(path)!r} holds no file{named} ending in {', '.join(suffixes)}."
                )
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", str(path))
    return files


def load_json(path: Path, expected: str) -> Any:
    """Parse ``path`` as JSON (``NaN`` constants allowed), or raise naming the file and ``expected``."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ImportFormatError(f"{path}: not UTF-8 text, so not {expected} ({err}).") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ImportFormatError(
            f"{path}: not {expected}: invalid JSON at line {err.lineno}, column {err.colno} "
            f"({err.msg})."
        ) from None


def load_jsonl(path: Path, expected: str) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON Lines file with their 1-based line numbers; blank lines skipped."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as err:
        raise ImportFormatError(f"{path}: not UTF-8 text, so not {expected} ({err}).") from None
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise ImportFormatError(
                f"{path}, line {number}: not {expected}: invalid JSON ({err.msg})."
            ) from None
        if not isinstance(row, dict):
            raise ImportFormatError(
                f"{path}, line {number}: not {expected}: expected a JSON object per line, "
                f"got {type(row).__name__}."
            )
        rows.append((number, row))
    return rows


def typed(value: Any, kind: type | tuple[type, ...], path: Path, expected: str, where: str) -> Any:
    """``value`` when it is a ``kind``, else an :class:`ImportFormatError` naming file and field."""
    if isinstance(value, kind):
        return value
    names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
    raise ImportFormatError(
        f"{path}: not {expected}: {where} should be a {names}, got {type(value).__name__}."
    )


def finite_number(value: Any) -> float | None:
    """``value`` as a float when it is a finite number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def pass_or_score(
    verdict: Any, score: Any, threshold: float | None, book: VoteBook, what: str
) -> int | None:
    """The tool's own pass/fail ``verdict``, or ``score >= threshold`` when a threshold is given.

    A verdict that is not a bool, or a score that is not a finite number, is a
    missing label, counted in ``book``'s notes as ``what`` without one.
    """
    if threshold is not None:
        number = finite_number(score)
        if number is None:
            book.count(f"{what} without a numeric score read as missing")
            return None
        return int(number >= threshold)
    if isinstance(verdict, bool):
        return int(verdict)
    book.count(f"{what} without a pass/fail verdict read as missing")
    return None


def check_threshold(threshold: float | None) -> float | None:
    """Return ``threshold`` as a float (or None), raising unless it is a finite number."""
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise ValueError(f"threshold must be a number; got {threshold!r}.")
    value = float(threshold)
    if not math.isfinite(value):
        raise ValueError(f"threshold must be finite; got {threshold!r}.")
    return value


def choose_baseline(slot_values: Iterable[str], baseline: str | None, slot: str) -> str:
    """The baseline generator: ``baseline`` when given, else the one value in ``slot``.

    Pairwise formats put the reference model in a fixed slot by convention
    (AlpacaEval ``generator_1``, MT-Bench ``model_2``); when that slot holds
    more than one model the baseline must be named.
    """
    if baseline is not None:
        return str(baseline)
    found = sorted(set(map(str, slot_values)))
    if len(found) != 1:
        shown = ", ".join(repr(v) for v in found[:5]) or "none"
        raise ValueError(
            f"cannot tell the baseline: {slot} holds {len(found)} models ({shown}); pass "
            "baseline= (CLI: --baseline NAME)."
        )
    return found[0]


def short_hash(value: Any) -> str:
    """The first 12 hex digits of the SHA-1 of ``value``'s canonical JSON: a stable item key."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


class ImportLog:
    """What a reader notes while files are read: unknown fields, notes said once, counted events.

    The base of :class:`VoteBook` and the pairwise importers' book: both
    refuse a repeated record or keep the last (``duplicates``) and end in a
    result whose notes are :attr:`all_notes`.
    """

    def __init__(self, source_format: str, duplicates: str = "error") -> None:
        if duplicates not in DUPLICATE_POLICIES:
            raise ValueError(
                f"duplicates ({duplicates!r}) not recognized; must be 'error' or 'last'."
            )
        self.source_format = source_format
        self.duplicates = duplicates
        self._unknown: set[str] = set()
        self._notes: list[str] = []
        self._counts: Counter[str] = Counter()
        self.sources: list[str] = []

    def unknown(self, obj: Mapping[str, Any], known: AbstractSet[str], where: str) -> None:
        """List the keys of ``obj`` outside ``known`` as ``where.key``."""
        if not obj.keys() <= known:
            self._unknown.update(f"{where}.{key}" for key in obj if key not in known)

    def note(self, text: str) -> None:
        """Add a note once, however often it is raised."""
        if text not in self._notes:
            self._notes.append(text)

    def count(self, what: str, n: int = 1) -> None:
        """Count an event; :meth:`result` turns each count into a note ``'<n> <what>'``."""
        self._counts[what] += n

    @property
    def all_notes(self) -> list[str]:
        """The notes, then each count as ``'<n> <what>'``."""
        return self._notes + [f"{n} {what}" for what, n in sorted(self._counts.items())]

    @property
    def unknown_fields(self) -> tuple[str, ...]:
        """The unknown fields met, sorted."""
        return tuple(sorted(self._unknown))


class VoteBook(ImportLog):
    """Votes, human labels, unknown fields and notes, gathered while files are read.

    A validator is a judge model asked one question. Each vote records both;
    :meth:`result` names the validator after the judge alone when that judge
    answers one question in the whole import, else ``"judge:question"``, so
    two rubrics graded by the same model stay two validators.
    """

    def __init__(self, source_format: str, duplicates: str = "error") -> None:
        super().__init__(source_format, duplicates)
        # (generator, item, judge, question, label, source, explanation, score) per vote;
        # tuples keep a million cheap.
        self._votes: list[tuple[str, str, str, str, int | None, str, str | None, float | None]] = []
        # per vote: whether it is a numeric grade (a row of the score table), and a usable one
        self._grades: list[tuple[bool, bool]] = []
        self._human: dict[tuple[str, str], dict[int, list[str]]] = defaultdict(dict)

    def vote(
        self,
        generator: Any,
        item: Any,
        judge: Any,
        question: Any,
        label: int | None,
        source: Path,
        *,
        explanation: Any = None,
        score: Any = None,
        usable: bool | None = None,
    ) -> None:
        """Record one judge's verdict (``label`` 1, 0, or None for no usable verdict).

        ``explanation`` (the judge's reason, kept when it is non-empty text)
        and ``score`` (the raw grade, kept when it is a finite number) fill the
        carried columns :data:`CARRIED_COLUMNS`. A numeric ``score`` (NaN
        included: an unscored grade) is a row of the score table
        (:attr:`ImportResult.scores`), its value kept when ``usable`` (default:
        when ``label`` is a verdict; a reader that knows better says so: a
        grader error, FastChat's -1), missing otherwise.
        """
        reason = explanation if isinstance(explanation, str) and explanation.strip() else None
        self._votes.append((
            str(generator), str(item), str(judge), str(question), label, str(source),
            reason, finite_number(score),
        ))  # fmt: skip
        is_grade = isinstance(score, (int, float)) and not isinstance(score, bool)
        ok = (label is not None) if usable is None else usable
        self._grades.append((is_grade, bool(ok and finite_number(score) is not None)))

    def human(self, generator: Any, item: Any, label: int, source: Path) -> None:
        """Record a person's label for (generator, item)."""
        self._human[(str(generator), str(item))].setdefault(label, []).append(str(source))

    def result(self, threshold_used: float | None) -> ImportResult:
        """The :class:`ImportResult`; a repeated (generator, item, validator) raises, or with
        ``duplicates="last"`` only its last record is kept and the notes count those dropped."""
        questions: dict[str, set[str]] = defaultdict(set)
        for vote in self._votes:
            questions[vote[2]].add(vote[3])
        rows = [
            (generator, item, judge if len(questions[judge]) == 1 else f"{judge}:{question}",
             label, explanation, score, source)
            for generator, item, judge, question, label, source, explanation, score in self._votes
        ]  # fmt: skip
        frame = pd.DataFrame(rows, columns=[*JUDGMENT_COLUMNS, *CARRIED_COLUMNS, "source"])
        grades = pd.DataFrame(self._grades, columns=["is_grade", "usable"], dtype=bool)
        keys = ["generator", "item", "validator"]
        repeated = frame.duplicated(keys, keep="last" if self.duplicates == "last" else "first")
        if repeated.any() and self.duplicates == "last":
            self.note(
                f"{int(repeated.sum())} repeated vote(s) (same generator, item and validator) "
                "dropped: the last record of each kept (--duplicates last); the counts of "
                "missing verdicts below are of the records read."
            )
            frame = frame[~repeated.to_numpy()]
            grades = grades[~repeated.to_numpy()]
        elif repeated.any():
            key = tuple(plain(x) for x in frame.loc[repeated.idxmax(), keys])
            clash = frame[(frame[keys] == pd.Series(key, index=keys)).all(axis=1)]
            where = (
                f"twice in {clash.iloc[0]['source']!r}"
                if clash.iloc[0]["source"] == clash.iloc[1]["source"]
                else f"in {clash.iloc[0]['source']!r} and {clash.iloc[1]['source']!r}"
            )
            raise ValueError(
                f"{int(repeated.sum())} vote(s) repeat a (generator, item, validator); the first, "
                f"{key!r}, appears {where}: import each run once (a retried run repeats its "
                "samples), or keep the last record of each with duplicates='last' (CLI: "
                "--duplicates last), as FastChat does."
            )
        is_grade, usable = grades["is_grade"].to_numpy(), grades["usable"].to_numpy()
        scores = frame.loc[is_grade, list(SCORE_COLUMNS)].reset_index(drop=True)
        scores["score"] = scores["score"].astype(float).where(usable[is_grade])
        frame["label"] = pd.array(frame["label"].tolist(), dtype="Int64")
        carried = [c for c in CARRIED_COLUMNS if frame[c].notna().any()]
        judgments = frame[[*JUDGMENT_COLUMNS, *carried]].reset_index(drop=True)
        if "score" in carried:
            judgments["score"] = judgments["score"].astype(float)
        human_rows = []
        for (generator, item), by_label in self._human.items():
            if len(by_label) > 1:
                self.note(
                    f"human labels disagree for ({generator!r}, {item!r}); that item has no human "
                    "label."
                )
                continue
            human_rows.append((generator, item, next(iter(by_label))))
        human = pd.DataFrame(human_rows, columns=list(HUMAN_COLUMNS))
        human["human"] = pd.array(human["human"].tolist(), dtype="Int64")
        n_missing = int(judgments["label"].isna().sum())
        if n_missing:
            self.note(
                f"{n_missing:,} of {len(judgments):,} votes have no usable verdict (label missing)."
            )
        notes = self.all_notes
        return ImportResult(
            judgments=judgments,
            human=human,
            threshold_used=threshold_used,
            unknown_fields=self.unknown_fields,
            notes=tuple(notes),
            source_format=self.source_format,
            sources=tuple(self.sources),
            scores=scores,
        )
