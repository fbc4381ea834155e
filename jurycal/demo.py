"""``jurycal demo`` / ``make demo``: the single-judge report on the bundled LMArena battles.

Until the multi-judge pipeline exists, the demo runs the single-judge side of
jurycal on real data (``jurycal.datasets.load_arena``, see
``jurycal/data/README.md``): the estimand is "claude-opus-4 wins", i.e.
theta = P(the human preferred claude-opus-4) against each of three opponents,
judged by two weak LLM judges (gpt-4o-mini, gpt-5.2).

For every opponent the battles are split, with a fixed seed, into a
calibration third (human and judge labels both used) and a test two-thirds
(judge labels only; the human labels of the test items are shown only as the
truth to compare with). The report prints, per judge, naive / Rogan-Gladen /
PPI++ side by side with TPR, TNR and J, the warnings of Fiedler sections
4.4 / 7, and the comparison of two opponents' win rates with shared vs
model-specific calibration and Delta J.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from jurycal.datasets import load_arena
from regression import CalibrationTable, ConfidenceInterval, compare_models, estimate_prevalence

__all__ = ["arena_labels", "run_demo"]

TARGET = "claude-opus-4-20250514"
CAL_FRACTION = 1 / 3  # Fiedler App. E.3: one third calibration, two thirds test


def arena_labels(frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """The arena battles as binary LaaJ data for the estimand "claude-opus-4 wins".

    Returns one row per (battle, judge): ``id``, ``judge``, ``opponent``,
    ``human`` (1 if the human preferred claude-opus-4) and ``judge_label``
    (1 if the judge picked it; NaN where the judge gave no answer).

    Examples
    --------
    >>> labels = arena_labels()
    >>> len(labels), int(labels["judge_label"].isna().sum())
    (1754, 2)
    """
    data = load_arena() if frame is None else frame
    target_is_a = data["model_a"] == TARGET
    if not (target_is_a | (data["model_b"] == TARGET)).all():
        raise ValueError(f"every battle must involve {TARGET!r}.")
    target_side = np.where(target_is_a, "A", "B")
    human = np.where(data["human_winner"] == "model_a", "A", "B") == target_side
    pick = data["judge_pick"]
    judge_label = np.where(pick.isna(), np.nan, (pick == pd.Series(target_side, index=data.index)))
    return pd.DataFrame(
        {
            "id": data["id"],
            "judge": data["judge"],
            "opponent": np.where(target_is_a, data["model_b"], data["model_a"]),
            "human": human.astype(int),
            "judge_label": judge_label.astype(float),
        }
    )


def _split(labels: pd.DataFrame, seed: int) -> pd.Series:
    """Per opponent, a seeded calibration third of the battle ids (the same battles for both judges)."""
    rng = np.random.default_rng(seed)
    is_cal = pd.Series(False, index=labels.index)
    for _, group in labels.groupby("opponent", sort=True):
        ids = np.sort(group["id"].unique())
        cal_ids = rng.choice(ids, size=round(CAL_FRACTION * ids.size), replace=False)
        is_cal[group.index] = group["id"].isin(cal_ids)
    return is_cal


def _fmt_ci(ci: ConfidenceInterval) -> str:
    return f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def run_demo(quiet: bool = False, *, seed: int = 2026, n_boot: int = 10_000) -> str:
    """Run the single-judge report on the bundled arena data and return the printed text.

    Parameters
    ----------
    quiet : bool
        Accepted for the command line's ``--quiet``; the demo has no long loops
        (every bootstrap is a few multinomial draws on count tables).
    seed : int, keyword-only
        Seed of the calibration/test split and of the bootstraps.
    n_boot : int, keyword-only
        Bootstrap replicates of the comparison.

    Returns
    -------
    str
        The report.
    """
    del quiet  # nothing to silence: the demo runs in well under a second
    labels = arena_labels()
    is_cal = _split(labels, seed)
    opponents = sorted(labels["opponent"].unique())
    short = {o: o.split("-2025")[0].replace("-a22b-no-thinking", "") for o in opponents}
    out = [
        "jurycal demo: single-judge estimation on LMArena battles (bundled data)",
        f"estimand: theta = P(human prefers {TARGET}) against each opponent",
        f"design: per opponent, a seeded {CAL_FRACTION:.0%} calibration split (human + judge "
        "labels) and a test split (judge labels only; 'truth' = the human win rate on the "
        "test items, for comparison). 95% intervals.",
    ]
    tables: dict[tuple[str, str], CalibrationTable] = {}
    tests: dict[tuple[str, str], pd.Series] = {}
    for judge in sorted(labels["judge"].unique()):
        out += ["", f"== judge {judge} =="]
        header = (
            f"  {'opponent':<18}{'truth':>6} {'naive':>19} {'Rogan-Gladen':>19} {'PPI++':>19}"
            f"  {'TPR':>5} {'TNR':>5} {'J':>6}  m1/m0"
        )
        out.append(header)
        notes: list[str] = []
        for opp in opponents:
            rows = labels[(labels["judge"] == judge) & (labels["opponent"] == opp)]
            cal, test = rows[is_cal[rows.index]], rows[~is_cal[rows.index]]
            table = CalibrationTable.from_labels(cal["human"], cal["judge_label"])
            res = estimate_prevalence(table, test["judge_label"])
            tables[judge, opp] = table
            tests[judge, opp] = test["judge_label"]
            cells = [
                f"{est.estimate:.2f} {_fmt_ci(est.ci)}"
                for est in (res.naive, res.rogan_gladen, res.ppi)
            ]
            out.append(
                f"  {short[opp]:<18}{test['human'].mean():>6.2f} {cells[0]:>19} {cells[1]:>19} "
                f"{cells[2]:>19}  {res.tpr:>5.2f} {res.tnr:>5.2f} {res.youden_j:>6.3f}  "
                f"{res.m1}/{res.m0}"
            )
            notes += [f"{short[opp]}: {w}" for w in res.warnings]
        if notes:
            out.append("  warnings:")
            out += [f"    - {w}" for w in notes]
    out += [
        "",
        "What the intervals cover: naive = test sampling only (it estimates the judge's",
        "pick rate, not theta); Rogan-Gladen (Lee et al. eqs. 8-12) and PPI++ = test and",
        "calibration sampling.",
    ]
    a, b = opponents[0], opponents[1]
    for judge in sorted(labels["judge"].unique()):
        comp = compare_models(
            tests[judge, a],
            tests[judge, b],
            tables[judge, a],
            tables[judge, b],
            paired=False,
            n_boot=n_boot,
            seed=seed,
            labels=(short[a], short[b]),
        )
        truth = (
            labels.loc[
                ~is_cal & (labels["judge"] == judge) & (labels["opponent"] == a), "human"
            ].mean()
            - labels.loc[
                ~is_cal & (labels["judge"] == judge) & (labels["opponent"] == b), "human"
            ].mean()
        )
        out += [
            "",
            f"== comparison with judge {judge} (truth on test items: {truth:+.3f}) ==",
            comp.summary(),
        ]
    return "\n".join(out)
