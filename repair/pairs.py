"""The asked pairs: which generator items each validator response answers.

A validator answers for one (generator, task) at a time: it sees the task's
feedback items and returns one response holding an entry per item
(agreeableness paper App. A.2). A response therefore belongs to the *block*
of its generator and task, and every item of a generator is asked of every
validator that answered for that generator. A response whose block has no
items is an *orphan*: it answers nothing, and :mod:`repair.orphans` says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["GENERATOR_ITEM_COLUMNS", "VALIDATOR_OUTPUT_COLUMNS", "AskedPairs", "ask_pairs"]

#: The columns :func:`repair.repair_judgments` reads from each input table.
GENERATOR_ITEM_COLUMNS = ("generator", "task", "item", "line", "feedback")
VALIDATOR_OUTPUT_COLUMNS = ("generator", "task", "validator", "raw")


@dataclass(frozen=True)
class AskedPairs:
    """The blocks, the orphans and the asked (item, validator) pairs, as positions and codes.

    Attributes
    ----------
    item_block : ndarray of int
        Each item's block (one code per generator and task).
    output_block : ndarray of int
        Each response's block, in the same codes.
    orphan : ndarray of bool
        Each response: its block has no item.
    validators : Index
        The validators, in order of first appearance; ``pair_validator`` indexes it.
    pair_item, pair_validator : ndarray of int
        Each asked pair's item (row position in ``generator_items``) and
        validator; ordered by item, then validator.
    pair_output : ndarray of int
        Each asked pair's response (row position in ``validator_outputs``),
        ``-1`` when that validator gave none for the item's task.
    asked_item : ndarray of bool
        Each item: some validator answered for its generator, so it has pairs.
    """

    item_block: np.ndarray
    output_block: np.ndarray
    orphan: np.ndarray
    validators: pd.Index
    pair_item: np.ndarray
    pair_validator: np.ndarray
    pair_output: np.ndarray
    asked_item: np.ndarray

    @property
    def n_pairs(self) -> int:
        """How many (item, validator) pairs were asked."""
        return len(self.pair_item)


def ask_pairs(generator_items: pd.DataFrame, validator_outputs: pd.DataFrame) -> AskedPairs:
    """Tie responses to the items they answer: blocks, orphans and the asked pairs.

    Parameters
    ----------
    generator_items : DataFrame
        With ``generator`` and ``task``, one row per item.
    validator_outputs : DataFrame
        With ``generator``, ``task`` and ``validator``, one row per response.

    Returns
    -------
    AskedPairs

    Notes
    -----
    Keys are compared as they are: ``'GPT-4o'`` is not ``'gpt-4o'`` and the
    text ``'7'`` is not the number ``7``; responses that meet no item that way
    are orphans, explained by :func:`repair.orphans.orphan_reasons`.

    Examples
    --------
    >>> import pandas as pd
    >>> items = pd.DataFrame({"generator": ["g", "g", "h"], "task": [1, 2, 1]})
    >>> outputs = pd.DataFrame({"generator": ["g", "G"], "task": [1, 1], "validator": ["v", "v"]})
    >>> asked = ask_pairs(items, outputs)
    >>> asked.orphan.tolist(), asked.pair_item.tolist(), asked.pair_output.tolist()
    ([False, True], [0, 1], [0, -1])
    >>> asked.asked_item.tolist()  # nobody answered for generator 'h'
    [True, True, False]
    """
    n_items = len(generator_items)
    generators = pd.concat(
        [generator_items["generator"], validator_outputs["generator"]], ignore_index=True
    )
    tasks = pd.concat([generator_items["task"], validator_outputs["task"]], ignore_index=True)
    block_codes, _ = pd.factorize(pd.MultiIndex.from_arrays([generators, tasks]))
    item_block = block_codes[:n_items].astype(np.int64)
    output_block = block_codes[n_items:].astype(np.int64)
    orphan = ~np.isin(output_block, item_block)
    validator_codes, validators = pd.factorize(validator_outputs["validator"])
    generator_codes, _ = pd.factorize(generators)
    item_generator = generator_codes[:n_items]
    output_generator = generator_codes[n_items:]

    # Every item of a generator is asked of every validator that answered for that generator.
    has_items = np.isin(output_generator, item_generator)
    asked = pd.DataFrame({"g": output_generator[has_items], "v": validator_codes[has_items]})
    asked = asked.drop_duplicates().sort_values(["g", "v"], kind="stable")
    items_frame = pd.DataFrame({"g": item_generator, "i": np.arange(n_items)})
    pairs = items_frame.merge(asked, on="g", how="inner").sort_values(["i", "v"], kind="stable")
    pair_item = pairs["i"].to_numpy(np.int64)
    pair_validator = pairs["v"].to_numpy(np.int64)
    n_validators = max(len(validators), 1)
    output_keys = pd.Index(output_block * n_validators + validator_codes)
    pair_output = output_keys.get_indexer(item_block[pair_item] * n_validators + pair_validator)
    return AskedPairs(
        item_block=item_block,
        output_block=output_block,
        orphan=orphan,
        validators=pd.Index(validators),
        pair_item=pair_item,
        pair_validator=pair_validator,
        pair_output=pair_output.astype(np.int64),
        asked_item=np.isin(item_generator, output_generator),
    )
