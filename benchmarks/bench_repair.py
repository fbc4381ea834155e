"""Speed of ``repair.repair_judgments`` at the paper's scale (193 K validator outputs, App. B.2).

The bundled sample (30,544 simulated responses of 14 validators on 6 generators)
is copied under renamed generators until there are 200,000 responses (about
560,000 item x validator pairs), and repaired with every repair on. The
baseline, measured in the same run on one generator's responses, is the naive way: parse each
response, then score every entry against every item of its task one pair at a
time with rapidfuzz and take the best greedily (a Python double loop; no
assignment, no report). Ratios compare pairs per second with the baseline's.

Run: ``python benchmarks/run.py repair`` or ``python benchmarks/bench_repair.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from rapidfuzz import fuzz, utils

from jurycal.datasets import load_repair_sample
from repair import ALL, LabelPolicy, parse_validator_output, repair_judgments
from repair.labels import normalise_label

N_RESPONSES = 200_000


def scaled_sample(n_responses: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The bundled sample copied under renamed generators up to ``n_responses`` responses."""
    items, outputs = load_repair_sample()
    copies = int(np.ceil(n_responses / len(outputs)))
    items = pd.concat(
        [items.assign(generator=items["generator"] + f"#{k}") for k in range(copies)],
        ignore_index=True,
    )
    outputs = pd.concat(
        [outputs.assign(generator=outputs["generator"] + f"#{k}") for k in range(copies)],
        ignore_index=True,
    ).iloc[:n_responses]
    keep = items.set_index(["generator", "task"]).index.isin(
        outputs.set_index(["generator", "task"]).index
    )
    return items[keep].reset_index(drop=True), outputs


def naive_repair(
    items: pd.DataFrame, outputs: pd.DataFrame, threshold: float = 85.0
) -> pd.DataFrame:
    """The baseline: a Python double loop over entries x items, one rapidfuzz call per pair."""
    policy = LabelPolicy()
    by_task: dict[tuple[Any, Any], list[tuple[Any, str]]] = {}
    for generator, task, item, feedback in items[
        ["generator", "task", "item", "feedback"]
    ].itertuples(index=False, name=None):
        by_task.setdefault((generator, task), []).append((item, feedback))
    rows = []
    for generator, task, validator, raw in outputs.itertuples(index=False, name=None):
        entries = parse_validator_output(raw).entries if isinstance(raw, str) else []
        used: set[int] = set()
        for item, feedback in by_task.get((generator, task), []):
            best, best_score = -1, threshold
            for k, entry in enumerate(entries):
                text = entry.get("feedback") if isinstance(entry, dict) else None
                if k in used or not isinstance(text, str):
                    continue
                score = max(
                    fuzz.token_set_ratio(text, feedback, processor=utils.default_process),
                    fuzz.partial_ratio(text, feedback, processor=utils.default_process),
                )
                if score >= best_score:
                    best, best_score = k, score
            label = np.nan
            if best >= 0:
                used.add(best)
                label = normalise_label(entries[best].get("classification"), policy)[0]
            rows.append((generator, item, validator, label))
    return pd.DataFrame(rows, columns=["generator", "item", "validator", "label"])


def _time(function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def main() -> None:
    items, outputs = scaled_sample(N_RESPONSES)
    first = outputs["generator"].iloc[0]  # one generator: ~5,000 responses, every pair it asks
    slice_outputs = outputs[outputs["generator"] == first]
    slice_items = items[items["generator"] == first]

    naive_s, naive = _time(naive_repair, slice_items, slice_outputs)
    fast_slice_s, (fast_slice, _) = _time(
        repair_judgments, slice_items, slice_outputs, progress=False
    )
    full_s, (judgments, report) = _time(
        repair_judgments, items, outputs, repairs=ALL, progress=False
    )

    naive_rate = len(naive) / naive_s
    table = pd.DataFrame(
        [
            ("naive double loop (baseline)", len(slice_outputs), len(naive), naive_s),
            ("repair_judgments", len(slice_outputs), len(fast_slice), fast_slice_s),
            ("repair_judgments", len(outputs), len(judgments), full_s),
        ],
        columns=["method", "responses", "pairs", "seconds"],
    )
    table["responses/s"] = table["responses"] / table["seconds"]
    table["pairs/s"] = table["pairs"] / table["seconds"]
    table["speed-up (pairs/s)"] = table["pairs/s"] / naive_rate
    with pd.option_context("display.width", 120, "display.float_format", "{:,.1f}".format):
        print(table.to_string(index=False))
    print(f"\n{len(outputs):,} responses -> {len(judgments):,} pairs in {full_s:.1f} s.")
    print(report.describe())


if __name__ == "__main__":
    main()
