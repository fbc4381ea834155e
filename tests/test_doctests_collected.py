"""Every docstring example of the four packages is collected by the test run ``make test`` makes.

pytest runs the examples through ``--doctest-modules`` over the packages named in ``testpaths``
(pyproject.toml). A change there (a path dropped, the option lost, a module ignored or failing to
import) would drop examples without failing a test; this one checks that ``testpaths`` names every
package, collects them with the project's settings, and compares what it finds with the ``>>>``
lines of each module's source.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("regression", "ensemble", "repair", "jurycal")
#: The first line of an example: ``>>>`` and some code (doctest skips ``>>> # a comment``).
EXAMPLE = re.compile(r"^\s*>>>(?!\s*(#|$))")


def _examples_in_source() -> Counter[str]:
    """The examples of each module, counted from its source text: no import involved."""
    found: Counter[str] = Counter()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            count = sum(1 for line in text.splitlines() if EXAMPLE.match(line))
            if count:
                found[path.relative_to(ROOT).as_posix()] = count
    return found


class _DoctestItems:
    """A plugin that keeps the examples of each module the session collects."""

    def __init__(self) -> None:
        self.examples: Counter[str] = Counter()
        self.errors: list[str] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            if isinstance(item, pytest.DoctestItem) and item.dtest is not None:
                path = Path(item.dtest.filename or "").resolve().relative_to(ROOT)
                self.examples[path.as_posix()] += len(item.dtest.examples)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.errors.append(f"{report.nodeid}: {report.longreprtext}")


def test_every_package_is_a_test_path() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert set(PACKAGES) <= set(settings["tool"]["pytest"]["ini_options"]["testpaths"])


def test_every_docstring_example_of_every_package_is_collected(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = _examples_in_source()
    assert {path.split("/")[0] for path in expected} == set(PACKAGES)
    collected = _DoctestItems()
    monkeypatch.chdir(ROOT)  # the project's settings: pyproject.toml, the root's conftest.py
    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *PACKAGES], [collected])
    assert collected.errors == []
    assert code == pytest.ExitCode.OK
    assert collected.examples == expected
