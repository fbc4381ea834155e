"""The latent-trait losses in torch, minimised for a whole batch of problems at once.

A batch is any set of fits on the same cells (same generators, validators and
observed cells): the restarts of one fit, the calibration subsets of a
leave-s-out run, the replicates of a bootstrap. Every problem keeps its own
rates, counts and anchors; the losses are the ones of
:mod:`regression._latent_losses` (agreeableness paper App. C.4 eqs. (11)-(13),
and the binomial likelihood). They are minimised
by a projected L-BFGS with a backtracking Armijo line search along the
projected path, vectorised over the batch: each problem has its own memory,
step length and convergence test, so the batch gives the same answers as
solving the problems one by one. Gradients are the exact ones of
:mod:`regression._latent_losses`, written out (no autograd, no finite differences).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import torch

from regression._latent_losses import BCE_CLIP, LatentData

__all__ = ["solve_batch"]

_MEMORY = 10
_ARMIJO = 1e-4
_MAX_HALVINGS = 40


class _Batch:
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

    def take(self, rows: torch.Tensor) -> _Batch:
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


def solve_batch(
    datas: Sequence[LatentData],
    starts: np.ndarray,
    *,
    loss: str,
    lambdas: tuple[float, float, float],
    bounds: tuple[np.ndarray, np.ndarray],
    ftol: float,
    gtol: float,
    max_iter: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Minimise every problem ``datas[b]`` from ``starts[b]``; returns ``(thetas, losses, converged, messages)``.

    ``bounds`` is the box ``(lower, upper)``, each shaped like ``starts``: every
    problem has its own (a coordinate with ``lower == upper`` is held fixed).

    Finished problems leave the batch (it is compacted when a quarter of its
    rows are done), and the line search re-evaluates only the rows whose step
    was not yet accepted, so stragglers do not cost a full-batch evaluation.
    """
    full = _Batch(datas)
    lo, hi = (torch.as_tensor(np.asarray(b, dtype=float)) for b in bounds)

    def evaluate(batch: _Batch, theta: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return batch.paper(theta, lambdas) if loss == "paper" else batch.likelihood(theta)

    x = torch.clamp(torch.as_tensor(starts, dtype=torch.float64), lo, hi)
    f, g = evaluate(full, x)
    n_batch, dim = x.shape
    out_x, out_f = x.clone(), f.clone()
    reason = ["iteration limit reached"] * n_batch
    where = torch.arange(n_batch)  # original row of every row still in the batch
    batch = full
    s_mem = torch.zeros(_MEMORY, n_batch, dim, dtype=torch.float64)
    y_mem = torch.zeros_like(s_mem)
    rho = torch.zeros(_MEMORY, n_batch, dtype=torch.float64)
    done = torch.zeros(n_batch, dtype=torch.bool)
    newest = -1
    gamma = torch.ones(n_batch, dtype=torch.float64)
    first = torch.ones(n_batch, dtype=torch.bool)

    def finish(rows: torch.Tensor, message: str) -> None:
        for b in rows.tolist():
            reason[int(where[b])] = message

    for _ in range(max_iter):
        free = ~(((x <= lo) & (g > 0)) | ((x >= hi) & (g < 0)))
        pg = torch.where(free, g, 0.0)
        small = (pg.abs().amax(dim=1) <= gtol) & ~done
        finish(torch.nonzero(small).flatten(), "CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL")
        done |= small
        if bool(done.all()):
            break
        # Two-loop recursion over the memory, newest first (rho = 0 entries are no-ops).
        q = pg.clone()
        alphas = []
        order = [(newest - i) % _MEMORY for i in range(_MEMORY)] if newest >= 0 else []
        for i in order:
            a = rho[i] * (s_mem[i] * q).sum(dim=1)
            q -= a[:, None] * y_mem[i]
            alphas.append(a)
        r = gamma[:, None] * q
        for i, a in zip(reversed(order), reversed(alphas), strict=True):
            beta = rho[i] * (y_mem[i] * r).sum(dim=1)
            r += s_mem[i] * (a - beta)[:, None]
        direction = torch.where(free, -r, 0.0)
        uphill = (direction * pg).sum(dim=1) >= 0
        direction = torch.where(uphill[:, None], -pg, direction)
        step = torch.where(
            first | uphill, torch.clamp(1.0 / pg.abs().sum(dim=1).clamp(min=1e-300), max=1.0), 1.0
        )
        accepted = done.clone()
        x_new, f_new, g_new = x.clone(), f.clone(), g.clone()
        for _ in range(_MAX_HALVINGS):
            pending = torch.nonzero(~accepted).flatten()
            sub = batch if len(pending) == len(x) else batch.take(pending)
            trial = torch.clamp(
                x[pending] + step[pending, None] * direction[pending], lo[pending], hi[pending]
            )
            f_trial, g_trial = evaluate(sub, trial)
            decrease = (g[pending] * (trial - x[pending])).sum(dim=1)
            ok = f_trial <= f[pending] + _ARMIJO * decrease
            rows = pending[ok]
            x_new[rows], f_new[rows], g_new[rows] = trial[ok], f_trial[ok], g_trial[ok]
            accepted[rows] = True
            if bool(accepted.all()):
                break
            step[pending[~ok]] *= 0.5
        stalled = ~accepted
        finish(torch.nonzero(stalled).flatten(), "ABNORMAL: LINE SEARCH FOUND NO DECREASE")
        done |= stalled
        s_vec = x_new - x
        y_vec = g_new - g
        sy = (s_vec * y_vec).sum(dim=1)
        yy = (y_vec * y_vec).sum(dim=1)
        good = (sy > 1e-12 * yy.clamp(min=1e-300)) & (sy > 0) & ~done
        newest = (newest + 1) % _MEMORY
        s_mem[newest] = torch.where(good[:, None], s_vec, 0.0)
        y_mem[newest] = torch.where(good[:, None], y_vec, 0.0)
        rho[newest] = torch.where(good, 1.0 / sy.clamp(min=1e-300), 0.0)
        gamma = torch.where(good, sy / yy.clamp(min=1e-300), gamma)
        first = first & ~good
        reduction = (f - f_new) <= ftol * torch.maximum(
            torch.maximum(f.abs(), f_new.abs()), torch.ones_like(f)
        )
        newly = reduction & accepted & ~done
        finish(torch.nonzero(newly).flatten(), "CONVERGENCE: RELATIVE REDUCTION OF F <= FTOL")
        x, f, g = x_new, f_new, g_new
        done |= newly
        out_x[where] = x
        out_f[where] = f
        if bool(done.all()):
            break
        if int(done.sum()) * 4 >= len(done):
            keep = torch.nonzero(~done).flatten()
            batch, where = batch.take(keep), where[keep]
            x, f, g, lo, hi = x[keep], f[keep], g[keep], lo[keep], hi[keep]
            s_mem, y_mem, rho = s_mem[:, keep], y_mem[:, keep], rho[:, keep]
            gamma, first, done = gamma[keep], first[keep], done[keep]
    converged = np.array([not m.startswith(("ABNORMAL", "iteration")) for m in reason])
    return out_x.numpy().copy(), out_f.numpy().copy(), converged, reason
