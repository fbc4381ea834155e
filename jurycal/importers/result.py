"""What an importer returns, and the error for a file that is not the format asked for."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["ImportFormatError", "ImportProvenance", "ImportResult"]


class ImportFormatError(ValueError):
    """A file is not in the format it was read as.

    The message names the file (and the line, for line-based formats) and
    says what the importer expected to find there.
    """


@dataclass(frozen=True, kw_only=True)
class ImportProvenance:
    """Where an import's tables came from and what the reading set aside (keyword fields).

    Attributes
    ----------
    unknown_fields : tuple of str
        Fields the importer does not know, as dotted paths (``sample.foo``);
        they were kept out of the tables, not treated as errors.
    notes : tuple of str
        What the files could not say or what was set aside, with counts: a
        generator not recorded, a grader model missing, missing labels, draws.
    source_format : str
        The registry name of the format (``"inspect"``, ``"promptfoo"``, ...).
    sources : tuple of str
        The files read, in order.
    """

    unknown_fields: tuple[str, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)
    source_format: str = ""
    sources: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class ImportResult(ImportProvenance):
    """The judgments table and human labels read from an eval tool's files.

    With the fields of :class:`ImportProvenance`.

    Attributes
    ----------
    judgments : DataFrame
        ``generator, item, validator, label``; ``label`` is a nullable
        integer column: 1 valid, 0 invalid, ``pd.NA`` when the judge gave no
        usable verdict (an unparsed grade, an error, a draw).
    human : DataFrame
        ``generator, item, human`` (1 / 0), possibly empty: the labels a
        person gave where the file records them.
    threshold_used : float or None
        The cut applied to numeric scores (``score >= threshold`` is valid),
        or None when every label came from a verdict that was already binary.
    scores : DataFrame or None
        The score table, ``generator, item, validator, score``: each judge's
        numeric grade of each output on the judge's own scale, not thresholded,
        ``score`` missing where the judge gave no usable grade (an unparsed
        rating, a grader error); one row per vote that carried a number (a
        C / I grade carries none). None from a reader that keeps no grades.
    """

    judgments: pd.DataFrame
    human: pd.DataFrame
    threshold_used: float | None
    scores: pd.DataFrame | None = None

    def account(self) -> dict[str, Any]:
        """A JSON-ready account: counts per column, missing labels, threshold, fields, notes.

        Examples
        --------
        >>> import pandas as pd
        >>> votes = pd.DataFrame({"generator": ["m"], "item": ["1#1"], "validator": ["j"],
        ...                       "label": pd.array([1], dtype="Int64")})
        >>> human = pd.DataFrame({"generator": [], "item": [], "human": []})
        >>> ImportResult(votes, human, None, source_format="inspect").account()["n_votes"]
        1
        """
        labels = self.judgments["label"]
        return {
            "source_format": self.source_format,
            "sources": list(self.sources),
            "n_votes": int(len(self.judgments)),
            "n_missing_labels": int(labels.isna().sum()),
            "n_valid": int((labels == 1).sum()),
            "generators": sorted(map(str, self.judgments["generator"].unique())),
            "validators": sorted(map(str, self.judgments["validator"].unique())),
            "n_items": int(self.judgments[["generator", "item"]].drop_duplicates().shape[0]),
            "n_human_labels": int(len(self.human)),
            "threshold_used": self.threshold_used,
            "unknown_fields": list(self.unknown_fields),
            "notes": list(self.notes),
        }
