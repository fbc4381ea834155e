"""What a pairwise importer returns, and the book its readers fill while they read."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from jurycal.importers.records import CARRIED_COLUMNS, ImportLog, finite_number
from jurycal.importers.result import ImportProvenance
from regression.checks import plain
from regression.pairwise import HUMAN_VERDICT_COLUMNS, VERDICT_COLUMNS, VERDICTS

__all__ = ["BattleBook", "PairwiseImportResult"]

#: The verdicts table an import writes: the pairwise columns, then the carried ones.
_VERDICT_TABLE = (*VERDICT_COLUMNS, "position")


@dataclass(frozen=True)
class PairwiseImportResult(ImportProvenance):
    """The pairwise verdicts and human votes read from an eval tool's files.

    With the fields of :class:`~jurycal.importers.result.ImportProvenance`.

    Attributes
    ----------
    verdicts : DataFrame
        ``item, generator_a, generator_b, validator, verdict, position``:
        ``verdict`` ``"a"`` (generator_a's answer preferred), ``"b"``,
        ``"tie"`` or None (no usable verdict: an unparsed reply, an error);
        ``position`` ``"ab"`` (generator_a's answer shown first) or ``"ba"``.
        ``explanation`` (the judge's reason) and ``score`` (its raw numeric
        grade) follow when the files record them. Checked by
        :func:`regression.pairwise.check_pairwise`.
    human : DataFrame
        ``item, generator_a, generator_b, human``, possibly empty: the votes a
        person gave, one per battle.
    """

    verdicts: pd.DataFrame
    human: pd.DataFrame

    def account(self) -> dict[str, Any]:
        """A JSON-ready account: rows, battles, verdicts by word, generators, validators, notes.

        Examples
        --------
        >>> verdicts = pd.DataFrame({"item": ["q1"], "generator_a": ["x"], "generator_b": ["y"],
        ...                          "validator": ["judge"], "verdict": ["a"], "position": ["ab"]})
        >>> human = pd.DataFrame(columns=["item", "generator_a", "generator_b", "human"])
        >>> PairwiseImportResult(verdicts, human, source_format="arena").account()["verdicts"]
        {'a': 1, 'tie': 0, 'b': 0, 'none': 0}
        """
        both = self.verdicts[["generator_a", "generator_b"]].to_numpy().ravel()
        battles = self.verdicts[["item", "generator_a", "generator_b"]].drop_duplicates()
        counts = self.verdicts["verdict"].value_counts()
        return {
            "source_format": self.source_format,
            "sources": list(self.sources),
            "n_verdicts": int(len(self.verdicts)),
            "n_battles": int(len(battles)),
            "verdicts": {
                **{word: int(counts.get(word, 0)) for word in VERDICTS},
                "none": int(self.verdicts["verdict"].isna().sum()),
            },
            "generators": sorted(set(map(str, both))),
            "validators": sorted(map(str, self.verdicts["validator"].unique())),
            "n_human_votes": int(len(self.human)),
            "unknown_fields": list(self.unknown_fields),
            "notes": list(self.notes),
        }


class BattleBook(ImportLog):
    """Verdicts, human votes, unknown fields and notes, gathered while files are read.

    A repeated verdict, the same judge on the same battle in the same
    position (a pair listed either way is one battle), is refused, or with
    ``duplicates="last"`` only its last record is kept. Human votes that
    disagree on one battle leave it without a vote, with a note.
    """

    def __init__(self, source_format: str, duplicates: str = "error") -> None:
        super().__init__(source_format, duplicates)
        self._verdicts: list[tuple[Any, ...]] = []
        self._human: dict[tuple[str, str, str], dict[str, list[str]]] = defaultdict(dict)
        self._human_pair: dict[tuple[str, str, str], tuple[str, str]] = {}

    def verdict(
        self,
        item: Any,
        generator_a: Any,
        generator_b: Any,
        judge: Any,
        verdict: str | None,
        position: str,
        source: Path,
        *,
        explanation: Any = None,
        score: Any = None,
    ) -> None:
        """Record one judge's verdict (``"a"``, ``"b"``, ``"tie"`` or None) on a battle."""
        reason = explanation if isinstance(explanation, str) and explanation.strip() else None
        self._verdicts.append((
            str(item), str(generator_a), str(generator_b), str(judge), verdict, position,
            reason, finite_number(score), str(source),
        ))  # fmt: skip

    def human(
        self, item: Any, generator_a: Any, generator_b: Any, verdict: str, source: Path
    ) -> None:
        """Record a person's vote on a battle (kept in the orientation first read)."""
        a, b = str(generator_a), str(generator_b)
        key = (str(item), min(a, b), max(a, b))
        first = self._human_pair.setdefault(key, (a, b))
        word = verdict if first == (a, b) else _flip(verdict)
        self._human[key].setdefault(word, []).append(str(source))

    def result(self) -> PairwiseImportResult:
        """The :class:`PairwiseImportResult`; a repeated verdict raises (or the last is kept)."""
        columns = [*_VERDICT_TABLE, *CARRIED_COLUMNS, "source"]
        frame = pd.DataFrame(self._verdicts, columns=columns)
        low = frame[["generator_a", "generator_b"]].min(axis=1)
        high = frame[["generator_a", "generator_b"]].max(axis=1)
        shown = frame["position"].where(frame["generator_a"] == low, frame["position"].map(_SWAP))
        keys = pd.DataFrame({
            "item": frame["item"], "low": low, "high": high,
            "validator": frame["validator"], "shown": shown,
        })  # fmt: skip
        repeated = keys.duplicated(keep="last" if self.duplicates == "last" else "first")
        if repeated.any() and self.duplicates == "last":
            self.note(
                f"{int(repeated.sum())} repeated verdict(s) (same battle, judge and position) "
                "dropped: the last record of each kept (duplicates='last')."
            )
            frame = frame[~repeated.to_numpy()]
        elif repeated.any():
            row = int(repeated.to_numpy().argmax())
            group = keys.groupby(list(keys.columns), sort=False).ngroup().to_numpy()
            first = int((group == group[row]).argmax())
            key = tuple(plain(v) for v in frame.loc[row, [*_VERDICT_TABLE[:4], "position"]])
            sources = {frame.loc[first, "source"], frame.loc[row, "source"]}
            where = (
                f"twice in {sources.pop()!r}" if len(sources) == 1 else f"in {sorted(sources)!r}"
            )
            raise ValueError(
                f"{int(repeated.sum())} verdict(s) repeat a (battle, judge, position); the first, "
                f"{key!r}, appears {where}: import each run once, or keep the last record of each "
                "with duplicates='last'."
            )
        carried = [c for c in CARRIED_COLUMNS if frame[c].notna().any()]
        verdicts = frame[[*_VERDICT_TABLE, *carried]].reset_index(drop=True)
        if "score" in carried:
            verdicts["score"] = verdicts["score"].astype(float)
        votes = []
        for key, by_word in self._human.items():
            if len(by_word) > 1:
                self.count("battles whose human votes disagree left without a vote")
                continue
            repeats = len(next(iter(by_word.values()))) - 1
            if repeats:
                self.count(
                    "repeated human votes that agree with the first on their battle merged", repeats
                )
            votes.append((key[0], *self._human_pair[key], next(iter(by_word))))
        human = pd.DataFrame(votes, columns=list(HUMAN_VERDICT_COLUMNS))
        n_missing = int(verdicts["verdict"].isna().sum())
        if n_missing:
            self.note(
                f"{n_missing:,} of {len(verdicts):,} verdicts are missing (no usable verdict)."
            )
        notes = self.all_notes
        return PairwiseImportResult(
            verdicts=verdicts,
            human=human,
            unknown_fields=self.unknown_fields,
            notes=tuple(notes),
            source_format=self.source_format,
            sources=tuple(self.sources),
        )


_SWAP = {"ab": "ba", "ba": "ab"}


def _flip(verdict: str) -> str:
    return {"a": "b", "b": "a"}.get(verdict, verdict)
