"""``jurycal rank`` on pairwise verdicts at arena scale: what the command adds to the library.

Run: ``python benchmarks/run.py rank_pairwise``. A simulated arena of 12
generators (Bradley-Terry strengths, 15 % ties, unbalanced pairs), 15,000
battles, three judges each judging every battle in both orders (90,000
verdict rows) and 1,000 human votes, written as the two CSV files a user
gives. The baseline is the library's part, measured in the same run: the fit
(``PairwiseModel().fit_table`` on the frames) and the leaderboard
(:func:`regression.pairwise.board.pairwise_board`, rank sets from 20,000 draws). Beside
it: reading the two files as the command does, the command in this process
(``--json``: read, check, fit, rank, print), with ``--report`` (the card and its
figure), and the command in a fresh process (Python's start and the imports
too). Best of 3 (the fresh process: median of 3).
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from timing import best_of

from jurycal.cli import main as jurycal
from regression.pairwise import PairwiseModel

GENERATORS, BATTLES, JUDGES, VOTES = 12, 15_000, 3, 1_000
WORDS = np.array(["b", "tie", "a"])


def arena(seed: int = 28) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Three judges that copy the human verdict 70 / 60 / 50 % of the time (else guess), the
    second pulled to the answer shown first on 30 % of battles; a uniform sample voted."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 0.8, GENERATORS)
    a = rng.choice(GENERATORS, BATTLES, p=rng.dirichlet(np.full(GENERATORS, 2.0)))
    b = (a + 1 + rng.choice(GENERATORS - 1, BATTLES)) % GENERATORS
    p_a = 1 / (1 + np.exp(-(strength[a] - strength[b])))
    truth = np.where(rng.random(BATTLES) < 0.15, 0.5, (rng.random(BATTLES) < p_a).astype(float))
    names = np.array([f"model-{g:02d}" for g in range(GENERATORS)])
    rows = []
    for judge, (accuracy, pull) in enumerate([(0.7, 0.0), (0.6, 0.3), (0.5, 0.0)]):
        for position, first in (("ab", 1.0), ("ba", 0.0)):
            verdict = np.where(
                rng.random(BATTLES) < accuracy, truth, rng.choice([0.0, 0.5, 1.0], BATTLES)
            )
            verdict = np.where(rng.random(BATTLES) < pull, first, verdict)
            rows.append(
                pd.DataFrame(
                    {
                        "item": np.arange(BATTLES),
                        "generator_a": names[a],
                        "generator_b": names[b],
                        "validator": f"judge-{judge + 1}",
                        "verdict": WORDS[(2 * verdict).astype(int)],
                        "position": position,
                    }
                )
            )
    voted = np.sort(rng.choice(BATTLES, VOTES, replace=False))
    human = pd.DataFrame(
        {
            "item": voted,
            "generator_a": names[a[voted]],
            "generator_b": names[b[voted]],
            "human": WORDS[(2 * truth[voted]).astype(int)],
        }
    )
    return pd.concat(rows, ignore_index=True), human


def _quietly(argv: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        if jurycal(argv) != 0:
            raise RuntimeError(f"jurycal {' '.join(argv)} failed")


def _fresh(argv: list[str]) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jurycal", *argv], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    from jurycal.cli.reading import read_input
    from regression.pairwise.board import pairwise_board

    verdicts, human = arena()
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    with tempfile.TemporaryDirectory() as folder:
        v, h = Path(folder) / "verdicts.csv", Path(folder) / "human.csv"
        verdicts.to_csv(v, index=False)
        human.to_csv(h, index=False)
        files = [str(v), str(h)]

        def library() -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pairwise_board(PairwiseModel().fit_table(verdicts, human))

        seconds = {
            "library: fit and leaderboard (baseline)": best_of(library),
            "read the two CSV files": best_of(
                lambda: [read_input(p, "file", check_labels=False) for p in (v, h)]
            ),
            "jurycal rank --json, in process": best_of(
                lambda: _quietly(["rank", *files, "--json"])
            ),
            "jurycal rank --report, in process": best_of(
                lambda: _quietly(["rank", *files, "--report", str(Path(folder) / "card")])
            ),
            "jurycal rank, a fresh process (median)": _fresh(["rank", *files]),
        }
    base = seconds["library: fit and leaderboard (baseline)"]
    print(
        f"### {GENERATORS} generators, {BATTLES:,} battles, {JUDGES} judges in both orders "
        f"({len(verdicts):,} verdict rows), {VOTES:,} human votes (best of 3)\n"
    )
    print("| what | seconds | x library |")
    print("|---|---|---|")
    for name, value in seconds.items():
        print(f"| {name} | {value:.2f} | {value / base:.1f} |")
    print(
        "\nThe command adds to the library: reading the two files, checking the verdicts alone "
        "before the fit (so that an error in a key column names the right file), the tables and "
        "the JSON; the card adds its figure. A fresh process adds Python's start and the imports "
        "(pandas, scipy), which every command that fits pays (benchmark startup)."
    )
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
