"""Every notebook in notebooks/ runs top to bottom (so none can rot); each asserts its own numbers.

A failing cell fails its notebook's test with the notebook, the cell's number and the
error, and the cells after it are not run.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# A cell takes seconds on a quiet machine (the leave-s-out one ~20 s); the generous limit
# only keeps a loaded CI machine from failing on time, not on results.
CELL_TIMEOUT_S = 600


def execute_notebook(path: Path, workdir: Path) -> None:
    """Run every code cell of a notebook in order, in ``workdir``.

    Raises
    ------
    AssertionError
        At the first cell that fails, runs out of time or kills the kernel, naming the
        notebook, the cell (counted from 1, Markdown cells included, with its first line)
        and the error with its traceback.
    """
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
    )
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            first_line = cell.source.strip().split("\n")[0][:80]
            where = f"{path.name}: cell {index + 1} ({first_line!r})"
            try:
                client.execute_cell(cell, index)
            except CellExecutionError as error:
                raise AssertionError(
                    f"{where} failed with {error.ename}: {error.evalue}\n{error}"
                ) from None
            except (CellTimeoutError, DeadKernelError) as error:
                raise AssertionError(f"{where}: {type(error).__name__}: {error}") from None


def test_there_are_notebooks() -> None:
    assert len(NOTEBOOKS) >= 2, f"expected the paper notebooks in {ROOT / 'notebooks'}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel runs in tmp_path; it finds the packages whether or not they are installed.
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    execute_notebook(path, tmp_path)


def test_a_failing_cell_names_the_notebook_and_cell(tmp_path: Path) -> None:
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
        execute_notebook(path, tmp_path)
