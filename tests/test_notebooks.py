"""Every notebook in notebooks/ runs top to bottom (so none can rot); each asserts its own numbers.

A failing cell fails its notebook's test with the notebook, the cell's number and the
error, and the cells after it are not run. A notebook with a ``parameters`` cell runs a smaller
sweep here (``benchmarks/bench_notebooks.py``'s FAST_PARAMETERS); ``make bench`` runs every
notebook with its own parameters.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def runner(benchmark: Callable[[str], ModuleType]) -> ModuleType:
    """``benchmarks/bench_notebooks.py``: ``execute_notebook`` and ``FAST_PARAMETERS``."""
    return benchmark("bench_notebooks")


def test_there_are_notebooks(runner: ModuleType) -> None:
    assert len(NOTEBOOKS) >= 2, f"expected the paper notebooks in {ROOT / 'notebooks'}"
    assert runner.NOTEBOOKS == NOTEBOOKS
    assert set(runner.FAST_PARAMETERS) <= {path.stem for path in NOTEBOOKS}


@pytest.mark.slow  # each starts a kernel and runs its notebook (the agreeableness one on 7 splits)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: ModuleType
) -> None:
    # The kernel runs in tmp_path; it finds the packages whether or not they are installed.
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    runner.execute_notebook(path, tmp_path, runner.FAST_PARAMETERS.get(path.stem))


def test_a_failing_cell_names_the_notebook_and_cell(tmp_path: Path, runner: ModuleType) -> None:
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# A notebook"),
            nbformat.v4.new_code_cell("x = 1"),
            nbformat.v4.new_code_cell("y = x + undefined_name"),
            nbformat.v4.new_code_cell("raise SystemExit('never reached')"),
        ]
    )
    path = tmp_path / "broken.ipynb"
    nbformat.write(notebook, path)
    with pytest.raises(AssertionError, match=r"broken.ipynb: cell 3 .*NameError.*undefined_name"):
        runner.execute_notebook(path, tmp_path)


def test_parameters_override_the_tagged_cell_and_a_failure_names_them(
    tmp_path: Path, runner: ModuleType
) -> None:
    parameters = nbformat.v4.new_code_cell("n = 10")
    parameters.metadata["tags"] = ["parameters"]
    notebook = nbformat.v4.new_notebook(
        cells=[parameters, nbformat.v4.new_code_cell("assert n == 2, n")]
    )
    path = tmp_path / "sweep.ipynb"
    nbformat.write(notebook, path)
    runner.execute_notebook(path, tmp_path, "n = 2")
    with pytest.raises(
        AssertionError, match=r"sweep.ipynb: the parameters after cell 1 .*NameError"
    ):
        runner.execute_notebook(path, tmp_path, "n = undefined_name")
    with pytest.raises(ValueError, match=r"broken.ipynb has no cell tagged 'parameters'"):
        runner.execute_notebook(_untagged(tmp_path), tmp_path, "n = 2")


def _untagged(tmp_path: Path) -> Path:
    path = tmp_path / "broken.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("n = 1")]), path)
    return path
