"""The runnable example in docs/importers.md runs and its printed claims hold."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "importers.md"


def test_the_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    precision = namespace["precision"]
    # paris 2 of 2 valid, rome 1 of 2 (no majority), oslo 1 of 1 cast: 2 of 3 items valid.
    # exact: a share of integer counts, one rounding
    assert precision.to_frame()["estimate"].tolist() == [2 / 3]  # type: ignore[attr-defined]
