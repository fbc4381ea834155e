"""repair_judgments: every repair on realistic responses, the paper's four levels, the accounting."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regression.errors import DuplicateRowError
from repair import (
    ALL,
    FAILURE_TYPES,
    FEEDBACK,
    LABELS,
    LINES,
    NONE,
    ORPHAN_REASONS,
    PAPER_LEVELS,
    PARSING,
    REPAIRED_COLUMNS,
    LabelPolicy,
    repair_judgments,
)

from .conftest import SWAP_FEEDBACK, clean_entries, entry, outputs_for, response, swap_items

NO_ENTRY = {"missing_output", "unparseable", "unmatched"}


def check_accounting(
    items: pd.DataFrame, outputs: pd.DataFrame, judgments: pd.DataFrame, report
) -> None:
    """Every asked pair exactly once; every entry and every response accounted for."""
    keys = ["generator", "item", "validator"]
    assert not judgments.duplicated(keys).any()
    asked = outputs[outputs["generator"].isin(items["generator"])][
        ["generator", "validator"]
    ].drop_duplicates()
    expected = items[["generator", "item"]].merge(asked, on="generator")
    assert len(judgments) == len(expected) == report.n_pairs
    assert judgments[keys].merge(expected, on=keys).shape[0] == len(expected)
    failed = judgments["repair"].isin(FAILURE_TYPES)
    assert (judgments["label"].isna() == failed).all()
    assert set(judgments["label"].dropna().unique()) <= {0, 1}
    assert (judgments["raw"].isna() == judgments["repair"].isin(NO_ENTRY)).all()
    assert judgments["raw"].notna().sum() + len(report.unmatched_entries) == report.n_entries
    assert report.outputs.sum() == report.n_outputs == len(outputs)
    assert report.outputs["unparseable"] == len(report.unparseable_outputs)
    assert report.outputs["orphan"] == len(report.orphan_outputs) == report.orphans["outputs"].sum()
    assert report.n_items == len(items)
    item_keys = pd.MultiIndex.from_frame(items[["generator", "item"]])
    judged_items = item_keys.isin(pd.MultiIndex.from_frame(judgments[["generator", "item"]]))
    unasked = item_keys.isin(pd.MultiIndex.from_frame(report.unasked_items[["generator", "item"]]))
    # exact: item names (every item in exactly one of the two)
    assert (judged_items != unasked).all()
    assert report.by_validator["pairs"].sum() == report.n_pairs
    assert report.by_validator["missing_after"].sum() == failed.sum()
    assert report.failures["after"].sum() == failed.sum()
    assert report.repairs.sum() == report.n_pairs


def run(raws: dict[str, str | None], **kwargs):
    items = swap_items()
    outputs = pd.concat(
        [outputs_for(raw, validator=v) for v, raw in raws.items()], ignore_index=True
    )
    judgments, report = repair_judgments(items, outputs, progress=False, **kwargs)
    check_accounting(items, outputs, judgments, report)
    return judgments.set_index(["validator", "item"]), report


def test_clean_responses_are_exact():
    judgments, report = run({"claude_3_opus": response(clean_entries())})
    assert judgments["label"].tolist() == [1, 1, 0]
    assert judgments["repair"].tolist() == ["exact"] * 3
    assert json.loads(judgments["raw"].iloc[0]) == clean_entries()[0]
    assert (
        report.missing_rate_before  # exact: a share of zero or all rows
        == report.missing_rate_after
        == 0.0
    )


@pytest.mark.parametrize(
    ("entries", "repair", "label"),
    [
        # The "lazy" validator: a clipped prefix of the feedback (partial ratio).
        ([entry(1, SWAP_FEEDBACK[0][:70] + "...", "valid")], "feedback", 1),
        # A paraphrase (token-set ratio).
        (
            [
                entry(
                    1,
                    "you dont need to assign new strings to x and y before swapping. You can swap "
                    'directly using "x, y = y, x"',
                    "valid",
                )
            ],
            "feedback",
            1,
        ),
        # Feedback under another key.
        ([entry(1, SWAP_FEEDBACK[0], "valid", feedback="Feedback")], "feedback", 1),
        # Line formats and keys (App. B.3: "line_num" instead of "line_number", "line 3" instead of 3).
        ([entry("line 1", SWAP_FEEDBACK[0], "valid")], "lines", 1),
        ([entry(1, SWAP_FEEDBACK[0], "valid", line_number="line_num")], "lines", 1),
        ([entry("L1", SWAP_FEEDBACK[0], "valid", line_number="lineNumber")], "lines", 1),
        ([entry(1, SWAP_FEEDBACK[0], "valid", line_number="Line Number")], "lines", 1),
        ([entry("2–3", SWAP_FEEDBACK[1], "valid")], "lines", 1),
        ([entry([2, 3], SWAP_FEEDBACK[1], "valid")], "lines", 1),
        ([entry(2, SWAP_FEEDBACK[1], "valid")], "lines", 1),  # a range matched by its start line
        ([entry(7, SWAP_FEEDBACK[0], "valid")], "lines", 1),  # a wrong line: the text decides
        # Labels: case, synonyms, other keys, invented (App. B.3: "partially valid").
        ([entry(1, SWAP_FEEDBACK[0], "Valid.")], "labels", 1),
        ([entry(1, SWAP_FEEDBACK[0], "incorrect")], "labels", 0),
        ([entry(1, SWAP_FEEDBACK[0], True)], "labels", 1),
        ([entry(1, SWAP_FEEDBACK[0], "valid", classification="verdict")], "labels", 1),
        ([entry(1, SWAP_FEEDBACK[0], "invalid", classification="label")], "labels", 0),
        ([entry(1, SWAP_FEEDBACK[0], "partially valid")], "labels", 0),
        # Several at once.
        (
            [entry("line 1", SWAP_FEEDBACK[0][:60], "Correct", classification="label")],
            "feedback+lines+labels",
            1,
        ),
    ],
)
def test_each_repair_on_one_entry(entries, repair, label):
    judgments, _ = run({"gpt-4.1": response(entries)})
    item = (
        10
        if SWAP_FEEDBACK[0][:30] in json.dumps(entries) or "you dont" in json.dumps(entries)
        else 11
    )
    row = judgments.loc[("gpt-4.1", item)]
    assert row["repair"] == repair
    assert row["label"] == label


@pytest.mark.parametrize(
    "raw",
    [
        "Here's my analysis:\n" + response(clean_entries(), fence=False) + "\nHope that helps!",
        response(clean_entries()).replace('"valid"\n', '"valid",\n'),
        repr({"mistakes": [], "fixes": [], "feedback_lines": clean_entries()}),
        json.dumps(clean_entries()),
        json.dumps({"feedbackLines": clean_entries()}),
    ],
    ids=["prose", "trailing_commas", "python_literals", "top_level_list", "list_key"],
)
def test_parsing_repairs(raw):
    judgments, report = run({"gpt-4o-mini": raw})
    assert judgments["repair"].tolist() == ["parsing"] * 3
    assert judgments["label"].tolist() == [1, 1, 0]
    assert report.outputs["tolerant"] == 1
    before, _ = run({"gpt-4o-mini": raw}, repairs=FEEDBACK | LINES | LABELS)
    assert before["repair"].tolist() == ["unparseable"] * 3


def test_truncated_response_recovers_the_complete_entries():
    raw = response(clean_entries())
    raw = raw[: raw.index(json.dumps(SWAP_FEEDBACK[2])) + 15]
    judgments, report = run({"gemini-1.5-flash": raw})
    assert judgments["repair"].tolist() == ["parsing", "parsing", "unmatched"]
    assert judgments["label"].tolist()[:2] == [1, 1]
    assert report.by_failure().loc["unmatched", "after"] == 1


def _level_responses() -> dict[str, str | None]:
    return {
        "clean": response(clean_entries()),
        "messy": response(
            [
                entry(1, SWAP_FEEDBACK[0][:70], "valid"),  # needs FEEDBACK
                entry("lines 2 to 3", SWAP_FEEDBACK[1], "valid"),  # needs LINES
                entry(4, SWAP_FEEDBACK[2], "Invalid."),
            ]
        ),  # needs LABELS
        "commas": response(clean_entries()).replace('"valid"\n', '"valid",\n'),  # needs PARSING
        "silent": None,
    }


@pytest.mark.parametrize(
    ("level", "missing"),
    [("none", 9), ("feedback", 8), ("feedback+lines", 7), ("feedback+lines+labels", 6), ("all", 3)],
)
def test_the_papers_four_levels_and_parsing(level, missing):
    # The paper released its data at four repair levels (§4, App. B.3); each level here repairs
    # one more entry of the "messy" response, and ALL adds tolerant parsing.
    repairs = ALL if level == "all" else PAPER_LEVELS[level]
    judgments, report = run(_level_responses(), repairs=repairs)
    assert judgments["label"].isna().sum() == missing
    # exact: a share of integer counts, one rounding
    assert report.missing_rate_after == missing / 12
    assert report.missing_rate_before == 9 / 12  # exact: a share of integer counts, one rounding
    assert (judgments.loc["silent", "repair"] == "missing_output").all()
    assert judgments.loc["clean", "label"].tolist() == [1, 1, 0]


def test_report_tables():
    judgments, report = run(_level_responses())
    table = report.by_failure()
    assert table.index.tolist() == list(FAILURE_TYPES)
    assert table["before"].tolist() == [3, 3, 2, 1] and table["after"].tolist() == [3, 0, 0, 0]
    assert report.failures.shape == (4 * len(FAILURE_TYPES), 4)
    summary = report.to_frame()
    assert summary.loc["all", "pairs"] == 12 and summary.loc["messy", "missing_before"] == 3
    assert (
        summary.loc["messy", "rate_after"] == 0.0  # exact: a share of zero or all rows
        and summary.loc["silent", "rate_after"] == 1.0  # exact: a share of zero or all rows
    )
    assert report.labels.to_dict("records") == [
        {"text": "invalid", "kind": "synonym", "label": 0, "count": 1}
    ]
    assert report.repairs["exact"] == 3 and report.repairs["missing_output"] == 3


@pytest.mark.parametrize(
    ("policy", "label", "repair"),
    [("invalid", 0, "labels"), ("valid", 1, "labels"), ("missing", None, "bad_label")],
)
def test_invented_labels_follow_the_policy_and_are_counted(policy, label, repair):
    entries = [
        entry(1, SWAP_FEEDBACK[0], "partially valid"),
        entry("2-3", SWAP_FEEDBACK[1], "mostly valid"),
    ]
    judgments, report = run({"v": response(entries)}, label_policy=LabelPolicy(invented=policy))
    assert judgments["repair"].tolist()[:2] == [repair] * 2
    assert judgments["label"].tolist()[:2] == [pd.NA if label is None else label] * 2
    invented = report.labels[report.labels["kind"] == "invented"]
    assert invented["count"].sum() == 2 and set(invented["text"]) == {
        "partially valid",
        "mostly valid",
    }


def test_switches_turn_each_repair_off():
    raw = response(
        [
            entry(1, SWAP_FEEDBACK[0], "Valid"),
            entry("line 2", SWAP_FEEDBACK[1], "valid"),
            entry(4, SWAP_FEEDBACK[2][:50], "invalid"),
        ]
    )
    judgments, _ = run({"v": raw}, repairs=ALL & ~LABELS)
    assert judgments["repair"].tolist() == ["bad_label", "lines", "feedback"]
    judgments, _ = run({"v": raw}, repairs=ALL & ~LINES)
    assert judgments["repair"].tolist() == ["labels", "unmatched", "feedback"]
    judgments, _ = run({"v": raw}, repairs=ALL & ~FEEDBACK)
    assert judgments["repair"].tolist() == ["labels", "lines", "unmatched"]
    judgments, _ = run({"v": raw}, repairs=NONE)
    assert judgments["repair"].tolist() == ["bad_label", "unmatched", "unmatched"]
    judgments, _ = run({"v": raw}, repairs=PARSING)
    assert judgments["repair"].tolist() == ["bad_label", "unmatched", "unmatched"]


def test_one_entry_matches_one_item_and_leftovers_are_listed():
    entries = [
        entry(1, SWAP_FEEDBACK[0], "valid"),
        entry(1, SWAP_FEEDBACK[0], "invalid"),  # said twice
        entry(6, "Consider adding comments to explain the logic.", "valid"),  # invented
        {"line_number": 4, "classification": "valid"},  # no text
        "an entry that is not an object",
    ]
    judgments, report = run({"v": response(entries)})
    assert judgments["repair"].tolist() == ["exact", "unmatched", "unmatched"]
    assert judgments["label"].iloc[0] == 1
    unmatched = report.unmatched_entries
    assert unmatched["position"].tolist() == [1, 2, 3, 4]
    assert unmatched["reason"].tolist() == [
        "lost_assignment",
        "below_threshold",
        "no_feedback_text",
        "no_feedback_text",
    ]
    assert json.loads(unmatched["raw"].iloc[1])["feedback"].startswith("Consider adding")


def test_orphan_outputs_are_counted_by_reason_not_dropped():
    items = pd.concat([swap_items(), swap_items(generator="claude", task=2)], ignore_index=True)
    outputs = pd.concat(
        [
            outputs_for(response(clean_entries())),
            outputs_for(response(clean_entries()), task=99),  # no such task
            outputs_for(response(clean_entries()), task=2),  # claude's task
            outputs_for(response(clean_entries()), generator="GPT-4o"),  # case
            outputs_for(response(clean_entries()), generator="GPT-4o", validator="v2"),
            outputs_for(response(clean_entries()), generator="llama"),
        ],
        ignore_index=True,
    )
    judgments, report = repair_judgments(items, outputs, progress=False)
    check_accounting(items, outputs, judgments, report)
    assert len(judgments) == 3 and judgments["label"].notna().all()
    assert report.orphan_outputs["reason"].tolist() == [
        "unknown_task",
        "unknown_pair",
        *["unknown_generator"] * 3,
    ]
    table = report.orphans
    assert table.index.tolist() == list(ORPHAN_REASONS)
    assert table["outputs"].tolist() == [3, 1, 1] and table["keys"].tolist() == [2, 1, 1]
    assert table.loc["unknown_generator", "examples"] == "'GPT-4o' (2), 'llama' (1)"
    assert table.loc["unknown_generator", "hint"] == "'GPT-4o' matches 'gpt-4o' ignoring case"
    assert table.loc["unknown_task", "hint"] == ""
    assert table.loc["unknown_pair", "examples"] == "('gpt-4o', 2) (1)"
    assert "generator(s) 'claude' have" in table.loc["unknown_pair", "hint"]
    # Nobody answered for claude: its items are listed, not silently absent.
    assert report.unasked_items["generator"].tolist() == ["claude"] * 3
    text = report.describe()
    assert "6 responses: 1 strict JSON" in text and "5 orphan" in text
    assert (
        "unknown_generator: 3 response(s), e.g. 'GPT-4o' (2), 'llama' (1); hint: 'GPT-4o' matches"
    ) in text
    assert "3 not asked" in text


@pytest.mark.parametrize(
    ("column", "values", "message"),
    [
        (
            "generator",
            ["GPT-4o"],
            r"1 with an unknown generator \(e.g. 'GPT-4o' \(1\)\): 'GPT-4o' "
            r"matches 'gpt-4o' ignoring case",
        ),
        ("generator", [" gpt-4o"], r"' gpt-4o' matches 'gpt-4o' ignoring surrounding spaces"),
        ("generator", ["gpt4o"], r"'gpt4o' is close to 'gpt-4o' \(ratio 91\)"),
        (
            "task",
            ["1"],
            r"unknown task \(e.g. '1' \(1\)\): '1' \(text\) matches 1 \(int\) "
            r"ignoring type",
        ),
    ],
)
def test_nothing_matched_raises_with_the_likely_key(column, values, message):
    items = swap_items()
    outputs = outputs_for(response(clean_entries())).assign(**{column: values})
    with pytest.raises(
        ValueError, match=r"none of the 1 validator_outputs rows matches .*" + message
    ):
        repair_judgments(items, outputs, progress=False)


def test_a_case_mismatch_on_half_the_responses_is_reported():
    items = pd.concat([swap_items(task=1), swap_items(task=2)], ignore_index=True)
    outputs = pd.concat(
        [
            outputs_for(response(clean_entries()), task=1),
            outputs_for(response(clean_entries()), task=2, generator="GPT-4O"),
        ],
        ignore_index=True,
    )
    judgments, report = repair_judgments(items, outputs, progress=False)
    check_accounting(items, outputs, judgments, report)
    assert report.outputs["orphan"] == 1
    hint = report.orphans.loc["unknown_generator", "hint"]
    assert hint == "'GPT-4O' matches 'gpt-4o' ignoring case"
    assert (judgments.loc[judgments["task"] == 2, "repair"] == "missing_output").all()


def test_empty_inputs():
    items = swap_items()
    empty = outputs_for(None).iloc[:0]
    judgments, report = repair_judgments(items, empty, progress=False)
    assert len(judgments) == 0 and report.n_pairs == 0
    assert list(judgments.columns) == list(REPAIRED_COLUMNS)
    assert len(report.unasked_items) == 3
    assert np.isnan(report.missing_rate_after)
    text = report.describe()
    assert "nan" not in text and "missing labels: none as produced -> none after repairs" in text
    with pytest.raises(ValueError, match=r"generator_items has no rows, so none of the 1 "):
        repair_judgments(items.iloc[:0], outputs_for(response(clean_entries())), progress=False)


def test_bad_input_raises_clear_errors():
    items, outputs = swap_items(), outputs_for(response(clean_entries()))
    with pytest.raises(ValueError, match=r"generator_items is missing column\(s\) \['line'\]"):
        repair_judgments(items.drop(columns="line"), outputs)
    with pytest.raises(ValueError, match=r"validator_outputs is missing column\(s\) \['raw'\]"):
        repair_judgments(items, outputs.rename(columns={"raw": "response"}))
    with pytest.raises(ValueError, match=r"generator_items must be a pandas DataFrame; got dict"):
        repair_judgments(items.to_dict(), outputs)
    with pytest.raises(
        DuplicateRowError,
        match=r"generator_items repeats \(generator, item\) = \('gpt-4o', 10\) at row \d+, "
        r"first seen at row 0",
    ):
        repair_judgments(pd.concat([items, items.iloc[:1]]), outputs)
    with pytest.raises(
        DuplicateRowError,
        match=r"validator_outputs repeats \(generator, task, validator\) = "
        r"\('gpt-4o', 1, 'claude_3_opus'\) at row \d+, first seen at row 0",
    ):
        repair_judgments(items, pd.concat([outputs, outputs]))
    with pytest.raises(
        ValueError, match=r"validator_outputs\['raw'\] must be text \(or missing\); got dict"
    ):
        repair_judgments(items, outputs.assign(raw=[{"feedback_lines": []}]))
    with pytest.raises(
        ValueError, match=r"validator_outputs\['raw'\] must be text \(or missing\); got bytes"
    ):
        repair_judgments(items, outputs.assign(raw=[b"{}"]))
    with pytest.raises(
        ValueError, match=r"generator_items\['feedback'\] must be text; got nan at row 1"
    ):
        repair_judgments(items.assign(feedback=["a", np.nan, "c"]), outputs)
    with pytest.raises(
        ValueError, match=r"validator_outputs\['validator'\] has a missing value at row 0"
    ):
        repair_judgments(items, outputs.assign(validator=[None]))
    with pytest.raises(ValueError, match=r"fuzzy_threshold \(0\) must be a number in \(0, 100\]"):
        repair_judgments(items, outputs, fuzzy_threshold=0)
    with pytest.raises(ValueError, match=r"fuzzy_threshold \('high'\) must be a number"):
        repair_judgments(items, outputs, fuzzy_threshold="high")
    with pytest.raises(
        ValueError,
        match=r"repairs \('feedback'\) must be a Repair flag .* PAPER_LEVELS\['feedback'\]",
    ):
        repair_judgments(items, outputs, repairs="feedback")
    with pytest.raises(ValueError, match=r"label_policy must be a LabelPolicy; got str"):
        repair_judgments(items, outputs, label_policy="invalid")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=15), children, max_size=3)
    ),
    max_leaves=8,
)
field_values = st.one_of(
    json_values, st.sampled_from(SWAP_FEEDBACK + ["valid", "invalid", "line 1", "2-3"])
)
entries = st.lists(
    st.one_of(
        json_values,
        st.fixed_dictionaries(
            {},
            optional={
                "line_number": field_values,
                "feedback": field_values,
                "classification": field_values,
                "lineNumber": field_values,
                "label": field_values,
                "Feedback": field_values,
            },
        ),
    ),
    max_size=5,
)
texts = st.one_of(
    st.text(max_size=400),
    st.builds(
        lambda k, junk: response(clean_entries())[:k] + junk,
        st.integers(0, 900),
        st.text(max_size=20),
    ),
    st.builds(lambda e: json.dumps({"feedback_lines": e}), entries),
    st.builds(repr, entries),
)


# Stays: repair's contract (never raises, every pair accounted for) on arbitrary text.
@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.none(), texts), min_size=1, max_size=4))
def test_never_raises_on_any_text_and_accounts_for_every_pair(raws):
    run({f"v{k}": raw for k, raw in enumerate(raws)})


BLOCKS = [("gpt-4o", 1), ("gpt-4o", 2), ("claude", 1), ("claude", 3)]
RESPONSE_KEYS = st.tuples(
    st.sampled_from(["gpt-4o", "GPT-4o", "claude", " claude", "llama"]),
    st.sampled_from([1, 2, 3, "1", 4]),
    st.sampled_from(["v0", "v1", "v2"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sets(st.sampled_from(BLOCKS), min_size=1),
    st.lists(
        st.tuples(RESPONSE_KEYS, st.one_of(st.none(), texts)),
        max_size=8,
        unique_by=lambda row: row[0],
    ),
)
def test_every_response_is_in_the_judgments_or_counted_as_dropped(blocks, rows):
    items = pd.concat([swap_items(g, t) for g, t in sorted(blocks)], ignore_index=True)
    outputs = pd.DataFrame(
        [(*key, raw) for key, raw in rows], columns=["generator", "task", "validator", "raw"]
    ).astype(object)
    answered = [key[:2] in blocks for key, _ in rows]
    if rows and not any(answered):
        with pytest.raises(ValueError, match="none of the .* validator_outputs rows matches"):
            repair_judgments(items, outputs, progress=False)
        return
    judgments, report = repair_judgments(items, outputs, progress=False)
    check_accounting(items, outputs, judgments, report)
    judged = set(judgments[["generator", "task", "validator"]].itertuples(index=False, name=None))
    dropped = list(
        report.orphan_outputs[["generator", "task", "validator"]].itertuples(index=False, name=None)
    )
    for (key, _), used in zip(rows, answered, strict=True):
        assert (key in judged) == used and (key in dropped) == (not used)
    assert len(dropped) == report.orphans["outputs"].sum() == len(rows) - sum(answered)
    assert report.outputs.sum() == len(rows)
    assert "nan" not in report.describe()


def _garble(text: str, rng: np.random.Generator) -> str:
    chars = list(text)
    for _ in range(int(rng.integers(1, 12))):
        if not chars:
            break
        at = int(rng.integers(len(chars)))
        action = rng.integers(4)
        if action == 0:
            del chars[at]
        elif action == 1:
            chars.insert(at, str(rng.choice(list("{}[]:,\"'\\`\n"))))
        elif action == 2:
            chars[at] = str(rng.choice(list("\"'xyz0 ")))
        else:
            chars[at : at + int(rng.integers(1, 50))] = []
    return "".join(chars)


def test_fuzz_corpus_of_truncated_and_garbled_sample_responses(sample):
    items, outputs = sample
    rng = np.random.default_rng(20240705)
    picked = outputs[outputs["raw"].notna()].sample(400, random_state=7).reset_index(drop=True)
    raws = picked["raw"].tolist()
    corrupted = [
        raw[: int(rng.integers(len(raw) + 1))] if k % 2 else _garble(raw, rng)
        for k, raw in enumerate(raws)
    ]
    fuzzed = picked.assign(raw=pd.Series(corrupted, dtype=object))
    judgments, report = repair_judgments(items, fuzzed, progress=False)
    check_accounting(items, fuzzed, judgments, report)
    asked = judgments.merge(
        picked[["generator", "task", "validator"]], on=["generator", "task", "validator"]
    )
    assert asked["label"].notna().mean() > 0.3  # much is still recovered
