"""Run the benchmarks: ``make bench`` (all) or ``python benchmarks/run.py NAME ...``.

Each ``benchmarks/bench_<name>.py`` defines ``main() -> None`` that prints one
table. Speed is reported as ratios against a baseline measured in the same run,
never as absolute pass/fail thresholds.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None  # a file we just globbed
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(names: list[str]) -> int:
    files = sorted(HERE.glob("bench_*.py"))
    known = {f.stem.removeprefix("bench_"): f for f in files}
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"unknown benchmark(s) {unknown}; known: {sorted(known)}", file=sys.stderr)
        return 2
    for name in names or sorted(known):
        print(f"\n## {name}\n", flush=True)
        start = time.perf_counter()
        _load(known[name]).main()
        print(f"\n({name}: {time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
