"""The notebooks in notebooks/, executed top to bottom with their full parameters.

Run: ``python benchmarks/run.py notebooks``. Prints each notebook's time; a failing cell (each
notebook asserts its own numbers against the paper's) stops the run with the notebook, the cell
and the error. ``tests/test_notebooks.py`` executes every notebook with :func:`execute_notebook`
too, with a smaller sweep where a notebook's ``parameters`` cell allows one
(:data:`FAST_PARAMETERS`).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# A cell takes seconds on a quiet machine (the full leave-s-out one ~20 s); the generous limit
# only keeps a loaded CI machine from failing on time, not on results.
CELL_TIMEOUT_S = 600

#: What the unit suite sets after a notebook's cell tagged ``parameters``, by notebook: the
#: agreeableness notebook's leave-s-out sweep on s = 0 and 1 (7 of 63 subsets), on which its
#: reproduction asserts hold under every kernel blas-check runs (median |gap| at most 0.15
#: points against the notebook's 0.2, per-s means within 0.41 against its 1).
FAST_PARAMETERS = {"agreeableness_fig4_5_6": "SIZES = [0, 1]"}


def execute_notebook(path: Path, workdir: Path, parameters: str | None = None) -> None:
    """Run every code cell of a notebook in order, in ``workdir``.

    Parameters
    ----------
    path : Path
        The notebook.
    workdir : Path
        The kernel's working directory.
    parameters : str, optional
        Code run right after the notebook's cell tagged ``parameters`` (papermill's
        convention), overriding what that cell sets.

    Raises
    ------
    AssertionError
        At the first cell that fails, runs out of time or kills the kernel, naming the
        notebook, the cell (counted from 1, Markdown cells included, with its first line)
        and the error with its traceback.
    ValueError
        If ``parameters`` is given and no cell is tagged ``parameters``.
    """
    notebook = nbformat.read(path, as_version=4)
    # (the cell's name in messages, the cell), in the order they run
    cells = [(f"cell {index + 1}", cell) for index, cell in enumerate(notebook.cells)]
    if parameters is not None:
        tagged = [
            i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", [])
        ]
        if not tagged:
            raise ValueError(f"{path.name} has no cell tagged 'parameters' to override")
        injected = nbformat.v4.new_code_cell(parameters)
        notebook.cells.insert(tagged[0] + 1, injected)
        cells.insert(tagged[0] + 1, (f"the parameters after cell {tagged[0] + 1}", injected))
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
    )
    with client.setup_kernel():
        for index, (name, cell) in enumerate(cells):
            if cell.cell_type != "code":
                continue
            first_line = cell.source.strip().split("\n")[0][:80]
            where = f"{path.name}: {name} ({first_line!r})"
            try:
                client.execute_cell(cell, index)
            except CellExecutionError as error:
                raise AssertionError(
                    f"{where} failed with {error.ename}: {error.evalue}\n{error}"
                ) from None
            except (CellTimeoutError, DeadKernelError) as error:
                raise AssertionError(f"{where}: {type(error).__name__}: {error}") from None


def main() -> None:
    # The kernel finds the packages whether or not they are installed.
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)
    print("| notebook | seconds (full parameters) |\n|---|---:|")
    for path in NOTEBOOKS:
        start = time.perf_counter()
        execute_notebook(path, ROOT / "notebooks")
        print(f"| {path.name} | {time.perf_counter() - start:.1f} |")


if __name__ == "__main__":
    main()
