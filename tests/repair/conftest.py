"""Shared fixtures: a task written from the paper's validator prompt (App. A.2) and the bundled sample."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

from regression.datasets import load_agreeableness_judgments
from repair import repair_judgments
from repair.datasets import load_repair_sample

# The worked example of the agreeableness paper's validator prompt (App. A.2): a student who
# should swap x and y; the TA's feedback lines. Item 0 is the prompt's own feedback line.
SWAP_FEEDBACK = [
    "You don't need to assign new strings to x and y before swapping their values. "
    'You can directly swap the values using the syntax "x, y = y, x".',
    "The statement x, y = x, y assigns each variable to itself, so nothing is exchanged; "
    "write x, y = y, x instead.",
    "Print x and y after the swap so that the test cases can check the new values.",
]
SWAP_LINES: list[Any] = [1, "2-3", 4]


def swap_items(generator: str = "gpt-4o", task: int = 1) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "generator": generator,
            "task": task,
            "item": [10 * task, 10 * task + 1, 10 * task + 2],
            "line": SWAP_LINES,
            "feedback": SWAP_FEEDBACK,
        }
    )


def entry(line: Any, text: str, label: Any, /, **keys: str) -> dict[str, Any]:
    """One entry of the prompt's ``feedback_lines``; ``keys`` renames fields (line_number=..., ...)."""
    names = {
        "line_number": "line_number",
        "feedback": "feedback",
        "classification": "classification",
    }
    names.update(keys)
    return {
        names["line_number"]: line,
        names["feedback"]: text,
        "analysis": "Checked against the TA's fixed code.",
        names["classification"]: label,
    }


def response(entries: list[dict[str, Any]], *, fence: bool = True) -> str:
    """A response in the prompt's output format (App. A.2), optionally in a ```json fence."""
    text = json.dumps(
        {
            "mistakes": ["x and y are overwritten with strings"],
            "fixes": ["x, y = y, x"],
            "feedback_lines": entries,
        },
        indent=2,
    )
    return f"```json\n{text}\n```" if fence else text


def clean_entries() -> list[dict[str, Any]]:
    return [
        entry(1, SWAP_FEEDBACK[0], "valid"),
        entry("2-3", SWAP_FEEDBACK[1], "valid"),
        entry(4, SWAP_FEEDBACK[2], "invalid"),
    ]


def outputs_for(
    raw: str | None, validator: str = "claude_3_opus", generator: str = "gpt-4o", task: int = 1
) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "generator": [generator],
            "task": [task],
            "validator": [validator],
            "raw": pd.Series([raw], dtype=object),
        }
    )


@pytest.fixture(scope="session")
def sample() -> tuple[pd.DataFrame, pd.DataFrame]:
    return load_repair_sample()


@pytest.fixture(scope="session")
def votes() -> pd.DataFrame:
    judgments, _ = load_agreeableness_judgments("feedback+lines+labels")
    return judgments


@pytest.fixture(scope="session")
def sample_run(sample: tuple[pd.DataFrame, pd.DataFrame]) -> tuple[pd.DataFrame, Any]:
    items, outputs = sample
    return repair_judgments(items, outputs, progress=False)
