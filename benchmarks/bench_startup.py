"""Start-up time: ``jurycal --help`` / ``--version``, a command's ``--help``, a usage error and a
missing file, and ``import regression``.

Each is run as a fresh process (the median of several runs), beside ``python -c pass``,
the interpreter's own start, measured in the same run. The CLI imports a command's
module only when that command is named, and ``regression`` loads its estimators on
first use, so neither pays for pandas, scipy or torch up front; a command registers its
options from the library's light option modules (:mod:`regression.registry`, ...) and
checks its files before its heavy imports, so
``jurycal fit --help``, a usage error and a missing file answer as fast as ``jurycal --help``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

__all__ = ["main"]

RUNS = 7

CASES = {
    "python -c pass (baseline)": "pass",
    "import regression": "import regression",
    "jurycal --help": "from jurycal.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
    "jurycal --version": "from jurycal.cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass",
    "from regression import LatentTraitModel": "from regression import LatentTraitModel",
}


def _cli(argv: list[str]) -> str:
    """Code that runs ``jurycal argv`` in process, whatever it exits with."""
    return f"from jurycal.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass"


CASES.update(
    {
        "jurycal fit --help": _cli(["fit", "--help"]),
        "jurycal suggest --budget ten (usage error)": _cli(["suggest", "j.csv", "--budget", "ten"]),
        "jurycal fit missing.csv missing.csv": _cli(["fit", "missing.csv", "missing.csv"]),
    }
)
# what a command that fits pays, last
CASES["from regression import LatentTraitModel"] = CASES.pop(
    "from regression import LatentTraitModel"
)


def _median_seconds(code: str) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    seconds = {name: _median_seconds(code) for name, code in CASES.items()}
    base = seconds["python -c pass (baseline)"]
    print(f"### Start-up, a fresh process each (median of {RUNS} runs)\n")
    print("| what | seconds | x python -c pass |")
    print("|---|---|---|")
    for name, value in seconds.items():
        print(f"| {name} | {value:.3f} | {value / base:.1f} |")
    print(
        "\nThe targets are `jurycal --help`, `--version`, a command's `--help`, a usage error and "
        "a missing file under 0.3 s, and `import regression`"
        " under 0.6 s on a laptop-class CPU; the last row is what a command that fits pays."
    )


if __name__ == "__main__":
    main()
