"""The item-level bootstrap of the latent-trait fit: votes encoded once, replicates as weighted sums.

One item (a generator's output) is judged by every validator, and on the
calibration generators its human label feeds the precision anchor and every
validator's TPR / TNR anchor too. A bootstrap that redraws each cell's count
on its own treats all these as independent; resampling *items* keeps them
together. Each generator's items are redrawn with replacement (stratified by
generator: its number of items stays fixed), so a replicate is a vector of
multiplicities ``w_t`` per item, and every number the fit uses is a weighted
sum over items. Where an item id names the same prompt for every generator
(``shared_items``), the prompts are redrawn instead: every generator's output
on a prompt gets that prompt's multiplicity, so a hard prompt drawn twice
lowers every generator twice and the replicates keep the pairing. The sums:

* cell (i, j): ``n_ij = sum_t w_t [t labelled by j]``,
  ``k_ij = sum_t w_t [t labelled valid by j]``;
* the TPR / TNR anchors, pooled over the calibration generators as
  :meth:`~regression.data.anchors.Anchors.from_confusion` pools them:
  ``tp_j = sum_t w_t [human valid, j says valid]`` and so on;
* the precision anchor of calibration generator h: ``m_h = sum_t w_t [t has a
  human label]``, ``a_h = sum_t w_t [human valid]``.

The sums are sparse incidence matrices (rows: cells, validators or anchors;
columns: items) times the weight matrix, so all replicates cost one sparse
product each; no pandas and no :class:`~regression.data.anchors.Anchors` per replicate.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse

from regression.data.judgments import EncodedJudgments
from regression.latent.data import LatentData

__all__ = ["ItemVotes", "draw_item_weights", "encode_items", "item_replicates"]


@dataclass(frozen=True, eq=False)
class ItemVotes:
    """The judgments table and human labels of a fit, encoded for the item bootstrap.

    Items are numbered ``0 .. n_items - 1`` sorted by generator, so the items of
    generator i are one contiguous block.

    Attributes
    ----------
    item_gen : ndarray of int
        Generator position (row of the fitted matrix) of every item; non-decreasing.
    vote_item, vote_cell, vote_val : ndarray of int
        For every *labelled* vote (missing labels dropped): its item, its
        observed cell (position in ``LatentData.rate``) and its validator.
    vote_label : ndarray of float
        1.0 (valid) or 0.0 for every labelled vote.
    item_truth : ndarray of float
        The human label of every item; NaN where it has none.
    item_key : ndarray of int, optional
        The prompt of every item (its item id, coded across generators) when
        the ids are shared; None: each generator's items are its own.
    """

    item_gen: np.ndarray
    vote_item: np.ndarray
    vote_cell: np.ndarray
    vote_val: np.ndarray
    vote_label: np.ndarray
    item_truth: np.ndarray
    item_key: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        """Items of all generators together."""
        return int(self.item_gen.size)


def encode_items(
    encoded: EncodedJudgments, rates: pd.DataFrame, *, shared_items: bool = False
) -> tuple[ItemVotes, pd.MultiIndex]:
    """Encode the votes and human labels behind ``rates`` (the counts of ``encoded``).

    The items of a generator are the union of its ``(generator, item)`` pairs in
    the judgments and in the human labels; human labels of generators outside
    ``rates`` are ignored (the fit has no row for them). Cells are numbered as
    the fit numbers its observed cells (row-major over the non-NaN entries).

    Parameters
    ----------
    encoded : EncodedJudgments
        The checked judgments table and human labels.
    rates : DataFrame
        The fitted matrix (:func:`~regression.data.counts.counts_from_encoded`
        of ``encoded``).
    shared_items : bool
        Item ids name the same prompt for every generator: keep their codes
        (``ItemVotes.item_key``) so the bootstrap redraws prompts.

    Returns
    -------
    (ItemVotes, MultiIndex)
        The encoding and the ``(generator, item)`` key of every item code (for
        checks; the result keeps only the encoding).
    """
    generators, validators = rates.index, rates.columns
    if encoded.human is None:
        human = pd.DataFrame({"generator": [], "item": [], "human": []})
    else:
        human = encoded.human[generators.get_indexer(encoded.human["generator"]) >= 0]
    keys = pd.MultiIndex.from_frame(
        pd.concat([encoded.pairs, human[["generator", "item"]]], ignore_index=True)
    )
    codes, unique_keys = keys.factorize()
    item_gen = generators.get_indexer(unique_keys.get_level_values(0))
    order = np.argsort(item_gen, kind="stable")
    recode = np.empty_like(order)
    recode[order] = np.arange(order.size)
    codes = recode[codes]
    n_votes = encoded.n_votes
    label = encoded.label
    labelled = ~np.isnan(label)
    gen = generators.get_indexer(encoded.generators)[encoded.gen_code[labelled]]
    val = validators.get_indexer(encoded.validators)[encoded.val_code[labelled]]
    values = rates.to_numpy(dtype=float)
    rows, cols = np.nonzero(~np.isnan(values))
    cell_of = np.full(values.size, -1, dtype=np.int64)
    cell_of[rows * values.shape[1] + cols] = np.arange(rows.size)
    item_truth = np.full(order.size, np.nan)
    item_truth[codes[n_votes:]] = human["human"].to_numpy(dtype=float)
    items = ItemVotes(
        item_gen=item_gen[order].astype(np.int64),
        vote_item=codes[:n_votes][labelled].astype(np.int64),
        vote_cell=cell_of[gen * values.shape[1] + val],
        vote_val=val.astype(np.int64),
        vote_label=label[labelled],
        item_truth=item_truth,
        item_key=(
            pd.factorize(unique_keys[order].get_level_values(1))[0].astype(np.int64)
            if shared_items
            else None
        ),
    )
    return items, unique_keys[order]


def draw_item_weights(items: ItemVotes, n_boot: int, rng: Any) -> np.ndarray:
    """Multiplicities of every item in ``n_boot`` replicates, ``(n_boot, n_items)``.

    Within each generator, its ``n_g`` items are drawn ``n_g`` times with
    replacement (a multinomial with equal probabilities): one uniform draw per
    item slot, counted with ``np.bincount``. With shared item ids
    (``items.item_key``), the ``K`` prompts are drawn ``K`` times instead and
    every item takes its prompt's multiplicity.
    """
    if items.item_key is not None:
        n_keys = int(items.item_key.max()) + 1
        if isinstance(rng, np.random.RandomState):
            picks = rng.randint(0, n_keys, size=(n_boot, n_keys))
        else:
            picks = rng.integers(0, n_keys, size=(n_boot, n_keys))
        flat = (np.arange(n_boot)[:, None] * n_keys + picks).ravel()
        per_key = np.bincount(flat, minlength=n_boot * n_keys).reshape(n_boot, n_keys)
        return per_key[:, items.item_key].astype(float)
    n_items = items.n_items
    sizes = np.bincount(items.item_gen)
    first = np.cumsum(sizes) - sizes
    high = sizes[items.item_gen]
    if isinstance(rng, np.random.RandomState):
        offset = rng.randint(0, high, size=(n_boot, n_items))
    else:
        offset = rng.integers(0, high, size=(n_boot, n_items))
    picks = first[items.item_gen] + offset
    flat = (np.arange(n_boot)[:, None] * n_items + picks).ravel()
    return np.bincount(flat, minlength=n_boot * n_items).reshape(n_boot, n_items).astype(float)


def _incidence(
    rows: np.ndarray, cols: np.ndarray, values: np.ndarray, shape: tuple[int, int]
) -> Any:
    return sparse.csr_matrix((values.astype(float), (rows, cols)), shape=shape)


def item_replicates(data: LatentData, items: ItemVotes, weights: np.ndarray) -> list[LatentData]:
    """One :class:`LatentData` per row of ``weights`` (item multiplicities).

    Cells, anchored generators and anchored validators are those of ``data``
    (the original fit); the calibration generators are ``data.g_idx``. Where a
    replicate gives a cell or an anchor no weight at all, its count is 0 (it
    adds nothing to the likelihood) and its value stays the original one as a
    placeholder (the paper loss, which ignores counts, then sees the original
    rate or anchor value).
    """
    weights = np.asarray(weights, dtype=float)
    w = np.ascontiguousarray(weights.T)
    n_items, n_cells, n_val = items.n_items, data.rate.size, data.n_val
    cells = _incidence(
        items.vote_cell, items.vote_item, np.ones(items.vote_item.size), (n_cells, n_items)
    )
    valid = _incidence(items.vote_cell, items.vote_item, items.vote_label, (n_cells, n_items))
    n = np.asarray(cells @ w).T
    k = np.asarray(valid @ w).T
    rate = np.divide(k, n, out=np.broadcast_to(data.rate, n.shape).copy(), where=n > 0)

    anchor_of = np.full(data.n_gen, -1, dtype=np.int64)
    anchor_of[data.g_idx] = np.arange(data.g_idx.size)
    truth = np.where(anchor_of[items.item_gen] >= 0, items.item_truth, np.nan)
    humans = np.flatnonzero(~np.isnan(truth))
    h_rows = anchor_of[items.item_gen[humans]]
    shape_h = (data.g_idx.size, n_items)
    m = np.asarray(_incidence(h_rows, humans, np.ones(humans.size), shape_h) @ w).T
    a = np.asarray(_incidence(h_rows, humans, truth[humans], shape_h) @ w).T
    g_val = np.divide(a, m, out=np.broadcast_to(data.g_val, m.shape).copy(), where=m > 0)

    vote_truth = truth[items.vote_item]
    judged = ~np.isnan(vote_truth)
    says, is_valid = items.vote_label[judged], vote_truth[judged]
    kind = np.select(
        [(says == 1) & (is_valid == 1), (says == 0) & (is_valid == 1), says == 1], [0, 1, 2], 3
    )
    confusion = _incidence(
        kind * n_val + items.vote_val[judged],
        items.vote_item[judged],
        np.ones(int(judged.sum())),
        (4 * n_val, n_items),
    )
    tp, fn, fp, tn = np.asarray(confusion @ w).T.reshape(len(weights), 4, n_val).transpose(1, 0, 2)
    n_pos, n_neg = (tp + fn)[:, data.tpr_idx], (tn + fp)[:, data.tnr_idx]
    tpr_val = np.divide(
        tp[:, data.tpr_idx],
        n_pos,
        out=np.broadcast_to(data.tpr_val, n_pos.shape).copy(),
        where=n_pos > 0,
    )
    tnr_val = np.divide(
        tn[:, data.tnr_idx],
        n_neg,
        out=np.broadcast_to(data.tnr_val, n_neg.shape).copy(),
        where=n_neg > 0,
    )
    return [
        replace(
            data,
            rate=rate[b],
            n=n[b],
            g_val=g_val[b],
            g_n=m[b],
            tpr_val=tpr_val[b],
            tpr_n=n_pos[b],
            tnr_val=tnr_val[b],
            tnr_n=n_neg[b],
        )
        for b in range(len(weights))
    ]
