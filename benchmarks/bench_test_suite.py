"""The unit suite's own time: what ``make test`` runs, timed (a benchmark, never a timed test).

Run: ``python benchmarks/run.py test_suite``. Runs ``python -m pytest`` in a fresh process from
the repository root with one BLAS / OpenMP thread and the Makefile's ``PYTEST_PROCESSES`` (one
process per core, four at most), as ``make test`` does, and prints its wall
time, the CPU time of the run and its subprocesses (the CLI's, the notebooks' kernels), the sum
of the tests' durations (setup, call and teardown, each over 5 ms), and the ten slowest. The
target is ``make test`` within 3 minutes on 2 cores from a warm environment; on a machine that
other work loads, the CPU time and the sum of durations say more than the wall time.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The Makefile's line that says how ``make test`` spreads the suite over processes.
_PROCESSES = re.compile(r"^PYTEST_PROCESSES\s*:=\s*(?P<arguments>.*)$", re.MULTILINE)
#: pytest's ``--durations`` line: ``1.23s call     tests/x.py::test_y``
_DURATION = re.compile(r"^(?P<seconds>\d+\.\d+)s (?P<phase>setup|call|teardown)\s+(?P<test>\S.*)$")
#: pytest's closing line: ``1 failed, 1234 passed, 2 warnings in 150.00s (0:02:30)`` (with
#: ``===`` around it unless ``-q``)
_OUTCOME = re.compile(r"^=* ?(?P<outcome>\d+ (passed|failed|error).*?) in [\d.]+s")


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make_test_processes() -> list[str]:
    """The pytest arguments ``make test`` spreads the suite with (the Makefile's ``PYTEST_PROCESSES``)."""
    found = _PROCESSES.search((ROOT / "Makefile").read_text(encoding="utf-8"))
    return found["arguments"].split() if found else []


def run_suite(*arguments: str) -> tuple[float, float, str, int]:
    """Run the unit suite as ``make test`` does (one thread a process), plus ``arguments``.

    Returns
    -------
    tuple
        Wall seconds, CPU seconds (the run and its subprocesses), pytest's output and its exit
        status.
    """
    environment = dict(os.environ)
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        environment[variable] = "1"
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
    )
    cpu, start = _cpu_seconds(), time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            *make_test_processes(),
            *arguments,
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - start, _cpu_seconds() - cpu, done.stdout, done.returncode


def durations(output: str) -> list[tuple[float, str, str]]:
    """``(seconds, phase, test)`` of every ``--durations`` line of pytest's output."""
    found = []
    for line in output.splitlines():
        match = _DURATION.match(line.strip())
        if match:
            found.append((float(match["seconds"]), match["phase"], match["test"]))
    return found


def main() -> None:
    wall, cpu, output, status = run_suite("--durations=0")
    outcome = [m["outcome"] for line in output.splitlines() if (m := _OUTCOME.match(line))]
    times = durations(output)
    per_test: dict[str, float] = {}
    for seconds, _, test in times:
        per_test[test] = per_test.get(test, 0.0) + seconds
    print(
        f"`python -m pytest {' '.join(make_test_processes())} --durations=0` with "
        "OPENBLAS_NUM_THREADS=OMP_NUM_THREADS=1 (as `make test`), from a warm environment; "
        "the durations are summed over the processes\n"
    )
    print("| measure | value |\n|---|---:|")
    print(f"| outcome | {outcome[-1] if outcome else f'pytest exited with {status}'} |")
    print(f"| wall seconds | {wall:.0f} |")
    print(f"| CPU seconds (the run and its subprocesses) | {cpu:.0f} |")
    print(f"| sum of the tests' durations, seconds | {sum(per_test.values()):.0f} |")
    print("\n### The ten slowest tests (setup + call + teardown)\n")
    print("| seconds | test |\n|---:|---|")
    for test, seconds in sorted(per_test.items(), key=lambda item: -item[1])[:10]:
        print(f"| {seconds:.2f} | `{test}` |")
    failed = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
    if failed:  # the times stand; make test is what says the suite must pass
        print("\n" + "\n".join(f"- `{line}`" for line in failed))


if __name__ == "__main__":
    main()
