"""Partial labels: coverage and width over repeated label draws, uniform and active, and speed.

Run: ``python benchmarks/run.py labels``. Every fully labelled generator is
taken in turn as the new one (its labels hidden); ``n`` of its items are drawn
200 times, uniformly or by the active rule of ``suggest_labels``, and the
partial-label interval (:mod:`regression.labels`) is checked against its
full-label precision, beside the Wilson interval of ``n`` uniform labels alone.
Two data sets: the bundled agreeableness votes (weak judges, J ~ 0.2) and a
simulated world of strong judges (J ~ 0.8, ``simulate_item_votes``), each with
the labels-and-votes interval (the default, ``interval_method="floored"``; the
normal interval beside it on worlds built to break it: ``bench_adversarial.py``) and
with ``transfer_bias="held-out"`` (bias-aware, the transfer's held-out bound).
The moved transfer and the two active worlds are in ``bench_moved_transfer.py``.
"""

from __future__ import annotations

import pandas as pd
from label_study import label_study
from timing import best_of

from jurycal.datasets import load_agreeableness_judgments
from regression import TransferModel, suggest_labels
from regression.latent.simulate import simulate_item_votes

#: The interval these tables measure: the default.
INTERVAL_METHOD = "floored"
DRAWS = 200
N_VALUES = (25, 50, 100)
OPTIONS = (None, "held-out")


def _summary(study: pd.DataFrame) -> pd.DataFrame:
    grouped = study.groupby(["option", "n", "design"], sort=False)
    return pd.DataFrame(
        {
            "coverage_mean": grouped["coverage"].mean(),
            "coverage_min": grouped["coverage"].min(),
            "width": grouped["width"].mean(),
            "labels_alone_width": grouped["labels_width"].mean(),
            "labels_alone_coverage": grouped["labels_coverage"].mean(),
            "width_ratio": grouped["ratio"].mean(),
            "planned_width": grouped["planned"].mean(),
            "judges_worth": grouped["judges_worth"].mean(),
            "transfer_worth": grouped["transfer_worth"].mean(),
        }
    )


def _print(title: str, study: pd.DataFrame) -> None:
    print(f"### {title}")
    print()
    print(_summary(study).round(3).to_string())
    print()
    print("Per generator (coverage / width ratio to the labels alone):")
    print()
    wide = study.pivot_table(
        index=["option", "generator"],
        columns=["n", "design"],
        values=["coverage", "ratio"],
        sort=False,
    )
    print(wide.round(3).to_string())
    print()


def bench_bundled() -> None:
    judgments, human = load_agreeableness_judgments()
    study = label_study(
        judgments, human, N_VALUES, DRAWS, options=OPTIONS, seed=0, interval_method=INTERVAL_METHOD
    )
    _print(f"Bundled agreeableness data ({DRAWS} draws per cell)", study)


def bench_strong() -> None:
    world = simulate_item_votes(
        6,
        5,
        1000,
        n_annotated=6,
        g_range=(0.75, 0.97),
        tpr_range=(0.88, 0.95),
        tnr_range=(0.85, 0.92),
        seed=3,
    )
    j = float((world.tpr + world.tnr - 1).mean())
    study = label_study(
        world.judgments,
        world.human_labels,
        N_VALUES,
        DRAWS,
        options=OPTIONS,
        seed=1,
        interval_method=INTERVAL_METHOD,
    )
    _print(f"Simulated strong judges (mean J = {j:.2f}) ({DRAWS} draws per cell)", study)


def bench_speed() -> None:
    judgments, human = load_agreeableness_judgments()
    own = human[human["generator"] == "gpt-4o"].sample(50, random_state=0)
    partial = pd.concat([human[human["generator"] != "gpt-4o"], own], ignore_index=True)
    full = best_of(lambda: TransferModel().fit_table(judgments, human))
    with_partial = best_of(lambda: TransferModel().fit_table(judgments, partial))
    others = human[human["generator"] != "gpt-4o"]
    suggest = best_of(lambda: suggest_labels(judgments, others, 50, seed=0))
    print("### Speed on the bundled data (best of 3; ratio to fit_table with full labels)")
    print()
    print("| call | seconds | ratio |")
    print("|---|---:|---:|")
    print(f"| fit_table, every generator fully labelled | {full:.3f} | 1.00 |")
    print(
        f"| fit_table, one generator with 50 labels | {with_partial:.3f} | {with_partial / full:.2f} |"
    )
    print(f"| suggest_labels, budget 50 | {suggest:.3f} | {suggest / full:.2f} |")
    print()


def main() -> None:
    bench_speed()
    bench_bundled()
    bench_strong()


if __name__ == "__main__":
    main()
