"""Ensemble voting speed: 10^6 items x 14 validators, vectorised ``vote`` against a per-item loop.

Run: ``python benchmarks/run.py ensemble`` (or ``make bench``). The baseline is
a plain Python loop over items (count the valid votes of each row, compare with
the threshold), run in the same process on the same votes; its input is
converted to lists before the clock starts, so the ratio is kind to it. A loop
over the rows of the numpy array (what naive array code does) is shown too.
"""

from __future__ import annotations

import warnings

import numpy as np
from timing import best_of

from ensemble import NoVoteWarning, simulate_votes, sweep_thresholds, vote

N_ITEMS = 1_000_000
N_VALIDATORS = 14
MISSING = 0.03


def _loop_majority(rows: list[list[float]], k: int) -> list[float]:
    out = []
    for row in rows:
        n_valid = 0
        for v in row:
            if v == 1.0:
                n_valid += 1
        out.append(1.0 if n_valid >= k else 0.0)
    return out


def _loop_numpy_rows(votes: np.ndarray, k: int) -> np.ndarray:
    out = np.empty(votes.shape[0])
    for i, row in enumerate(votes):
        out[i] = 1.0 if np.count_nonzero(row == 1.0) >= k else 0.0
    return out


def main() -> None:
    rng = np.random.default_rng(0)
    votes = (rng.random((N_ITEMS, N_VALIDATORS)) < 0.9).astype(float)
    votes[rng.random(votes.shape) < MISSING] = np.nan
    rows = votes.tolist()

    loop_s = best_of(lambda: _loop_majority(rows, 8), 3)
    numpy_loop_s = best_of(lambda: _loop_numpy_rows(votes, 8), 1)
    fast = vote(votes, "majority", 8)
    if not np.array_equal(fast[:100_000], _loop_majority(rows[:100_000], 8)):
        raise AssertionError("vectorised and loop labels differ")

    print(f"{N_ITEMS:,} items x {N_VALIDATORS} validators, {MISSING:.0%} of votes missing\n")
    print(f"| {'method':<46} | {'seconds':>8} | {'speed-up vs loop':>16} |")
    print(f"|{'-' * 48}|{'-' * 10}|{'-' * 18}|")
    print(f"| {'per-item Python loop, majority k = 8':<46} | {loop_s:8.3f} | {1.0:16.1f} |")
    name = "per-item loop over numpy rows, majority k = 8"
    print(f"| {name:<46} | {numpy_loop_s:8.3f} | {loop_s / numpy_loop_s:16.2f} |")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        for rule, k, missing in [
            ("majority", 8, None),
            ("supermajority", None, None),
            ("minority_veto", 4, None),
            ("majority", 8, "ignore"),
            ("minority_veto", 4, "ignore"),
        ]:
            seconds = best_of(lambda r=rule, t=k, m=missing: vote(votes, r, t, m), 3)
            name = f"vote {rule}" + (f" k = {k}" if k else " (default)") + f", missing={missing}"
            print(f"| {name:<46} | {seconds:8.3f} | {loop_s / seconds:16.1f} |")

    sim = simulate_votes(
        np.full(10, 0.9),
        np.full(N_VALIDATORS, 0.95),
        np.full(N_VALIDATORS, 0.3),
        10_000,
        missing_rate=MISSING,
        seed=1,
    )
    table = sim.judgments()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        pivot_s = best_of(lambda: vote(table, "majority"), 3)
    sweep_s = best_of(lambda: sweep_thresholds(sim.votes, sim.human), 3)
    print(
        f"\njudgments table of {len(table):,} rows (100,000 items): pivot + vote {pivot_s:.3f} s; "
        f"sweep of 2 rules x {N_VALIDATORS} thresholds on the matrix {sweep_s:.3f} s"
    )


if __name__ == "__main__":
    main()
