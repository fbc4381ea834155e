"""Graded scores: coverage and width of each generator's mean rating, beside the ratings alone and cje-eval.

Run: ``python benchmarks/run.py scores`` (or ``make bench``);
``JURYCAL_BENCH_DRAWS=N`` sets the draws per cell (default 40: cje-eval's fit
takes about 0.6 s a generator), ``JURYCAL_BENCH_QUICK=1`` runs four,
``JURYCAL_BENCH_CJE=0`` leaves cje-eval out (a long run of the others), and
``JURYCAL_BENCH_CELL="ratings spread:100"`` runs that one cell of the
simulated worlds alone, jurycal's default per generator (:func:`bench_cell`).
Two parts, on the same label draws for every method:

1. **HANNA** (bundled, ``regression.datasets.load_hanna``): 11 systems x 96
   stories, the truth the mean of the 3 raters over all 96 stories of a system.
   Each draw rates ``n`` stories per system, uniformly; the 20 LLM-judge
   configurations score every story. Methods: jurycal's default
   (``regression.ScoreModel``, every judge, prediction-powered), the ratings
   alone (Student t), and cje-eval 0.9.3's ``calibrated_mean_ci`` (its default
   inference) per system with the one judge configuration whose scores
   correlate best with the ratings on the whole criterion (an oracle's pick, in
   cje-eval's favour).
2. **Simulated worlds** (``regression.scores.simulate``): judges on different
   scales with monotone non-linear miscalibration, one judge lenient to one
   generator, ratings piled at the top of the scale, and a world whose judges
   predict nothing; 10 to 200 ratings per generator.

Coverage is reported per cell (all generators pooled) and as the lowest
generator's; ``width / cje`` only where cje-eval covers at least 93 %.
cje-eval is an optional benchmark dependency (the ``bench`` extra); without it
that column is left out.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import stats

from regression.datasets import HANNA_CRITERIA, HANNA_SCALE, load_hanna

if TYPE_CHECKING:
    from regression.scores.simulate import ScoreWorld

ALPHA = 0.05
QUICK = os.environ.get("JURYCAL_BENCH_QUICK") == "1"
DRAWS = 4 if QUICK else int(os.environ.get("JURYCAL_BENCH_DRAWS", "40"))
HANNA_N = (10, 20)
SIM_N = (10, 25, 100, 200)
TARGET = 0.93

Intervals = Callable[[pd.DataFrame, pd.DataFrame, tuple[float, float]], pd.DataFrame]


def ratings_alone(
    scores: pd.DataFrame, labelled: pd.DataFrame, scale: tuple[float, float]
) -> pd.DataFrame:
    """Student-t interval of each generator's rated outputs, clipped to the scale."""
    del scores
    grouped = labelled.groupby("generator")["human"]
    mean, sd, n = grouped.mean(), grouped.std(ddof=1).fillna(0.0), grouped.size()
    half = stats.t.ppf(1 - ALPHA / 2, np.maximum(n - 1, 1)) * sd / np.sqrt(n)
    return pd.DataFrame(
        {
            "estimate": mean,
            "low": np.maximum(mean - half, scale[0]),
            "high": np.minimum(mean + half, scale[1]),
        }
    )


def jurycal(interval: str | None = None, *, judges: bool = True) -> Intervals:
    """jurycal's ScoreModel (every judge, cross-fitted, prediction-powered); ``interval`` None: its default.

    ``judges=False``: the same interval on the ratings alone, the yardstick for what the
    judges are worth.
    """
    from regression import ScoreModel

    settings = {"judges": judges} | ({} if interval is None else {"interval": interval})
    model = ScoreModel(**settings)

    def intervals(
        scores: pd.DataFrame, labelled: pd.DataFrame, scale: tuple[float, float]
    ) -> pd.DataFrame:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = model.fit_table(scores, labelled, scale=scale)
        return result.interval(ALPHA)[["estimate", "low", "high"]]

    return intervals


def cje_one_judge(judge: str) -> Intervals:
    """cje-eval's ``calibrated_mean_ci`` per generator on one judge's scores, ratings rescaled to [0, 1]."""
    from cje import calibrated_mean_ci

    logging.getLogger("cje").setLevel(logging.CRITICAL)  # its per-fit advice would flood the table

    def intervals(
        scores: pd.DataFrame, labelled: pd.DataFrame, scale: tuple[float, float]
    ) -> pd.DataFrame:
        low_end, span = scale[0], scale[1] - scale[0]
        own = scores[scores["validator"] == judge]
        rows = {}
        for generator, block in own.groupby("generator"):
            rated = labelled[labelled["generator"] == generator].set_index("item")["human"]
            oracle = block["item"].map(rated).to_numpy(dtype=float)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fit = calibrated_mean_ci(
                    block["score"].to_numpy(dtype=float), (oracle - low_end) / span
                )
            rows[generator] = (
                low_end + span * fit.estimate,
                low_end + span * fit.ci[0],
                low_end + span * fit.ci[1],
            )
        return pd.DataFrame.from_dict(rows, orient="index", columns=["estimate", "low", "high"])

    return intervals


def _cje_available() -> bool:
    if os.environ.get("JURYCAL_BENCH_CJE") == "0":
        return False  # asked to leave it out (its fits take most of a long run)
    try:
        import cje  # noqa: F401
    except ImportError:
        return False
    return True


def best_judge(scores: pd.DataFrame, human: pd.DataFrame) -> str:
    """The judge configuration whose scores correlate best with the ratings over every output."""
    joined = scores.merge(human, on=["generator", "item"])
    return str(
        joined.groupby("validator")[["score", "human"]]
        .corr()
        .xs("score", level=1)["human"]
        .idxmax()
    )


def draw_labels(human: pd.DataFrame, n: int, rng: np.random.Generator) -> pd.DataFrame:
    """``n`` rated outputs per generator, drawn uniformly without replacement."""
    keys = rng.random(len(human))
    rank = human.assign(key=keys).groupby("generator")["key"].rank(method="first")
    return human[rank.to_numpy() <= n].reset_index(drop=True)


def study(
    scores: pd.DataFrame,
    human: pd.DataFrame,
    truth: pd.Series,
    n: int,
    methods: dict[str, Intervals],
    scale: tuple[float, float],
    seed: int,
) -> pd.DataFrame:
    """One row per (method, generator): coverage, mean width and seconds per fit over ``DRAWS`` draws."""
    rng = np.random.default_rng(seed)
    records = []
    for draw in range(DRAWS):
        labelled = draw_labels(human, n, rng)
        for name, intervals in methods.items():
            start = time.perf_counter()
            found = intervals(scores, labelled, scale).reindex(truth.index)
            seconds = time.perf_counter() - start
            covered = (found["low"] <= truth) & (truth <= found["high"])
            records.append(
                pd.DataFrame(
                    {
                        "method": name,
                        "generator": truth.index,
                        "draw": draw,
                        "covered": covered.to_numpy(),
                        "width": (found["high"] - found["low"]).to_numpy(),
                        "seconds": seconds,
                    }
                )
            )
    return pd.concat(records, ignore_index=True)


def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    """Coverage over all generators, the lowest generator's coverage, mean width, seconds per fit."""
    per_generator = runs.groupby(["method", "generator"])["covered"].mean()
    return pd.DataFrame(
        {
            "coverage": runs.groupby("method")["covered"].mean(),
            "lowest generator": per_generator.groupby("method").min(),
            "mean width": runs.groupby("method")["width"].mean(),
            "s per fit": runs.groupby("method")["seconds"].mean(),
        }
    )


def bench_hanna() -> None:
    print("### HANNA: each system's mean rating, n rated stories per system")
    print()
    print(
        f"{DRAWS} draws per cell, 11 systems; coverage Monte Carlo SE about "
        f"{100 * np.sqrt(0.95 * 0.05 / (DRAWS * 11)):.1f} points per cell, "
        f"{100 * np.sqrt(0.95 * 0.05 / DRAWS):.1f} per system."
    )
    print()
    with_cje = _cje_available()
    lines = [
        "| criterion | n | jurycal coverage (lowest system) | ratings alone | cje-eval | "
        "jurycal width | without judges | ratings alone width | cje-eval width | jurycal / cje-eval |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for criterion in HANNA_CRITERIA:
        scores, human = load_hanna(criterion)
        truth = human.groupby("generator")["human"].mean()
        methods: dict[str, Intervals] = {
            "jurycal": jurycal(),
            "jurycal without judges": jurycal(judges=False),
            "ratings alone": ratings_alone,
        }
        if with_cje:
            methods["cje-eval"] = cje_one_judge(best_judge(scores, human))
        for n in HANNA_N:
            table = summarise(study(scores, human, truth, n, methods, HANNA_SCALE, seed=n))
            cells = [criterion, str(n)]
            for name in ("jurycal", "ratings alone", "cje-eval"):
                if name in table.index:
                    row = table.loc[name]
                    cells.append(f"{row['coverage']:.3f} ({row['lowest generator']:.2f})")
                else:
                    cells.append("-")
            for name in ("jurycal", "jurycal without judges", "ratings alone", "cje-eval"):
                cells.append(f"{table.loc[name, 'mean width']:.3f}" if name in table.index else "-")
            if "cje-eval" in table.index and table.loc["cje-eval", "coverage"] >= TARGET:
                cells.append(
                    f"{table.loc['jurycal', 'mean width'] / table.loc['cje-eval', 'mean width']:.2f}"
                )
            else:
                cells.append("- (cje-eval < 93 %)" if "cje-eval" in table.index else "-")
            lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))
    print()


#: Simulated worlds: (name, score_world keywords, the judges kept).
SIM_WORLDS = (
    ("ratings spread", {"pile": 0.3}, None),
    ("ratings piled at the top", {"pile": 0.9}, None),
    ("judges that predict nothing", {"pile": 0.6}, ("noise",)),
)
SIM_GENERATORS, SIM_ITEMS = 5, 400


def simulated_world(
    keywords: dict[str, float], kept: tuple[str, ...] | None
) -> tuple[ScoreWorld, pd.DataFrame, pd.DataFrame, pd.Series]:
    """One of :data:`SIM_WORLDS`: the world, the scores of the judges ``kept`` (all: None), every
    output's rating and each generator's true mean rating."""
    from regression.scores.simulate import score_world

    world = score_world(SIM_GENERATORS, SIM_ITEMS, 10, seed=7, **keywords)
    scores = world.scores if kept is None else world.scores[world.scores["validator"].isin(kept)]
    human = world.all_ratings
    return world, scores, human, world.truth.reindex(human["generator"].unique())


def bench_simulated() -> None:
    print("### Simulated worlds: each generator's mean rating, n ratings per generator")
    print()
    print(
        f"{SIM_GENERATORS} generators x {SIM_ITEMS} outputs rated 1-5; judges: a 1-10 grade, a 0-1 rubric "
        "lenient to the first generator, a reward model's logit and a judge of pure noise "
        "(`regression.scores.simulate`); one world per row, "
        f"{DRAWS} uniform draws of the ratings per cell, every method on the same draws."
    )
    print()
    with_cje = _cje_available()
    names = ["jurycal", "jurycal without judges", "betting", "ratings alone"]
    names += ["cje-eval"] if with_cje else []
    lines = [
        "| world | n | "
        + " | ".join(f"{m} coverage (lowest)" for m in names)
        + " | "
        + " | ".join(f"{m} width" for m in names)
        + " |",
        "|---|---|" + "---|" * (2 * len(names)),
    ]
    for title, keywords, kept in SIM_WORLDS:
        world, scores, human, truth = simulated_world(keywords, kept)
        methods: dict[str, Intervals] = {
            "jurycal": jurycal(),
            "jurycal without judges": jurycal(judges=False),
            "betting": jurycal("betting"),
            "ratings alone": ratings_alone,
        }
        if with_cje:
            methods["cje-eval"] = cje_one_judge(best_judge(scores, human))
        for n in SIM_N:
            table = summarise(study(scores, human, truth, n, methods, world.scale, seed=n))
            cells = [title, str(n)]
            cells += [
                f"{table.loc[m, 'coverage']:.3f} ({table.loc[m, 'lowest generator']:.2f})"
                for m in names
            ]
            cells += [f"{table.loc[m, 'mean width']:.3f}" for m in names]
            lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))
    print()


def bench_cell(cell: str) -> None:
    """One cell of the simulated worlds, ``"<world>:<n>"``: jurycal's default coverage per generator."""
    title, n = cell.rsplit(":", 1)
    found = {name: (keywords, kept) for name, keywords, kept in SIM_WORLDS}
    if title not in found:
        raise SystemExit(f"no simulated world {title!r}; one of {sorted(found)}")
    world, scores, human, truth = simulated_world(*found[title])
    runs = study(scores, human, truth, int(n), {"jurycal": jurycal()}, world.scale, seed=int(n))
    table = runs.groupby("generator").agg(coverage=("covered", "mean"), width=("width", "mean"))
    print(f"### {title}, {n} ratings per generator: jurycal's default per generator, {DRAWS} draws")
    print()
    print(table.round(3).to_string())


def main() -> None:
    cell = os.environ.get("JURYCAL_BENCH_CELL")
    if cell:
        bench_cell(cell)
        return
    bench_simulated()
    bench_hanna()


if __name__ == "__main__":
    main()
