"""Single-judge speed: vectorised Rogan-Gladen intervals, count bootstraps, Lee Fig. 5(b) coverage.

Run: ``python benchmarks/run.py single_judge`` (or ``make bench``). Every speed
claim is a ratio against a baseline timed in the same run. Per-row Python
loops that would take minutes are timed on a slice and scaled linearly (the
table says so).
"""

from __future__ import annotations

import time
from math import sqrt
from statistics import NormalDist

import numpy as np
from timing import best_of

from regression.single_judge import count_bootstrap, coverage_study, rg_estimate, rg_interval

ROWS = 1_000_000
LOOP_ROWS = 20_000
N_BOOT = 10_000


def _lee_fig8(p: float, q0: float, q1: float, n: int, m0: int, m1: int, alpha: float = 0.05):
    """Lee et al. App. C, Fig. 8: the authors' per-setting reference code (norm.ppf via NormalDist)."""

    def clip(x: float) -> float:
        return max(0.0, min(1.0, x))

    z = NormalDist().inv_cdf(1 - alpha / 2)
    p, q0, q1 = (n * p + z**2 / 2) / (n + z**2), (m0 * q0 + 1) / (m0 + 2), (m1 * q1 + 1) / (m1 + 2)
    n2, m0_, m1_ = n + z**2, m0 + 2, m1 + 2
    th = (p + q0 - 1) / (q0 + q1 - 1)
    dth = 2 * z**2 * (-(1 - th) * q0 * (1 - q0) / m0_ + th * q1 * (1 - q1) / m1_)
    se = sqrt(p * (1 - p) / n2 + (1 - th) ** 2 * q0 * (1 - q0) / m0_ + th**2 * q1 * (1 - q1) / m1_)
    se /= q0 + q1 - 1
    return clip(th + dth - z * se), clip(th + dth + z * se)


def bench_rg_interval() -> None:
    rng = np.random.default_rng(0)
    p = rng.uniform(0.2, 0.8, ROWS)
    q1 = rng.uniform(0.75, 0.95, ROWS)
    q0 = rng.uniform(0.6, 0.9, ROWS)
    n = rng.integers(100, 5000, ROWS)
    m1 = rng.integers(20, 300, ROWS)
    m0 = rng.integers(20, 300, ROWS)
    t_vec = best_of(lambda: rg_interval(p, q1, q0, n, m1, m0))
    rows = range(LOOP_ROWS)
    t_loop = best_of(
        lambda: [rg_interval(p[i], q1[i], q0[i], n[i], m1[i], m0[i]) for i in rows], repeat=1
    ) * (ROWS / LOOP_ROWS)
    args = [
        (float(p[i]), float(q0[i]), float(q1[i]), int(n[i]), int(m0[i]), int(m1[i])) for i in rows
    ]
    t_ref = best_of(lambda: [_lee_fig8(*a) for a in args], repeat=1) * (ROWS / LOOP_ROWS)
    low, high = rg_interval(
        p[:LOOP_ROWS], q1[:LOOP_ROWS], q0[:LOOP_ROWS], n[:LOOP_ROWS], m1[:LOOP_ROWS], m0[:LOOP_ROWS]
    )
    ref = np.array([_lee_fig8(*a) for a in args])
    agree = float(np.max(np.abs(np.c_[low, high] - ref)))
    print(f"### rg_interval, {ROWS:,} settings (Lee et al. eqs. 8-12)\n")
    print("| method | time (s) | ratio to vectorised |")
    print("|---|---:|---:|")
    print(f"| vectorised `rg_interval` (one call) | {t_vec:.3f} | 1.0 |")
    print(
        f"| per-row loop of scalar `rg_interval` (timed on {LOOP_ROWS:,} rows, scaled) | {t_loop:.1f} | {t_loop / t_vec:,.0f} |"
    )
    print(
        f"| per-row loop of Lee et al.'s Fig. 8 reference code (timed on {LOOP_ROWS:,}, scaled) | {t_ref:.1f} | {t_ref / t_vec:,.0f} |"
    )
    print(f"\nmax |difference| to the reference code on {LOOP_ROWS:,} rows: {agree:.1e}\n")


def _rg_stat(test: np.ndarray, cal: np.ndarray) -> np.ndarray:
    """RG estimate per replicate from test (valid, invalid) and calibration (tp, fn, fp, tn) counts."""
    p = test[:, 0] / test.sum(axis=1)
    tpr = cal[:, 0] / (cal[:, 0] + cal[:, 1])
    tnr = cal[:, 3] / (cal[:, 2] + cal[:, 3])
    return rg_estimate(p, tpr, tnr)


def _row_bootstrap(
    z_test: np.ndarray, human: np.ndarray, judge: np.ndarray, n_boot: int
) -> np.ndarray:
    """The per-row baseline: resample item indices with replacement, recompute from rows."""
    rng = np.random.default_rng(1)
    out = np.empty(n_boot)
    n, m = z_test.size, human.size
    for b in range(n_boot):
        t = z_test[rng.integers(0, n, n)]
        i = rng.integers(0, m, m)
        h, j = human[i], judge[i]
        tpr = (j[h == 1] == 1).mean()
        tnr = (j[h == 0] == 0).mean()
        out[b] = rg_estimate(t.mean(), tpr, tnr)
    return out


def bench_bootstrap() -> None:
    print(
        f"### bootstrap of the Rogan-Gladen estimate, {N_BOOT:,} replicates, calibration m = 200\n"
    )
    print(
        "| test size n | count-based (s) | per-row loop (s) | ratio | bootstrap SE (counts / rows) |"
    )
    print("|---:|---:|---:|---:|---:|")
    rng = np.random.default_rng(2)
    human = np.r_[np.ones(100), np.zeros(100)].astype(int)
    judge = np.where(human == 1, rng.random(200) < 0.9, rng.random(200) < 0.3).astype(int)
    cal = np.array(
        [
            np.sum((human == 1) & (judge == 1)),
            np.sum((human == 1) & (judge == 0)),
            np.sum((human == 0) & (judge == 1)),
            np.sum((human == 0) & (judge == 0)),
        ]
    )
    for n, loop_boot in ((1_000, N_BOOT), (100_000, 500), (10_000_000, 20)):
        k = int(0.6 * n)
        t_counts = best_of(
            lambda k=k, n=n: count_bootstrap(_rg_stat, [[k, n - k], cal], n_boot=N_BOOT, seed=0)
        )
        se_counts = count_bootstrap(_rg_stat, [[k, n - k], cal], n_boot=N_BOOT, seed=0).se
        z_test = np.r_[np.ones(k), np.zeros(n - k)].astype(int)
        start = time.perf_counter()
        reps = _row_bootstrap(z_test, human, judge, loop_boot)
        t_rows = (time.perf_counter() - start) * (N_BOOT / loop_boot)
        scaled = "" if loop_boot == N_BOOT else f" ({loop_boot} replicates, scaled)"
        print(
            f"| {n:,} | {t_counts:.4f} | {t_rows:.1f}{scaled} | {t_rows / t_counts:,.0f} | "
            f"{se_counts:.4f} / {reps.std(ddof=1):.4f} |"
        )
    print()


def bench_coverage() -> None:
    start = time.perf_counter()
    equal = coverage_study(n_rep=10_000, seed=2026)
    t_equal = time.perf_counter() - start
    start = time.perf_counter()
    adaptive = coverage_study(n_rep=10_000, seed=2026, allocation="adaptive")
    t_adaptive = time.perf_counter() - start
    print(
        "### Lee et al. Fig. 5(b)/(c): (q0, q1) = (0.7, 0.9), n = 1000, m = 200, 21 theta x 10,000 replications\n"
    )
    print(f"full study: {t_equal:.2f} s (equal allocation), {t_adaptive:.2f} s (Algorithm 1)\n")
    print(
        "| theta | coverage (m0 = m1) | MC SE | mean length (m0 = m1) | coverage (Alg. 1) | mean length (Alg. 1) | naive coverage |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for i in range(len(equal)):
        e, a = equal.iloc[i], adaptive.iloc[i]
        print(
            f"| {e.theta:.2f} | {e.coverage:.4f} | {e.coverage_mcse:.4f} | {e.mean_length:.4f} | "
            f"{a.coverage:.4f} | {a.mean_length:.4f} | {e.naive_coverage:.4f} |"
        )
    print(
        f"\ncoverage range (m0 = m1): {equal.coverage.min():.4f} - {equal.coverage.max():.4f}; "
        f"mean length Alg. 1 / equal: {adaptive.mean_length.mean() / equal.mean_length.mean():.3f}\n"
    )


def main() -> None:
    bench_rg_interval()
    bench_bootstrap()
    bench_coverage()


if __name__ == "__main__":
    main()
