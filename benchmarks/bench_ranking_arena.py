"""A leaderboard at arena scale: 1,000 generators x 20 judges x 1,000 items.

Run: ``python benchmarks/run.py ranking_arena``. The stages of
``bench_ranking_scale.py`` (fit, intervals, joint error, then the leaderboard:
rank sets and all 499,500 pair intervals from one family of 20,000 draws, with
a thread per core) for one board of 1,000 generators. The
implementation before the ranking scaled would need 999,000 ordered pairs x
20,000 draws x 3 arrays of float64 (480 GB): not run. Minutes on a loaded
machine; the load average is printed.
"""

from __future__ import annotations

import os

import pandas as pd
from bench_ranking_scale import board_stages, print_stages

GENERATORS = 1000


def main() -> None:
    pd.set_option("display.width", 160)
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    print_stages(board_stages(GENERATORS, (os.cpu_count() or 1,)))
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
