"""The judgments table and the human labels, checked and encoded once.

Every number the many-judge wing takes from item-level data derives from one
:class:`EncodedJudgments`: the counts matrix (agreeableness paper, section 5.1,
eq. (9)), the confusion tables against the human labels (the anchors of
eq. (3) / App. C.4, eq. (12)), and the item codes the item bootstrap redraws.
The table is checked here, once: its columns, its labels, repeated
``(generator, item, validator)`` triples and missing generators or validators;
the human labels by :func:`regression.checks.check_human_labels`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import (
    JUDGMENT_COLUMNS,
    check_human_labels,
    coerce_binary,
    refuse_repeats,
    require_columns,
)
from regression.errors import MissingValueError

__all__ = ["EncodedJudgments", "HumanLabels", "checked_human_labels", "encode_judgments"]


@dataclass(frozen=True, eq=False)
class EncodedJudgments:
    """The judgments table as codes and labels, with the human labels checked.

    Attributes
    ----------
    generators, validators : Index
        In order of first appearance in the judgments table.
    gen_code, val_code : ndarray of int
        Every vote's generator (position in ``generators``) and validator.
    label : ndarray of float
        Every vote's label: 1.0 (valid), 0.0 (invalid) or NaN (missing).
    pairs : DataFrame
        The ``generator, item`` columns of the votes, in table order.
    human : DataFrame or None
        The human labels (``generator, item, human``, ``human`` 1.0 / 0.0), or
        None when none were given.
    """

    generators: pd.Index
    validators: pd.Index
    gen_code: np.ndarray
    val_code: np.ndarray
    label: np.ndarray
    pairs: pd.DataFrame
    human: pd.DataFrame | None = None

    @property
    def n_votes(self) -> int:
        """Rows of the judgments table (labelled or not)."""
        return int(self.label.size)

    @cached_property
    def vote_truth(self) -> np.ndarray:
        """The human label of every vote's item; NaN where the item has none."""
        if self.human is None:
            return np.full(self.n_votes, np.nan)
        truth = pd.MultiIndex.from_frame(self.human[["generator", "item"]])
        at = truth.get_indexer(pd.MultiIndex.from_frame(self.pairs))
        values = self.human["human"].to_numpy(dtype=float)
        return np.where(at >= 0, values[at], np.nan)

    def without(self, generators: Iterable[Any]) -> EncodedJudgments:
        """The table without ``generators``' votes and human labels, checked no further.

        Generators and validators keep their order of first appearance among
        the votes left, as :func:`encode_judgments` of the smaller table would
        give them.
        """
        dropped = self.generators.isin(list(generators))
        kept = ~dropped[self.gen_code]
        generator_code = np.cumsum(~dropped) - 1
        validator_code = self.val_code[kept]
        used, first = np.unique(validator_code, return_index=True)
        order = used[np.argsort(first, kind="stable")]
        recode = np.full(len(self.validators), -1, dtype=np.int64)
        recode[order] = np.arange(order.size)
        human = None
        if self.human is not None:
            human = self.human[~self.human["generator"].isin(self.generators[dropped])]
            human = human.reset_index(drop=True)
        return EncodedJudgments(
            generators=self.generators[~dropped],
            validators=self.validators[order],
            gen_code=generator_code[self.gen_code[kept]],
            val_code=recode[validator_code],
            label=self.label[kept],
            pairs=self.pairs[kept].reset_index(drop=True),
            human=human,
        )


@dataclass(frozen=True, eq=False)
class HumanLabels:
    """Human labels checked once, so that no later step converts or checks them again.

    Attributes
    ----------
    labels : DataFrame
        ``generator, item, human`` with ``human`` 1.0 / 0.0, one row per item
        (:func:`regression.checks.check_human_labels`).
    given : DataFrame
        The table as given, for its optional columns (``inclusion_probability``).
    """

    labels: pd.DataFrame
    given: pd.DataFrame


def checked_human_labels(human_labels: pd.DataFrame | HumanLabels) -> HumanLabels:
    """``human_labels`` checked and converted once (as is when already a :class:`HumanLabels`).

    Raises
    ------
    ValueError
        As :func:`regression.checks.check_human_labels`: an :class:`~regression.errors.InputError`
        naming the offending row.
    """
    if isinstance(human_labels, HumanLabels):
        return human_labels
    return HumanLabels(check_human_labels(human_labels), human_labels)


def encode_judgments(
    judgments: pd.DataFrame, human_labels: pd.DataFrame | HumanLabels | None = None
) -> EncodedJudgments:
    """Check the judgments table (and the human labels) and encode them.

    Parameters
    ----------
    judgments : DataFrame
        ``generator, item, validator, label``; ``label`` 1 / 0, bool,
        ``"valid"`` / ``"invalid"``, or missing (``pd.NA``, NaN, None: not a
        label, counted nowhere).
    human_labels : DataFrame or HumanLabels, optional
        ``generator, item, human``: one label per item (a :class:`HumanLabels`
        is not checked again).

    Returns
    -------
    EncodedJudgments

    Raises
    ------
    ValueError
        A missing column; a label that is not binary (naming it and its
        position); a repeated ``(generator, item, validator)`` triple (naming
        the first repeat and its row); a missing generator or validator (naming
        its row); bad human labels (see
        :func:`regression.checks.check_human_labels`).

    Examples
    --------
    >>> judgments = pd.DataFrame({"generator": ["g1", "g1", "g2"], "item": [1, 1, 1],
    ...                           "validator": ["v1", "v2", "v1"], "label": [1, 0, "valid"]})
    >>> encoded = encode_judgments(judgments)
    >>> list(encoded.generators), encoded.val_code.tolist(), encoded.label.tolist()
    (['g1', 'g2'], [0, 1, 0], [1.0, 0.0, 1.0])
    """
    require_columns(judgments, JUDGMENT_COLUMNS, "judgments")
    columns = ["generator", "item", "validator"]
    refuse_repeats(judgments, columns, "judgments", "a validator labels an item once")
    label = coerce_binary("label", judgments["label"], allow_missing=True)
    gen_code, generators = pd.factorize(judgments["generator"])
    val_code, validators = pd.factorize(judgments["validator"])
    for which, codes in (("generator", gen_code), ("validator", val_code)):
        if (codes < 0).any():
            row = int(np.flatnonzero(codes < 0)[0])
            raise MissingValueError(
                f"judgments has a missing {which} at row {row}.", row=row, column=which
            )
    human = None if human_labels is None else checked_human_labels(human_labels).labels
    return EncodedJudgments(
        generators=pd.Index(generators, name="generator"),
        validators=pd.Index(validators, name="validator"),
        gen_code=gen_code,
        val_code=val_code,
        label=label,
        pairs=judgments[["generator", "item"]],
        human=human,
    )
