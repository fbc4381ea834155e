"""Every notebook in notebooks/ runs top to bottom (so none can rot); each asserts its own numbers."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, tmp_path):
    notebook = nbformat.read(path, as_version=4)
    # A cell takes seconds on a quiet machine (the leave-s-out one ~20 s); the generous
    # limit only keeps a loaded CI machine from failing on time, not on results.
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={
        "metadata": {"path": str(tmp_path)}
    }).execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
