"""One judge: vectorised Rogan-Gladen intervals, count bootstraps, Lee Fig. 5(b), truescore beside.

Run: ``python benchmarks/run.py single_judge`` (or ``make bench``); one part alone:
``python benchmarks/bench_single_judge.py truescore``. Every speed claim is a
ratio against a baseline timed in the same run. Per-row Python loops that
would take minutes are timed on a slice and scaled linearly (the table says
so). The comparison with truescore (an optional benchmark dependency, the
``bench`` extra; the library never imports it) runs jurycal's default, its
normal PPI++ interval, Rogan-Gladen and truescore's ``ppi_estimate`` on the
same label draws of the bundled real data and of simulated worlds.
"""

from __future__ import annotations

import time
from math import sqrt
from statistics import NormalDist

import numpy as np
from timing import best_of

from regression import estimate_prevalence
from regression.intervals import normal_bounds
from regression.single_judge import count_bootstrap, coverage_study, rg_estimate, rg_interval
from regression.single_judge.ppi import ppi_binary_bounded, ppi_binary_from_counts

#: The item-level table's columns that are not a validator's vote.
_ITEM_VOTE_META = ("generator", "task", "item", "line_number", "feedback", "human")

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


# --- jurycal's default beside truescore (issue 37 item 5) -------------------------------------

#: Labelled items per draw, drawn uniformly from a world's items.
LABEL_SIZES = (25, 50, 100, 200)
#: Uniform label draws per (model, judge) pair of the real data and label size.
PAIR_DRAWS = 50
#: At least this many draws per source and label size: a source of few pairs (the arena's
#: six) gets more draws per pair, so that its coverage has a standard error of 0.005 at 0.95.
SOURCE_DRAWS = 2_000
#: Uniform label draws per simulated world and label size.
WORLD_DRAWS = 400
#: The methods of the table, in its column order.
METHODS = ("jurycal default", "jurycal normal ppi++", "rogan-gladen", "truescore")


def _real_worlds() -> dict[str, list[tuple[str, np.ndarray, np.ndarray]]]:
    """The bundled real data as (name, human, judge) per (model, judge) pair, by source."""
    from jurycal.demo import arena_labels
    from regression.datasets import load_item_votes

    votes = load_item_votes()
    validators = [c for c in votes.columns if c not in _ITEM_VOTE_META]
    agreeableness = []
    for generator, rows in votes.groupby("generator", sort=True):
        for validator in validators:
            judged = rows[rows[validator].notna()]
            agreeableness.append(
                (
                    f"{generator} / {validator}",
                    judged["human"].to_numpy(dtype=float),
                    judged[validator].to_numpy(dtype=float),
                )
            )
    arena = []
    labels = arena_labels().dropna(subset=["judge_label"])
    for (judge, opponent), rows in labels.groupby(["judge", "opponent"], sort=True):
        arena.append(
            (
                f"{opponent} / {judge}",
                rows["human"].to_numpy(dtype=float),
                rows["judge_label"].to_numpy(dtype=float),
            )
        )
    return {"agreeableness (84 pairs)": agreeableness, "arena (6 pairs)": arena}


def _simulated_worlds(seed: int = 37) -> dict[str, list[tuple[str, np.ndarray, np.ndarray]]]:
    """Finite worlds of 2,000 items: prevalence near 0 and near 1, and a judge's blind spot.

    ``blind spot``: 80 % valid; the judge is right on 97 % of the other items, but 4 % of
    the items are invalid ones of one kind that it calls valid every time (wrong together,
    not at random), so a draw of 25 labels misses all of them a third of the time.
    """
    rng = np.random.default_rng(seed)
    n_items = 2_000

    def diffuse(theta: float, tpr: float, tnr: float) -> tuple[np.ndarray, np.ndarray]:
        human = (rng.random(n_items) < theta).astype(float)
        right = rng.random(n_items) < np.where(human == 1, tpr, tnr)
        return human, np.where(right, human, 1 - human)

    worlds = {
        "prevalence 0.02 (TPR 0.90, TNR 0.95)": diffuse(0.02, 0.90, 0.95),
        "prevalence 0.98 (TPR 0.98, TNR 0.80)": diffuse(0.98, 0.98, 0.80),
    }
    kind = np.arange(n_items) < 0.04 * n_items  # the blind spot: invalid, judged valid
    human = np.where(kind, 0.0, (rng.random(n_items) < 0.8 / 0.96).astype(float))
    right = rng.random(n_items) < 0.97
    judge = np.where(kind, 1.0, np.where(right, human, 1 - human))
    worlds["blind spot (4 % invalid, judged valid together)"] = (human, judge)
    return {name: [(name, h, j)] for name, (h, j) in worlds.items()}


def _one_draw(human: np.ndarray, judge: np.ndarray, drawn: np.ndarray) -> dict[str, tuple]:
    """Each method's (covered, width) on one draw; the truth is all items' human valid rate.

    jurycal's default is given every item's judge label as its test set with
    ``calibration_in_test=True`` (the labelled items are a random part of
    them); its normal interval, Rogan-Gladen and truescore see the unlabelled
    rest as the test set, as their independent-samples formulas ask.
    """
    from truescore import ppi_estimate

    rest = np.ones(human.size, dtype=bool)
    rest[drawn] = False
    truth = human.mean()
    y, f = human[drawn], judge[drawn]
    tp, fn = int(np.sum((y == 1) & (f == 1))), int(np.sum((y == 1) & (f == 0)))
    fp, tn = int(np.sum((y == 0) & (f == 1))), int(np.sum((y == 0) & (f == 0)))
    _, bounded = ppi_binary_bounded(
        tp, fn, fp, tn, int(judge.sum()), human.size, calibration_in_test=True
    )
    k, n_test = int(judge[rest].sum()), int(rest.sum())
    est, se, _ = (float(v) for v in ppi_binary_from_counts(tp, fn, fp, tn, k, n_test))
    normal = normal_bounds(est, se)
    if min(tp + fn, fp + tn) == 0:  # Rogan-Gladen refuses; beside the others it shows [0, 1]
        rg = (0.0, 1.0)
    else:
        rg = rg_interval(k / n_test, tp / (tp + fn), tn / (fp + tn), n_test, tp + fn, fp + tn)
    ts = ppi_estimate(judge, y, drawn)
    out = {}
    for name, (low, high) in zip(METHODS, (bounded, normal, rg, (ts.low, ts.high)), strict=True):
        out[name] = (float(low) <= truth <= float(high), float(high) - float(low))
    return out


def _check_against_the_front_door(human: np.ndarray, judge: np.ndarray, drawn: np.ndarray) -> None:
    """The study calls the pieces ``estimate_prevalence`` calls: check one draw gives its figures."""
    found = estimate_prevalence(
        (human[drawn], judge[drawn]), judge, calibration_in_test=True
    ).bounds()
    width = _one_draw(human, judge, drawn)[METHODS[0]][1]
    if abs(float(found.high - found.low) - width) > 1e-12:  # the same calls in the same order
        raise AssertionError(
            f"the study's default width {width} is not estimate_prevalence's {found}"
        )


def _study(
    worlds: dict[str, list[tuple[str, np.ndarray, np.ndarray]]], draws: int, seed: int
) -> list[dict]:
    rows = []
    for source, pairs in worlds.items():
        source_draws = max(draws, -(-SOURCE_DRAWS // len(pairs))) if len(pairs) > 1 else draws
        for n in LABEL_SIZES:
            covered = {m: [] for m in METHODS}
            width = {m: [] for m in METHODS}
            pair_cover = {m: [] for m in METHODS}
            for index, (_, human, judge) in enumerate(pairs):
                rng = np.random.default_rng([seed, n, index])
                hits = {m: 0 for m in METHODS}
                for draw in range(source_draws):
                    drawn = np.sort(rng.choice(human.size, n, replace=False))
                    if draw == 0:
                        _check_against_the_front_door(human, judge, drawn)
                    for m, (hit, w) in _one_draw(human, judge, drawn).items():
                        covered[m].append(hit)
                        width[m].append(w)
                        hits[m] += hit
                for m in METHODS:
                    pair_cover[m].append(hits[m] / source_draws)
            row = {"world": source, "n": n, "draws": len(covered[METHODS[0]])}
            for m in METHODS:
                row[m] = (np.mean(covered[m]), np.mean(width[m]), min(pair_cover[m]))
            rows.append(row)
    return rows


def bench_truescore() -> None:
    start = time.perf_counter()
    rows = _study(_real_worlds(), PAIR_DRAWS, seed=2026)
    rows += _study(_simulated_worlds(), WORLD_DRAWS, seed=2027)
    seconds = time.perf_counter() - start
    print(
        "### One judge beside truescore 0.7.4: coverage and mean width on the same draws\n\n"
        f"Uniform draws of n labels from each world's items ({PAIR_DRAWS} per (model, judge) "
        f"pair of the bundled data and n, at least {SOURCE_DRAWS:,} per source and n; "
        f"{WORLD_DRAWS} per simulated world and n); the truth "
        "is the human valid rate of all the world's items (truescore's target: the mean over "
        "the items its judge labels cover). jurycal default: `estimate_prevalence(cal, every "
        "item's judge label, calibration_in_test=True)`, PPI++ with the engine's floored "
        "interval; normal: `interval_method='normal'`, with the unlabelled items as test set "
        "(as Rogan-Gladen); Rogan-Gladen: Lee et al.'s interval ([0, 1] where a draw holds no "
        "item of a human class); truescore: `ppi_estimate` (normal PPI++, widened to Wilson's "
        "interval when a class has fewer than 5 labels). Each cell: coverage / mean width "
        "(the lowest coverage of one pair). Ratios of mean widths: the default over truescore, "
        "and over jurycal's normal interval; target: the default at most 1.10x truescore's "
        f"width with coverage >= 0.95. {seconds:.0f} s in all.\n"
    )
    header = " | ".join(METHODS)
    print(f"| world | n | draws | {header} | default / truescore | default / normal | target |")
    print("|---|---:|---:|" + "---|" * len(METHODS) + "---:|---:|---|")
    for row in rows:
        cells = " | ".join(
            f"{cov:.3f} / {width:.3f} ({low:.2f})" for cov, width, low in (row[m] for m in METHODS)
        )
        coverage, width, _ = row[METHODS[0]]
        ratio = width / row["truescore"][1]
        met = "met" if coverage >= 0.95 and ratio <= 1.10 else "missed"
        print(
            f"| {row['world']} | {row['n']} | {row['draws']:,} | {cells} | {ratio:.2f} | "
            f"{width / row[METHODS[1]][1]:.2f} | {met} |"
        )
    print()


def main() -> None:
    bench_rg_interval()
    bench_bootstrap()
    bench_coverage()
    bench_truescore()


if __name__ == "__main__":
    import sys

    parts = {
        "rg_interval": bench_rg_interval,
        "bootstrap": bench_bootstrap,
        "coverage": bench_coverage,
        "truescore": bench_truescore,
    }
    for part in sys.argv[1:] or parts:
        parts[part]()
