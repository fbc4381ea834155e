"""The bundled sample of messy validator outputs, the input of :func:`repair.repair_judgments`.

Simulated from the agreeableness paper's items and votes by
``python -m repair.datasets.make_repair_sample`` (provenance:
``regression/datasets/README.md``, which holds the provenance of all bundled data).
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

__all__ = ["load_repair_sample"]


def load_repair_sample() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Messy validator responses for the 6 annotated generators, simulated from their real votes.

    Written by ``repair/datasets/make_repair_sample.py`` with
    ``repair.simulate_validator_outputs`` from the items and per-validator votes
    of :func:`regression.datasets.load_item_votes` (level ``feedback+lines+labels``) in the
    validator prompt's JSON format (agreeableness paper App. A.2), with
    realistic mess (provenance: ``regression/datasets/README.md``). The intended label
    of every pair is its vote in :func:`regression.datasets.load_agreeableness_judgments`.

    Returns
    -------
    generator_items : DataFrame
        5,972 rows: ``generator, task, item, line, feedback`` (``line`` as text:
        ``"3"``, ``"5, 8, 11"``).
    validator_outputs : DataFrame
        One row per (generator, task, validator) response, ``generator, task,
        validator, raw`` (``raw`` missing where the validator gave nothing; a
        few responses have no row at all).

    Examples
    --------
    >>> items, outputs = load_repair_sample()
    >>> len(items), list(outputs.columns)
    (5972, ['generator', 'task', 'validator', 'raw'])
    """
    here = resources.files(__name__)
    with resources.as_file(here / "generator_items.csv.gz") as path:
        items = pd.read_csv(path, dtype={"line": str})
    with resources.as_file(here / "validator_outputs.jsonl.gz") as path:
        outputs = pd.read_json(path, lines=True, dtype=False)
    return items, outputs[["generator", "task", "validator", "raw"]]
