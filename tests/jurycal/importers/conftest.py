"""Shared fixtures for the importer tests: the hand-written files under ``fixtures/``."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    """The folder of hand-written result files, one per format, to each tool's published schema."""
    return FIXTURES


@pytest.fixture
def eval_zip() -> Callable[..., Path]:
    """The writer of Inspect ``.eval`` zips (:func:`write_eval_zip`)."""
    return write_eval_zip


def write_eval_zip(path: Path, log: dict[str, Any], *, samples: bool = True) -> Path:
    """Write ``log`` as an Inspect ``.eval`` zip: header.json, samples/<id>_epoch_<n>.json and
    summaries.json, the members ``inspect_ai/log/_recorders/eval.py`` writes."""
    header = {k: v for k, v in log.items() if k != "samples"}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("_journal/start.json", json.dumps({"version": 2, "eval": log["eval"]}))
        archive.writestr("header.json", json.dumps(header))
        summaries = []
        for sample in log["samples"]:
            if samples:
                name = f"samples/{sample['id']}_epoch_{sample['epoch']}.json"
                archive.writestr(name, json.dumps(sample))
            summaries.append(
                {
                    "id": sample["id"],
                    "epoch": sample["epoch"],
                    "input": sample.get("input", ""),
                    "target": sample.get("target", ""),
                    "scores": sample["scores"],
                    "completed": True,
                }
            )
        archive.writestr("summaries.json", json.dumps(summaries))
    return path
