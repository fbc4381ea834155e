"""Partial human labels, checked once: which generators calibrate, which are partially labelled.

A generator whose every judged item carries a human label is a calibration
generator; one with some labelled items is *partially labelled*: its labels
are a random sample of its judged items, uniform unless the optional
``inclusion_probability`` column gives each labelled item's probability of
having been drawn (independent draws, ``0 < p <= 1``). :func:`label_design`
checks that, encodes the votes item by item and returns a :class:`LabelDesign`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import PROBABILITY_COLUMN, check_inclusion_probabilities, plain
from regression.data.judgments import EncodedJudgments, HumanLabels, encode_judgments
from regression.errors import InputError

__all__ = ["PROBABILITY_COLUMN", "LabelDesign", "label_design"]


@dataclass(frozen=True, eq=False)
class LabelDesign:
    """The judged items, their votes and their human labels, item by item.

    Attributes
    ----------
    encoded : EncodedJudgments
        The checked judgments table and human labels.
    items : DataFrame
        One row per judged ``(generator, item)``, in order of first appearance:
        ``generator, item, human`` (NaN where unlabelled) and
        ``inclusion_probability`` (NaN where unlabelled; for a uniformly
        labelled generator ``n / N``).
    votes : ndarray, shape (n_items, n_validators)
        +1 (valid), -1 (invalid), 0 (no vote) per item and validator.
    roles : Series
        Per generator: ``calibration``, ``partially labelled`` or ``unlabelled``.
    weighted : Series of bool
        Per generator: whether its labels came with inclusion probabilities.
    """

    encoded: EncodedJudgments
    items: pd.DataFrame
    votes: np.ndarray
    roles: pd.Series
    weighted: pd.Series

    @property
    def calibration(self) -> list[str]:
        """The generators with every judged item labelled."""
        return [str(g) for g in self.roles.index[self.roles == "calibration"]]

    @property
    def partial(self) -> list[str]:
        """The partially labelled generators."""
        return [str(g) for g in self.roles.index[self.roles == "partially labelled"]]

    def n_labels(self) -> pd.Series:
        """Human labels per generator."""
        labelled = self.items["human"].notna()
        return labelled.groupby(self.items["generator"], sort=False).sum().astype(int)

    def rows(self, generator: str) -> np.ndarray:
        """Positions in :attr:`items` of a generator's judged items."""
        return np.flatnonzero((self.items["generator"] == generator).to_numpy())

    def without(self, generators: Iterable[Any]) -> LabelDesign:
        """The design without ``generators``' items, votes and labels, checked no further.

        As :func:`label_design` of the tables without those generators' rows gives it.
        """
        encoded = self.encoded.without(generators)
        dropped = self.encoded.generators[~self.encoded.generators.isin(encoded.generators)]
        kept = ~self.items["generator"].isin(dropped).to_numpy()
        columns = self.encoded.validators.get_indexer(encoded.validators)
        return LabelDesign(
            encoded=encoded,
            items=self.items[kept].reset_index(drop=True),
            votes=self.votes[kept][:, columns],
            roles=self.roles.drop(dropped),
            weighted=self.weighted.drop(dropped),
        )


def _probabilities(human_labels: pd.DataFrame) -> np.ndarray | None:
    """The inclusion-probability column checked: finite, in (0, 1], all-or-none per generator."""
    raw = check_inclusion_probabilities(human_labels, "human_labels")
    if raw is None:
        return None
    given = ~np.isnan(raw)
    generator = human_labels["generator"].to_numpy()
    some = pd.Series(given).groupby(generator, sort=False).transform("any").to_numpy()
    mixed = some & ~given
    if mixed.any():
        row = int(np.flatnonzero(mixed)[0])
        raise InputError(
            f"human_labels gives {PROBABILITY_COLUMN} for some labels of generator "
            f"{plain(generator[row])!r} but not at row {row}: give it for every label of a "
            "generator or for none.",
            row=row,
            column=PROBABILITY_COLUMN,
            value=None,
        )
    return raw


def label_design(
    judgments: pd.DataFrame, human_labels: pd.DataFrame | HumanLabels | None
) -> LabelDesign:
    """Check the judgments and (partial) human labels and encode them item by item.

    Parameters
    ----------
    judgments : DataFrame
        ``generator, item, validator, label``.
    human_labels : DataFrame, HumanLabels or None
        ``generator, item, human`` and optionally ``inclusion_probability``:
        labels for any subset of any generator's judged items (a
        :class:`~regression.data.judgments.HumanLabels` is not checked again).

    Returns
    -------
    LabelDesign

    Raises
    ------
    ValueError
        Bad judgments or labels (see :func:`~regression.data.judgments.encode_judgments`),
        or an :class:`~regression.errors.InputError` naming the first offending
        row: a label for an item without judgments, a duplicate label, an
        inclusion probability outside (0, 1], the probability given for some
        labels of a generator and not for others.

    Examples
    --------
    >>> judgments = pd.DataFrame({"generator": ["a", "a", "b", "b"], "item": [1, 2, 1, 2],
    ...                           "validator": "v", "label": [1, 0, 1, 1]})
    >>> human = pd.DataFrame({"generator": ["a", "a", "b"], "item": [1, 2, 1], "human": [1, 0, 1]})
    >>> design = label_design(judgments, human)
    >>> design.roles.to_dict(), design.n_labels().to_dict()
    ({'a': 'calibration', 'b': 'partially labelled'}, {'a': 2, 'b': 1})
    """
    encoded = encode_judgments(judgments, human_labels)
    keys = pd.MultiIndex.from_frame(encoded.pairs)
    codes, unique = keys.factorize()
    items = unique.to_frame(index=False, name=["generator", "item"])
    votes = np.zeros((len(items), len(encoded.validators)))
    has = ~np.isnan(encoded.label)
    votes[codes[has], encoded.val_code[has]] = 2.0 * encoded.label[has] - 1.0
    items["human"] = np.nan
    items[PROBABILITY_COLUMN] = np.nan
    weighted = pd.Series(False, index=encoded.generators)
    if human_labels is not None and encoded.human is not None:
        table = human_labels.given if isinstance(human_labels, HumanLabels) else human_labels
        probability = _probabilities(table)
        human = encoded.human
        at = unique.get_indexer(pd.MultiIndex.from_frame(human[["generator", "item"]]))
        if (at < 0).any():
            row = int(np.flatnonzero(at < 0)[0])
            key = tuple(plain(v) for v in human[["generator", "item"]].iloc[row])
            raise InputError(
                f"human_labels has a label for (generator, item) = {key!r} at row {row}, an item "
                "with no judgments; drop it or add its judgments.",
                row=row,
                column="item",
                value=key,
            )
        items.loc[at, "human"] = human["human"].to_numpy(dtype=float)
        if probability is not None:
            items.loc[at, PROBABILITY_COLUMN] = probability
            given = pd.Series(~np.isnan(probability)).groupby(human["generator"].to_numpy()).any()
            weighted.loc[given.index[given.to_numpy()]] = True
    by_generator = items.groupby("generator", sort=False)
    n_items = by_generator.size().reindex(encoded.generators)
    n_labels = by_generator["human"].count().reindex(encoded.generators)
    roles = pd.Series("partially labelled", index=encoded.generators, name="role")
    roles[n_labels == 0] = "unlabelled"
    roles[n_labels == n_items] = "calibration"
    # a uniform sample of n of N items: every item had probability n / N
    uniform = items["generator"].map(n_labels / n_items).to_numpy(dtype=float)
    labelled = items["human"].notna().to_numpy()
    missing = labelled & items[PROBABILITY_COLUMN].isna().to_numpy()
    items.loc[missing, PROBABILITY_COLUMN] = uniform[missing]
    return LabelDesign(encoded, items, votes, roles, weighted)
