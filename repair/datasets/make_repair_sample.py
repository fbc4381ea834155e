"""Write the bundled sample of messy validator outputs: ``python -m repair.datasets.make_repair_sample``.

The agreeableness paper's raw validator responses are not public, so the
sample is simulated (``repair.simulate_validator_outputs``) from the real
generator items and the real per-validator votes of the 6 annotated generators
(``regression.datasets.load_item_votes("feedback+lines+labels")``), with the
default mess rates scaled per validator by that validator's missing-vote rate
at the paper's ``feedback`` level relative to the mean (the paper's Fig. 8:
some validators fail far more often). The output is deterministic (fixed seed,
gzip without timestamps).
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pandas as pd

from regression.datasets import load_agreeableness_judgments, load_item_votes
from repair.simulate import simulate_validator_outputs

SEED = 20250704
HERE = Path(__file__).resolve().parent


def validator_scale() -> dict[str, float]:
    """Each validator's missing-vote rate at the paper's ``feedback`` level over the mean rate."""
    judgments, _ = load_agreeableness_judgments("feedback")
    rates = judgments["label"].isna().groupby(judgments["validator"]).mean()
    return (rates / rates.mean()).round(3).to_dict()


def make_repair_sample(seed: int = SEED) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The generator items, the simulated responses and the simulation's truth table."""
    votes = load_item_votes("feedback+lines+labels")
    items = votes[["generator", "task", "item", "line_number", "feedback"]].rename(
        columns={"line_number": "line"}
    )
    labels, _ = load_agreeableness_judgments("feedback+lines+labels")
    simulated = simulate_validator_outputs(
        items, labels, validator_scale=validator_scale(), seed=seed, progress=False
    )
    return items, simulated.outputs, simulated.truth


def _write_gzip(path: Path, text: str) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(text.encode("utf-8"))


def main() -> None:
    items, outputs, _ = make_repair_sample()
    HERE.mkdir(exist_ok=True)
    buffer = io.StringIO()
    items.to_csv(buffer, index=False, lineterminator="\n")
    _write_gzip(HERE / "generator_items.csv.gz", buffer.getvalue())
    lines = (
        json.dumps({"generator": g, "task": int(t), "validator": v, "raw": r}, ensure_ascii=False)
        for g, t, v, r in outputs.itertuples(index=False, name=None)
    )
    _write_gzip(HERE / "validator_outputs.jsonl.gz", "\n".join(lines) + "\n")
    print(f"wrote {len(items)} items and {len(outputs)} responses to {HERE}")


if __name__ == "__main__":
    main()
