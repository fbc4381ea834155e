"""Start-up time: ``jurycal --help`` / ``--version``, a command's ``--help``, a usage error and a
missing file, ``import regression``, and whole small commands: ``jurycal judge`` on a 6-row
calibration file and ``jurycal rank`` on small judgments and pairwise files (target: 1 s).

Each is run as a fresh process (the median of several runs), beside ``python -c pass``,
the interpreter's own start, measured in the same run. The CLI imports a command's
module only when that command is named, and ``regression`` loads its estimators on
first use, so neither pays for pandas, scipy or torch up front; a command registers its
options from the library's light option modules (:mod:`regression.registry`, ...) and
checks its files before its heavy imports, so
``jurycal fit --help``, a usage error and a missing file answer as fast as ``jurycal --help``.
A command that runs imports only what it uses: numpy, pandas (to read the files) and
scipy.special (quantiles); never scipy.stats, matplotlib (only for ``--plot`` / ``--report``),
DuckDB (``count``) or torch (``--backend torch``). The heavy modules each small command
loaded are listed below the table.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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

#: Modules a small command should not need; the benchmark lists those each command loaded.
HEAVY = ("scipy.stats", "scipy.optimize", "matplotlib", "torch", "duckdb", "narwhals", "sklearn")


def small_inputs(folder: Path) -> dict[str, list[str]]:
    """Small files a user would try first, and the commands run on them."""
    (folder / "calibration.csv").write_text("human,judge\n1,1\n0,0\n1,1\n0,0\n1,0\n0,1\n")
    (folder / "test.csv").write_text("judge\n1\n0\n1\n1\n0\n1\n")
    judgments, human = ["generator,item,validator,label"], ["generator,item,human"]
    for g in ("a", "b", "c"):
        for item in range(20):
            truth = (item * 7 + len(g)) % 5 != 0
            human.append(f"{g},{item},{int(truth)}")
            for v, flips in (("v1", 3), ("v2", 4), ("v3", 6)):
                judgments.append(f"{g},{item},{v},{int(truth != (item % flips == 0))}")
    (folder / "judgments.csv").write_text("\n".join(judgments) + "\n")
    (folder / "human.csv").write_text("\n".join(human) + "\n")
    verdicts, votes = (
        ["item,generator_a,generator_b,validator,verdict"],
        ["item,generator_a,generator_b,human"],
    )
    pairs = [("a", "b"), ("a", "c"), ("b", "c")]
    for item in range(60):
        a, b = pairs[item % 3]
        verdicts.append(f"q{item},{a},{b},judge,{'a' if item % 4 else 'b'}")
        votes.append(f"q{item},{a},{b},{'a' if item % 5 else 'b'}")
    (folder / "verdicts.csv").write_text("\n".join(verdicts) + "\n")
    (folder / "votes.csv").write_text("\n".join(votes) + "\n")
    f = {
        name: str(folder / f"{name}.csv")
        for name in ("calibration", "test", "judgments", "human", "verdicts", "votes")
    }
    return {
        "jurycal judge (6 calibration rows, 6 test rows)": ["judge", f["calibration"], f["test"]],
        "jurycal rank (180 votes, 60 human labels)": ["rank", f["judgments"], f["human"]],
        "jurycal rank (60 pairwise verdicts, 60 human votes)": ["rank", f["verdicts"], f["votes"]],
    }


def _loaded(argv: list[str]) -> str:
    """Code that runs ``jurycal argv`` in process, then prints the heavy modules it loaded."""
    return (
        _cli(argv)
        + f"\nimport sys\nprint('loaded:', ','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
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
    loaded = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, argv in small_inputs(Path(folder)).items():
            seconds[name] = _median_seconds(_cli(argv))
            run = subprocess.run(
                [sys.executable, "-c", _loaded(argv)], capture_output=True, text=True
            )
            said = [line for line in run.stderr.splitlines() if line.startswith("loaded:")]
            loaded[name] = said[-1].removeprefix("loaded:").strip() if said else "(did not run)"
    base = seconds["python -c pass (baseline)"]
    print(f"### Start-up, a fresh process each (median of {RUNS} runs)\n")
    print("| what | seconds | x python -c pass |")
    print("|---|---|---|")
    for name, value in seconds.items():
        print(f"| {name} | {value:.3f} | {value / base:.1f} |")
    print(
        "\nThe targets are `jurycal --help`, `--version`, a command's `--help`, a usage error and "
        "a missing file under 0.3 s, `import regression` under 0.6 s on a laptop-class CPU, and "
        "a small `jurycal judge` or `rank` under 1 s; `from regression import LatentTraitModel` "
        "is what a command that fits pays."
    )
    print("\nHeavy modules each small command loaded (of " + ", ".join(HEAVY) + "):\n")
    for name, modules in loaded.items():
        print(f"- {name}: {modules or 'none'}")


if __name__ == "__main__":
    main()
