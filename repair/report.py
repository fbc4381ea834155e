"""The repair report: what the repairs bought, and where every input row went.

:class:`RepairReport` accounts for every row given to
:func:`repair.repair_judgments`: each generator item is in the judgments or
in :attr:`~RepairReport.unasked_items`; each validator response answers pairs
in the judgments or is an orphan, counted by reason in
:attr:`~RepairReport.orphans`; each entry read from a response is a
judgment's ``raw`` or in :attr:`~RepairReport.unmatched_entries`. The missing
rates before and after repair are the agreeableness paper's 9.4 % and 3.2 %
(§4, App. B.2-B.3), per validator and per failure type (Fig. 8).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .entries import MISSING_OUTPUT, ORPHAN, RESPONSE_STATUSES, UNPARSEABLE, Entries
from .labels import LABEL_INVENTED, LABEL_SYNONYM
from .matching import FAILURE_TYPES, Matching
from .orphans import orphan_reasons, orphan_table
from .pairs import VALIDATOR_OUTPUT_COLUMNS, AskedPairs
from .parsing import PARSE_STRICT, PARSE_TOLERANT
from .switches import FEEDBACK, LABELS, Repair

__all__ = [
    "BELOW_THRESHOLD",
    "LOST_ASSIGNMENT",
    "NO_FEEDBACK_TEXT",
    "UNMATCHED_REASONS",
    "RepairReport",
    "build_report",
    "share",
]

#: Why a parsed entry matched no item: no item scored high enough; another entry of the
#: response took its item; it has no feedback text to match.
BELOW_THRESHOLD, LOST_ASSIGNMENT = "below_threshold", "lost_assignment"
NO_FEEDBACK_TEXT = "no_feedback_text"
UNMATCHED_REASONS = (BELOW_THRESHOLD, LOST_ASSIGNMENT, NO_FEEDBACK_TEXT)


def share(count: int, total: int) -> str:
    """``count`` as a percentage of ``total``, one decimal; ``"none"`` when ``total`` is 0.

    Examples
    --------
    >>> share(3, 12), share(0, 0)
    ('25.0%', 'none')
    """
    return f"{count / total:.1%}" if total else "none"


def _rate(count: int, total: int) -> float:
    return count / total if total else math.nan


@dataclass(frozen=True)
class RepairReport:
    """Accounting of one :func:`repair.repair_judgments` run.

    "Before" is the outputs as produced (``repairs=NONE``: strict JSON, exact
    text, lines and labels as written); "after" is the run's ``repairs``.

    Attributes
    ----------
    by_validator : DataFrame
        Index ``validator``; ``pairs``, ``missing_before``, ``missing_after``,
        ``rate_before``, ``rate_after``.
    failures : DataFrame
        The paper's Fig. 8 in long form: ``validator, failure, before, after``
        (pair counts per failure type, every combination listed).
    repairs : Series
        Pairs per ``repair`` value after the run (``exact``, ``feedback``,
        ``parsing+lines``, ..., and the failure types).
    labels : DataFrame
        Every label that needed the label repair among matched entries:
        ``text`` (canonical), ``kind`` (``synonym`` / ``invented``), ``label``
        it became (1 / 0 / NA under the policy), ``count``.
    unmatched_entries : DataFrame
        Every parsed entry that matched no item: ``generator, task, validator,
        position`` (in its response), ``raw`` (the entry as JSON), ``reason``
        (one of :data:`UNMATCHED_REASONS`).
    unparseable_outputs : DataFrame
        Responses from which no entry could be read: ``generator, task, validator, raw``.
    orphan_outputs : DataFrame
        Responses whose (generator, task) has no generator item, so they
        answer nothing and are not parsed: ``generator, task, validator, raw,
        reason`` (one of :data:`repair.orphans.ORPHAN_REASONS`).
    orphans : DataFrame
        ``orphan_outputs`` counted per reason (index ``reason``, only those
        that occur): ``outputs``, ``keys`` (distinct keys), ``examples`` (the
        most frequent keys with their counts) and ``hint`` (the key each
        probably meant, e.g. ``'GPT-4o' matches 'gpt-4o' ignoring case``).
    unasked_items : DataFrame
        Generator items no validator answered for (no response names their
        generator), so they have no pair: ``generator, task, item``.
    outputs : Series
        Responses per status (index ``status``): ``strict`` (the asked JSON),
        ``tolerant`` (recovered by tolerant parsing), ``unparseable``,
        ``missing_output`` (blank or missing ``raw``), ``orphan``; they sum to
        ``n_outputs``.
    n_items, n_outputs, n_entries, n_pairs : int
        Generator items given, responses given, entries parsed from them
        (after the run's repairs), pairs asked.
    """

    by_validator: pd.DataFrame
    failures: pd.DataFrame
    repairs: pd.Series
    labels: pd.DataFrame
    unmatched_entries: pd.DataFrame
    unparseable_outputs: pd.DataFrame
    orphan_outputs: pd.DataFrame
    orphans: pd.DataFrame
    unasked_items: pd.DataFrame
    outputs: pd.Series
    n_items: int
    n_outputs: int
    n_entries: int
    n_pairs: int

    @property
    def missing_rate_before(self) -> float:
        """Fraction of the asked pairs without a label as produced (NaN when none was asked)."""
        return _rate(int(self.by_validator["missing_before"].sum()), self.n_pairs)

    @property
    def missing_rate_after(self) -> float:
        """Fraction of the asked pairs without a label after the repairs (NaN when none asked)."""
        return _rate(int(self.by_validator["missing_after"].sum()), self.n_pairs)

    def by_failure(self) -> pd.DataFrame:
        """Pairs per failure type (index), ``before`` and ``after``, with their rates among all pairs."""
        table = self.failures.groupby("failure", sort=False)[["before", "after"]].sum()
        table = table.reindex(list(FAILURE_TYPES), fill_value=0)
        table["rate_before"] = table["before"] / max(self.n_pairs, 1)
        table["rate_after"] = table["after"] / max(self.n_pairs, 1)
        return table

    def to_frame(self) -> pd.DataFrame:
        """``by_validator`` with an ``all`` row: the missing rate before and after, per validator."""
        total = self.by_validator[["pairs", "missing_before", "missing_after"]].sum().astype(float)
        total["rate_before"] = self.missing_rate_before
        total["rate_after"] = self.missing_rate_after
        table = pd.concat([self.by_validator, total.to_frame("all").T])
        table.index.name = "validator"
        return table.astype({"pairs": "int64", "missing_before": "int64", "missing_after": "int64"})

    def describe(self) -> str:
        """The accounting in a few lines of text: where every response, entry and item went.

        Percentages of an empty total read ``none``, never ``nan%``; orphan
        responses are listed per reason with examples and hints.

        Examples
        --------
        >>> import pandas as pd
        >>> from repair import repair_judgments
        >>> items = pd.DataFrame({"generator": "gpt-4o", "task": 1, "item": [0],
        ...                       "line": [1], "feedback": ["Use elif."]})
        >>> raw = '{"feedback_lines": [{"line_number": 1, "feedback": "Use elif.", '
        >>> raw += '"classification": "valid"}]}'
        >>> outputs = pd.DataFrame({"generator": ["gpt-4o", "GPT-4o"], "task": 1,
        ...                         "validator": "v", "raw": raw})
        >>> print(repair_judgments(items, outputs)[1].describe())
        2 responses: 1 strict JSON, 0 recovered by tolerant parsing, 0 unparseable,
        0 blank or missing, 1 orphan (answering no generator item, left out)
          unknown_generator: 1 response(s), e.g. 'GPT-4o' (1);
          hint: 'GPT-4o' matches 'gpt-4o' ignoring case
        1 entries read: 1 matched an item, 0 matched none (listed in unmatched_entries)
        1 generator items: 1 asked of a validator, 0 not asked (no response for their generator)
        1 (item, validator) pairs; missing labels: 0.0% as produced -> 0.0% after repairs
        """
        counts = self.outputs
        lines = [
            f"{self.n_outputs:,} responses: {counts[PARSE_STRICT]:,} strict JSON, "
            f"{counts[PARSE_TOLERANT]:,} recovered by tolerant parsing, "
            f"{counts[UNPARSEABLE]:,} unparseable, {counts[MISSING_OUTPUT]:,} blank or missing, "
            f"{counts[ORPHAN]:,} orphan (answering no generator item, left out)"
        ]
        for reason, row in self.orphans.iterrows():
            line = f"  {reason}: {row['outputs']:,} response(s), e.g. {row['examples']}"
            lines.append(line + (f"; hint: {row['hint']}" if row["hint"] else ""))
        unmatched = len(self.unmatched_entries)
        lines.append(
            f"{self.n_entries:,} entries read: {self.n_entries - unmatched:,} matched an "
            f"item, {unmatched:,} matched none (listed in unmatched_entries)"
        )
        unasked = len(self.unasked_items)
        lines.append(
            f"{self.n_items:,} generator items: {self.n_items - unasked:,} asked of a "
            f"validator, {unasked:,} not asked (no response for their generator)"
        )
        before = int(self.by_validator["missing_before"].sum())
        after = int(self.by_validator["missing_after"].sum())
        lines.append(
            f"{self.n_pairs:,} (item, validator) pairs; missing labels: "
            f"{share(before, self.n_pairs)} as produced -> {share(after, self.n_pairs)} "
            "after repairs"
        )
        return "\n".join(lines)


def _by_validator(
    before: Matching, after: Matching, validator_names: np.ndarray, validators: pd.Index
) -> pd.DataFrame:
    flags = pd.DataFrame(
        {
            "validator": validator_names,
            "missing_before": before.failure != "",
            "missing_after": after.failure != "",
        }
    )
    table = flags.groupby("validator", sort=False).agg(
        pairs=("missing_before", "size"),
        missing_before=("missing_before", "sum"),
        missing_after=("missing_after", "sum"),
    )
    table = table.reindex([v for v in validators if v in table.index])
    table["rate_before"] = table["missing_before"] / table["pairs"]
    table["rate_after"] = table["missing_after"] / table["pairs"]
    return table


def _failures(
    before: Matching, after: Matching, validator_names: np.ndarray, validators: pd.Index
) -> pd.DataFrame:
    grid = pd.MultiIndex.from_product([validators, FAILURE_TYPES], names=["validator", "failure"])
    counts = {
        name: pd.Series(
            1,
            index=pd.MultiIndex.from_arrays(
                [validator_names[m.failure != ""], m.failure[m.failure != ""]]
            ),
        )
        .groupby(level=[0, 1])
        .sum()
        for name, m in (("before", before), ("after", after))
    }
    return pd.DataFrame(
        {name: count.reindex(grid, fill_value=0).astype("int64") for name, count in counts.items()}
    ).reset_index()


def _labels(entries: Entries, after: Matching, repairs: Repair) -> pd.DataFrame:
    used = after.entry[after.entry >= 0]
    if LABELS not in repairs or not used.size:
        return pd.DataFrame(
            {
                "text": pd.Series(dtype=object),
                "kind": pd.Series(dtype=object),
                "label": pd.array([], dtype="Int8"),
                "count": pd.Series(dtype="int64"),
            }
        )
    kinds = entries.label_kind[used]
    needed = np.isin(kinds, [LABEL_SYNONYM, LABEL_INVENTED])
    labels = pd.DataFrame(
        {
            "text": entries.label_text[used][needed],
            "kind": kinds[needed],
            "label": pd.array(entries.label_norm[used][needed], dtype="Int8"),
        }
    )
    counts = labels.groupby(["text", "kind", "label"], dropna=False).size().rename("count")
    return counts.reset_index().sort_values(
        ["count", "text"], ascending=[False, True], ignore_index=True
    )


def _unmatched_entries(
    entries: Entries, after: Matching, repairs: Repair, validator_outputs: pd.DataFrame
) -> pd.DataFrame:
    unmatched = np.flatnonzero(after.usable & (after.item_of < 0))
    texts = entries.text_any if FEEDBACK in repairs else entries.text_strict
    has_text = np.fromiter((isinstance(t, str) for t in texts[unmatched]), bool, len(unmatched))
    reason = np.where(
        ~has_text,
        NO_FEEDBACK_TEXT,
        np.where(after.had_candidate[unmatched], LOST_ASSIGNMENT, BELOW_THRESHOLD),
    )
    rows = entries.output[unmatched]
    return pd.DataFrame(
        {
            "generator": validator_outputs["generator"].to_numpy()[rows],
            "task": validator_outputs["task"].to_numpy()[rows],
            "validator": validator_outputs["validator"].to_numpy()[rows],
            "position": entries.position[unmatched],
            "raw": entries.raw[unmatched].astype(str),
            "reason": reason.astype(str),
        }
    )


def build_report(
    judgments: pd.DataFrame,
    before: Matching,
    after: Matching,
    entries: Entries,
    asked: AskedPairs,
    status: np.ndarray,
    repairs: Repair,
    generator_items: pd.DataFrame,
    validator_outputs: pd.DataFrame,
) -> RepairReport:
    """Count where every item, response, entry and pair of one run went.

    Parameters
    ----------
    judgments : DataFrame
        The run's judgments table (its ``repair`` column is counted).
    before, after : Matching
        The matchings with no repairs and with ``repairs``.
    entries : Entries
        Every parsed entry.
    asked : AskedPairs
        The asked pairs and orphans.
    status : ndarray of object
        Each response's status (:data:`repair.entries.RESPONSE_STATUSES`).
    repairs : Repair
        The run's repairs.
    generator_items, validator_outputs : DataFrame
        The run's inputs.

    Returns
    -------
    RepairReport
    """
    validator_names = asked.validators.to_numpy()[asked.pair_validator]
    by_validator = _by_validator(before, after, validator_names, asked.validators)
    repair_counts = judgments["repair"].value_counts()
    repair_counts.index.name = "repair"
    columns = list(VALIDATOR_OUTPUT_COLUMNS)
    orphans = validator_outputs.loc[asked.orphan, columns].reset_index(drop=True)
    reasons = orphan_reasons(generator_items, validator_outputs, asked.orphan)
    orphans["reason"] = reasons[asked.orphan]
    output_counts = (
        pd.Series(status, dtype=object)
        .value_counts()
        .reindex(list(RESPONSE_STATUSES), fill_value=0)
        .rename_axis("status")
        .rename("outputs")
        .astype("int64")
    )
    return RepairReport(
        by_validator=by_validator,
        failures=_failures(before, after, validator_names, pd.Index(by_validator.index)),
        repairs=repair_counts,
        labels=_labels(entries, after, repairs),
        unmatched_entries=_unmatched_entries(entries, after, repairs, validator_outputs),
        unparseable_outputs=validator_outputs.loc[status == UNPARSEABLE, columns].reset_index(
            drop=True
        ),
        orphan_outputs=orphans,
        orphans=orphan_table(orphans, generator_items),
        unasked_items=generator_items.loc[
            ~asked.asked_item, ["generator", "task", "item"]
        ].reset_index(drop=True),
        outputs=output_counts,
        n_items=len(generator_items),
        n_outputs=len(validator_outputs),
        n_entries=int(after.usable.sum()),
        n_pairs=asked.n_pairs,
    )
