"""Strict and tolerant parsing of validator responses (prompt format: agreeableness paper App. A.2)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repair.parsing import (
    PARSE_FAILED,
    PARSE_STRICT,
    PARSE_TOLERANT,
    parse_strict,
    parse_tolerant,
    parse_validator_output,
)

from .conftest import SWAP_FEEDBACK, clean_entries, entry, response

EXPECTED = clean_entries()


def test_strict_reads_the_prompt_format_with_or_without_fence():
    assert parse_strict(response(EXPECTED)) == EXPECTED
    assert parse_strict(response(EXPECTED, fence=False)) == EXPECTED
    assert parse_strict("Here it is:\n" + response(EXPECTED) + "\nHope this helps!") == EXPECTED
    assert parse_validator_output(response(EXPECTED)).status == PARSE_STRICT


@pytest.mark.parametrize(
    "raw",
    [
        # JSON in prose without a fence.
        "Here's my analysis of the TA's feedback:\n"
        + response(EXPECTED, fence=False)
        + "\nLet me know if you'd like more detail.",
        # Trailing commas.
        response(EXPECTED).replace('"valid"\n', '"valid",\n').replace("]\n}", "],\n}"),
        # Single quotes and Python literals (a Python repr of the document).
        repr({"mistakes": [], "fixes": None, "feedback_lines": EXPECTED, "done": True}),
        # A top-level list instead of the object.
        json.dumps(EXPECTED),
        # Another key for the list, and an unterminated fence.
        "```json\n" + json.dumps({"feedbackLines": EXPECTED}),
        # The list nested one level down.
        json.dumps({"response": {"Feedback Lines": EXPECTED}}),
        # Unquoted keys and a missing comma between entries.
        json.dumps(EXPECTED[:2])[:-1]
        + " "
        + json.dumps(EXPECTED[2]).replace('"line_number"', "line_number")
        + "]",
    ],
    ids=[
        "prose",
        "trailing_commas",
        "python_literals",
        "top_level_list",
        "key_variant_fence",
        "nested",
        "unquoted_keys",
    ],
)
def test_tolerant_recovers_every_entry(raw):
    assert parse_strict(raw) is None
    parsed = parse_validator_output(raw)
    assert parsed.status == PARSE_TOLERANT
    assert parsed.entries == EXPECTED


def test_truncated_output_keeps_the_complete_entries():
    raw = response(EXPECTED)
    cut = raw.index(json.dumps(SWAP_FEEDBACK[2])) + 20  # inside the last entry's feedback
    parsed = parse_tolerant(raw[:cut])
    assert parsed.truncated
    assert parsed.entries == EXPECTED[:2]
    cut = raw.index('"classification": "invalid"') + 5  # inside the last entry's key
    assert parse_tolerant(raw[:cut]).entries == EXPECTED[:2]
    cut = raw.index(json.dumps(SWAP_FEEDBACK[0])) + 5  # inside the first entry
    parsed = parse_tolerant(raw[:cut])
    assert parsed.status == PARSE_TOLERANT and parsed.entries == []


def test_a_single_unwrapped_entry_is_one_entry():
    one = entry(1, SWAP_FEEDBACK[0], "valid")
    assert parse_tolerant("Result: " + json.dumps(one)).entries == [one]
    ranged = entry([2, 3], SWAP_FEEDBACK[1], "valid", line_number="lines")
    assert parse_tolerant(json.dumps(ranged)).entries == [ranged]
    assert parse_tolerant(json.dumps({"feedback": [one]})).entries == [one]


def test_escapes_and_literal_newlines_inside_strings():
    raw = '{"feedback_lines": [{"line_number": 1, "feedback": "say \\"hi\\"\nthen \\u00e9", "classification": "valid"}]}'
    assert parse_strict(raw) is None  # a raw newline inside a JSON string
    assert parse_tolerant(raw).entries[0]["feedback"] == 'say "hi"\nthen é'
    raw = "{'feedback_lines': [{'feedback': 'don\\'t', 'classification': 'valid'}]}"
    assert parse_tolerant(raw).entries[0]["feedback"] == "don't"


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "I'm sorry, I can't evaluate this feedback.",
        "```json\n```",
        "{",
        "[[[[",
        "'",
        '"',
        "}{][",
        "[1, 2, 3]",
        '{"mistakes": []}',
        "[" * 5000 + "]" * 5000,
        '{"a":' * 3000,
    ],
)
def test_nothing_to_recover(raw):
    parsed = parse_validator_output(raw)
    assert parsed.status == PARSE_FAILED and parsed.entries == []


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_tolerant_parser_never_raises_on_text(raw):
    parsed = parse_validator_output(raw)
    assert parsed.status in (PARSE_STRICT, PARSE_TOLERANT, PARSE_FAILED)
    assert isinstance(parsed.entries, list)


# Fragments of the prompt's JSON (App. A.2) and of what validators write instead.
JSON_TOKENS = [
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    " ",
    "\n",
    '"',
    "'",
    "\\",
    "```json\n",
    "```",
    '"feedback_lines"',
    "'feedbackLines'",
    '"feedback"',
    "feedback",
    '"line_number"',
    '"classification"',
    "label",
    '"valid"',
    "'invalid'",
    "True",
    "None",
    "null",
    "3",
    '"2-3"',
    "-1.5e3",
    '"Use elif here."',
    "Sure! Here it is:",
]


def _cut(document: str, at: int) -> str:
    return document[: at % (len(document) + 1)]


# The asked document with entries and stray lists among them, cut off anywhere.
CUT_DOCUMENTS = st.builds(
    _cut,
    st.lists(
        st.one_of(st.sampled_from(EXPECTED), st.lists(st.integers(0, 9), min_size=1, max_size=4)),
        min_size=1,
        max_size=4,
    ).map(lambda entries: json.dumps({"feedback_lines": entries})),
    st.integers(0, 10_000),
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="{}[]:,\"'\\ntrueTNn0123 abc`", max_size=200),
        st.lists(st.sampled_from(JSON_TOKENS), max_size=60).map("".join),
        CUT_DOCUMENTS,
    )
)
def test_tolerant_parser_never_raises_on_json_like_text(raw):
    parsed = parse_validator_output(raw)
    # A status, and entries only when something was read; strict exactly when the text is the
    # asked JSON; the parser's cut-off containers come back as plain dicts and lists.
    assert parsed.status in (PARSE_STRICT, PARSE_TOLERANT, PARSE_FAILED)
    assert (parsed.status == PARSE_STRICT) == (parse_strict(raw) is not None)
    if parsed.status == PARSE_FAILED:
        assert parsed.entries == [] and not parsed.truncated
    assert _only_plain_containers(parsed.entries)


def _only_plain_containers(value):
    if isinstance(value, dict):
        return type(value) is dict and all(_only_plain_containers(v) for v in value.values())
    if isinstance(value, list):
        return type(value) is list and all(_only_plain_containers(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2**32 - 1))
def test_any_cut_of_a_response_keeps_a_prefix_of_the_entries(cut, seed):
    raw = response(EXPECTED) if seed % 2 else repr({"feedback_lines": EXPECTED})
    parsed = parse_validator_output(raw[: cut % (len(raw) + 1)])
    assert parsed.entries == EXPECTED[: len(parsed.entries)]
