"""The latent-trait losses in torch for a batch of problems on the same cells, with exact derivatives.

:class:`Batch` holds the masked rates, counts and anchors of B problems and
evaluates the losses of :mod:`regression.latent.losses` (agreeableness paper
App. C.4 eqs. (11)-(13), and the binomial likelihood) with their exact
gradients, and the likelihood's exact Hessian in block form (:class:`Hessian`),
written out (no autograd, no finite differences).
:mod:`regression.latent.torch_backend` minimises them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import torch

from regression.latent.data import LatentData
from regression.latent.losses import BCE_CLIP

__all__ = ["Batch", "Hessian"]


class Batch:
    """Masked tensors for B problems that share their cells; losses with exact gradients.

    A full matrix is kept dense as (B, n_gen, n_val) so that row and column sums
    are plain reductions; a sparse one as (B, n_cells) with index-add scatters.
    """

    def __init__(self, datas: Sequence[LatentData]) -> None:
        first = datas[0]
        for data in datas[1:]:
            if (
                data.n_gen != first.n_gen
                or data.n_val != first.n_val
                or not np.array_equal(data.rows, first.rows)
                or not np.array_equal(data.cols, first.cols)
            ):
                raise ValueError("a torch batch needs problems with the same observed cells.")
        self.n_gen, self.n_val = first.n_gen, first.n_val
        self.n_cells = first.rows.size
        self.dense = self.n_cells == self.n_gen * self.n_val
        order = np.lexsort((first.cols, first.rows))
        self.order = order
        self.rows = torch.as_tensor(first.rows[order], dtype=torch.long)
        self.cols = torch.as_tensor(first.cols[order], dtype=torch.long)

        def stack(name: str) -> torch.Tensor:
            values = np.stack([np.asarray(getattr(d, name), dtype=float)[order] for d in datas])
            return self._shape(torch.as_tensor(values, dtype=torch.float64))

        self.rate = stack("rate")
        self.n = stack("n") * stack("in_likelihood")
        self.k = self.rate * self.n
        self.total = self.n.flatten(1).sum(dim=1)
        batch = len(datas)
        self.blocks = []
        for prefix, size in (("g", self.n_gen), ("tpr", self.n_val), ("tnr", self.n_val)):
            mask = np.zeros((batch, size))
            val = np.zeros((batch, size))
            cnt = np.zeros((batch, size))
            for b, d in enumerate(datas):
                idx = getattr(d, f"{prefix}_idx")
                mask[b, idx] = 1.0
                val[b, idx] = getattr(d, f"{prefix}_val")
                cnt[b, idx] = getattr(d, f"{prefix}_n")
            mask_t, val_t, cnt_t = (
                torch.as_tensor(a, dtype=torch.float64) for a in (mask, val, cnt)
            )
            self.blocks.append((mask_t, val_t, mask_t * cnt_t))
            self.total = self.total + (mask_t * cnt_t).sum(dim=1)
        self.total = torch.clamp(self.total, min=1.0)

    def take(self, rows: torch.Tensor) -> Batch:
        """The same cells for a subset of the problems (rows of the batch)."""
        sub = copy.copy(self)
        sub.rate, sub.n, sub.k, sub.total = (
            self.rate[rows],
            self.n[rows],
            self.k[rows],
            self.total[rows],
        )
        sub.blocks = [(m[rows], v[rows], c[rows]) for m, v, c in self.blocks]
        return sub

    def _shape(self, cells: torch.Tensor) -> torch.Tensor:
        if self.dense:
            return cells.reshape(cells.shape[0], self.n_gen, self.n_val)
        return cells

    def _by_row(self, values: torch.Tensor) -> torch.Tensor:
        return values[:, :, None] if self.dense else values[:, self.rows]

    def _by_col(self, values: torch.Tensor) -> torch.Tensor:
        return values[:, None, :] if self.dense else values[:, self.cols]

    def _row_sum(self, cells: torch.Tensor) -> torch.Tensor:
        if self.dense:
            return cells.sum(dim=2)
        return torch.zeros(cells.shape[0], self.n_gen, dtype=cells.dtype).index_add_(
            1, self.rows, cells
        )

    def _col_sum(self, cells: torch.Tensor) -> torch.Tensor:
        if self.dense:
            return cells.sum(dim=1)
        return torch.zeros(cells.shape[0], self.n_val, dtype=cells.dtype).index_add_(
            1, self.cols, cells
        )

    def _dense(self, cells: torch.Tensor) -> torch.Tensor:
        """Cell values as a (B, n_gen, n_val) matrix, zero where a cell is absent."""
        if self.dense:
            return cells.expand(cells.shape[0], self.n_gen, self.n_val)
        out = torch.zeros(cells.shape[0], self.n_gen * self.n_val, dtype=cells.dtype)
        out[:, self.rows * self.n_val + self.cols] = cells
        return out.reshape(-1, self.n_gen, self.n_val)

    def _cells(self, theta: torch.Tensor) -> tuple[torch.Tensor, ...]:
        g = theta[:, : self.n_gen]
        tpr = theta[:, self.n_gen : self.n_gen + self.n_val]
        tnr = theta[:, self.n_gen + self.n_val :]
        g_r, tpr_c, tnr_c = self._by_row(g), self._by_col(tpr), self._by_col(tnr)
        return g_r, tpr_c, tnr_c, g_r * tpr_c + (1.0 - g_r) * (1.0 - tnr_c)

    def _scatter(
        self, d_hat: torch.Tensor, g_r: torch.Tensor, tpr_c: torch.Tensor, tnr_c: torch.Tensor
    ) -> torch.Tensor:
        return torch.cat(
            [
                self._row_sum(d_hat * (tpr_c + tnr_c - 1.0)),
                self._col_sum(d_hat * g_r),
                self._col_sum(-d_hat * (1.0 - g_r)),
            ],
            dim=1,
        )

    def paper(
        self, theta: torch.Tensor, lambdas: tuple[float, float, float]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        g_r, tpr_c, tnr_c, hat = self._cells(theta)
        h1 = torch.clamp(hat, BCE_CLIP, 1.0)
        h0 = torch.clamp(1.0 - hat, BCE_CLIP, 1.0)
        rate = self.rate
        value = (
            -(rate * torch.log(h1) + (1.0 - rate) * torch.log(h0)).flatten(1).sum(dim=1)
            / self.n_cells
        )
        d_hat = (
            -(
                torch.where(hat >= BCE_CLIP, rate / h1, 0.0)
                - torch.where(1.0 - hat >= BCE_CLIP, (1.0 - rate) / h0, 0.0)
            )
            / self.n_cells
        )
        grad = self._scatter(d_hat, g_r, tpr_c, tnr_c)
        offset = 0
        for weight, (mask, val, _) in zip(lambdas, self.blocks, strict=True):
            size = mask.shape[1]
            used = mask.sum(dim=1)
            if float(used.max()) > 0:
                resid = mask * (theta[:, offset : offset + size] - val)
                rmse = torch.sqrt((resid**2).sum(dim=1) / torch.clamp(used, min=1.0))
                value = value + weight * rmse
                scale = torch.where(
                    rmse > 0, weight / (torch.clamp(used, min=1.0) * rmse.clamp(min=1e-300)), 0.0
                )
                grad[:, offset : offset + size] += scale[:, None] * resid
            offset += size
        return value, grad

    def likelihood(self, theta: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        g_r, tpr_c, tnr_c, hat = self._cells(theta)
        n, k = self.n, self.k
        nll = -(k * torch.log(hat) + (n - k) * torch.log1p(-hat)).flatten(1).sum(dim=1)
        grad = self._scatter(-(k / hat - (n - k) / (1.0 - hat)), g_r, tpr_c, tnr_c)
        offset = 0
        for _, val, m in self.blocks:
            size = m.shape[1]
            part = theta[:, offset : offset + size]
            hits = val * m
            nll = nll - (hits * torch.log(part) + (m - hits) * torch.log1p(-part)).sum(dim=1)
            grad[:, offset : offset + size] -= hits / part - (m - hits) / (1.0 - part)
            offset += size
        return nll / self.total, grad / self.total[:, None]

    def likelihood_hessian(self, theta: torch.Tensor, *, expected: bool = False) -> Hessian:
        """The likelihood's Hessian (or, ``expected=True``, its Fisher information), divided by W.

        With ``p = g_i J_j + 1 - tnr_j`` (``J = tpr + tnr - 1``), a cell adds
        ``w grad(p) grad(p)^T + d hess(p)`` where ``w = k/p^2 + (n-k)/(1-p)^2`` and
        ``d = -(k/p - (n-k)/(1-p))``; ``hess(p)`` is 1 for (g_i, tpr_j) and
        (g_i, tnr_j) and 0 elsewhere. The Fisher information takes the
        expectation (``w = n / (p (1 - p))``, ``d = 0``): positive semi-definite
        everywhere. Either way the g block is diagonal, each validator's
        (tpr, tnr) block is 2 x 2, and g meets the validators only through one
        entry per cell; see :class:`Hessian`.
        """
        g_r, tpr_c, tnr_c, hat = self._cells(theta)
        n, k = self.n, self.k
        if expected:
            w = n / (hat * (1.0 - hat))
            d = torch.zeros_like(w)
        else:
            w = k / hat**2 + (n - k) / (1.0 - hat) ** 2
            d = -(k / hat - (n - k) / (1.0 - hat))
        j_c = tpr_c + tnr_c - 1.0
        blocks = [
            self._row_sum(w * j_c**2),
            self._col_sum(w * g_r**2),
            self._col_sum(w * (1.0 - g_r) ** 2),
        ]
        offset = 0
        for b, (_, val, m) in enumerate(self.blocks):
            size = m.shape[1]
            part = theta[:, offset : offset + size]
            if expected:
                blocks[b] = blocks[b] + m / (part * (1.0 - part))
            else:
                hits = val * m
                blocks[b] = blocks[b] + hits / part**2 + (m - hits) / (1.0 - part) ** 2
            offset += size
        scale = self.total[:, None]
        return Hessian(
            g=blocks[0] / scale,
            tt=blocks[1] / scale,
            uu=blocks[2] / scale,
            tu=self._col_sum(-w * g_r * (1.0 - g_r)) / scale,
            coupling=torch.cat(
                [self._dense(w * j_c * g_r + d), self._dense(-w * j_c * (1.0 - g_r) + d)], dim=2
            )
            / scale[:, :, None],
        )


class Hessian(NamedTuple):
    """A Hessian of the latent-trait likelihood in block form, for B problems.

    ``g``: the diagonal g block (B, n_gen); ``tt``, ``uu``, ``tu``: each
    validator's 2 x 2 (tpr, tnr) block (B, n_val); ``coupling``: the (g_i,
    tpr_j) and (g_i, tnr_j) entries (B, n_gen, 2 n_val), zero where a cell is absent.
    """

    g: torch.Tensor
    tt: torch.Tensor
    uu: torch.Tensor
    tu: torch.Tensor
    coupling: torch.Tensor

    def take(self, rows: torch.Tensor) -> Hessian:
        return Hessian(*(part[rows] for part in self))
