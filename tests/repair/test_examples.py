"""The Examples sections of the repair modules run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "repair",
    "repair.alignment",
    "repair.entries",
    "repair.labels",
    "repair.lines",
    "repair.matching",
    "repair.orphans",
    "repair.pairs",
    "repair.parsing",
    "repair.pipeline",
    "repair.report",
    "repair.simulate",
    "repair.switches",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0
    if name != "repair.matching":  # takes the pipeline's whole state: repair_judgments shows it
        assert result.attempted > 0
