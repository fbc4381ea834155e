"""The family of ordered pairs behind every comparison: observed statistics and the tails of their null laws.

For the ordered pair (a, b) the statistic is ``T_ab = (ghat_a - ghat_b) /
sd_ab`` and its null law that of ``x_ab = (e_a - e_b) / sd_ab`` over the
joint error's draws ``e``. The balanced (min-p) procedure of the package
docstring reads each draw's percentile within its pair's null law, takes per
draw the largest percentile over the pairs still in the family, and tests
every pair at the ``1 - alpha`` quantile of that maximum.

Only the upper tail of each pair's null law can matter. The maximum of the
percentiles is at least any one pair's percentile, which is uniform on
``1/n, ..., 1``, so its ``1 - alpha`` quantile lies in the top ``alpha n``
ranks of every pair; and with many pairs it lies far higher (at 200
generators, in the top few draws). So the family keeps, per ordered pair,
only its ``depth`` largest null draws (which draws, in order, and their
values), found in one pass over the draws per chunk of pairs without sorting
a whole column: a threshold from a sample of the draws picks the candidates,
and the candidates are sorted. Percentiles below the kept tails stand for
"lower than every kept draw", and the quantile is exact whenever it falls
among the kept ranks; where it does not (the family shrank in a step of the
step-down), the tails of the pairs still in the family are drawn again,
deeper. Memory is pairs x depth, never pairs x draws; time is one pass over
pairs x draws, plus pairs x depth per step.

Ranks are those of a stable sort (ties in draw order), the percentiles of
the min-p form; the critical value of a pair at percentile ``k / n`` is its
null draw numpy's ``quantile(..., method="higher")`` returns. So the family
decides exactly what forming every pair x draw would decide, for the same
draws (a test compares them with that implementation).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from regression.checks import SeedLike, as_rng
from regression.errors import InputError, JurycalWarning
from regression.results import JointError

__all__ = [
    "N_DRAWS",
    "TooFewDrawsWarning",
    "SCALE_FLOOR",
    "PairFamily",
    "check_generators",
    "check_joint",
    "error_draws",
    "level_error",
    "pair_positions",
    "ranked_part",
]

#: Draws of the joint error behind every critical value when the joint error carries none.
N_DRAWS = 20_000
#: Floor on a difference's scale, so that two estimates with no error between them stay comparable.
SCALE_FLOOR = 1e-12
#: Pairs x draws held at once while the tails are found (8 MB of float64 per chunk).
CHUNK_CELLS = 1 << 20
#: Draws a candidate threshold is read from, per pair.
SAMPLE_DRAWS = 2048

#: Per pair, (draw ids, null values) of its forward tail and of its backward tail, highest first.
Tails = tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


class TooFewDrawsWarning(JurycalWarning):
    """The draws cannot resolve the family-wise level: the critical value is the maximum's largest draw."""


def error_draws(joint: JointError, n_draws: int = N_DRAWS, seed: SeedLike = 0) -> np.ndarray:
    """``(n, G)`` draws of ``estimate - truth``: the joint error's own, else from its law.

    Without draws: a multivariate normal with ``joint.covariance`` (``df = inf``)
    or a multivariate t with that scale matrix and ``joint.df`` degrees of
    freedom (a normal draw divided by one ``sqrt(chi2_df / df)``).
    """
    if joint.draws is not None:
        return np.asarray(joint.draws, dtype=float)
    rng = as_rng(seed)
    scale = joint.covariance.to_numpy(dtype=float)
    g = len(scale)
    draws = rng.standard_normal((n_draws, g)) @ _root(scale).T
    if np.isfinite(joint.df):
        draws /= np.sqrt(rng.chisquare(joint.df, n_draws) / joint.df)[:, None]
    return draws


def _root(scale: np.ndarray) -> np.ndarray:
    """``L`` with ``L L' = scale``: Cholesky (unique, so the draws do not depend on the BLAS
    kernel), or the symmetric root of the eigendecomposition where ``scale`` is singular."""
    symmetric = (scale + scale.T) / 2
    try:
        return np.linalg.cholesky(symmetric)
    except np.linalg.LinAlgError:
        values, vectors = np.linalg.eigh(symmetric)
        return (vectors * np.sqrt(np.clip(values, 0.0, None))) @ vectors.T


def check_generators(joint: JointError) -> None:
    """At least two generators (whether or not each has an interval)."""
    if len(joint.estimate) < 2:
        raise InputError(
            f"comparing generators needs at least two; this result has {len(joint.estimate)} "
            f"({list(joint.estimate.index)}).",
            value=len(joint.estimate),
        )


def check_joint(joint: JointError) -> None:
    """At least two generators, every estimate finite."""
    check_generators(joint)
    if not np.all(np.isfinite(joint.estimate.to_numpy(dtype=float))):
        bad = joint.estimate[~np.isfinite(joint.estimate.to_numpy(dtype=float))]
        raise InputError(
            f"generator {bad.index[0]!r} has no finite estimate ({bad.iloc[0]!r}); leave it "
            "out before comparing.",
            value=bad.index[0],
        )


def ranked_part(joint: JointError) -> tuple[JointError, np.ndarray, pd.Series]:
    """The joint error of the generators with an interval, their positions, and why each other has none.

    A generator has an interval where its estimate, its error variance and
    (where the joint error carries draws) its draws are finite. The reason
    of one without is ``joint.reasons``' where given, else what is missing.
    With every generator ranked, the joint error is ``joint`` itself.
    """
    estimate = joint.estimate.to_numpy(dtype=float)
    variance = np.diag(joint.covariance.to_numpy(dtype=float))
    finite = np.isfinite(estimate) & np.isfinite(variance)
    if joint.draws is not None:
        finite &= np.isfinite(np.asarray(joint.draws, dtype=float)).all(axis=0)
    keep = np.flatnonzero(finite)
    given = dict(joint.reasons)
    reasons = pd.Series(
        {
            name: given.get(name)
            or (
                "no finite estimate"
                if not np.isfinite(estimate[g])
                else "no finite error variance, so no interval"
            )
            for g, name in zip(np.flatnonzero(~finite), joint.estimate.index[~finite], strict=True)
        },
        dtype=object,
    )
    if finite.all():
        return joint, keep, reasons
    kept = joint.estimate.index[keep]
    ranked = replace(
        joint,
        estimate=joint.estimate.loc[kept],
        covariance=joint.covariance.loc[kept, kept],
        draws=None if joint.draws is None else np.asarray(joint.draws)[:, keep],
        reasons={},
    )
    return ranked, keep, reasons


def pair_positions(
    generators: pd.Index, pairs: Iterable[Sequence[Any]] | None
) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(a, b)`` of the pairs asked for, each once (default: every pair, a before b)."""
    if pairs is None:
        a, b = np.triu_indices(len(generators), k=1)
        return a, b
    a_list, b_list = [], []
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise InputError(
                f"a pair must name two generators, e.g. ('gpt-4o', 'claude'); got {pair!r}.",
                value=pair,
            )
        for name in pair:
            if name not in generators:
                raise InputError(
                    f"pair {tuple(pair)!r} names generator {name!r}, which is not in this "
                    f"result; its generators are {list(generators)}.",
                    value=name,
                )
        if pair[0] == pair[1]:
            raise InputError(f"pair {tuple(pair)!r} names one generator twice.", value=pair)
        a_list.append(generators.get_loc(pair[0]))
        b_list.append(generators.get_loc(pair[1]))
    if not a_list:
        raise InputError("pairs is empty: name at least one pair, or pass None for all.")
    return np.array(a_list), np.array(b_list)


def level_error(alpha: float, n: int) -> float:
    """The Monte Carlo standard deviation of the family-wise level a critical value read off ``n`` draws holds.

    The critical value is the order statistic ``M_(j)`` of the draws of the
    maximum statistic, ``j`` the rank numpy's ``"higher"`` quantile at
    ``1 - alpha`` takes; the level it holds, ``P(M > M_(j))``, is a
    Beta(n - j + 1, j) variable whatever the law of ``M`` (continuous), with
    mean about ``alpha`` and this standard deviation, about
    ``sqrt(alpha (1 - alpha) / n)``. For balanced critical values read off a
    joint error's own draws, each pair's percentile is estimated too: this
    is then the part of the error the maximum makes.
    """
    j = int(np.quantile(np.arange(n), 1 - alpha, method="higher")) + 1
    mean = (n - j + 1) / (n + 1)
    return float(np.sqrt(mean * (1 - mean) / (n + 2)))


class PairFamily:
    """Ordered pairs (both directions of each pair asked for) with the upper tails of their null laws.

    Ordered pair ``i < P`` is ``(a[i], b[i])``; ``P + i`` is ``(b[i], a[i])``,
    whose null draws are those of ``i`` negated. The covariance is read as
    symmetric (the mean of it and its transpose, which leaves a symmetric one
    as it is).

    A joint error given by its law (no draws of its own: a normal, or a
    multivariate t, one chi-square scaling every component) gives every
    ordered pair the same null law, the standard normal or the t with
    ``df`` degrees of freedom, known exactly. Each draw's percentile within
    its pair is then that law's distribution function of its value, the
    largest percentile over the pairs is that of the largest value, and the
    balanced critical value is one for every pair: the ``1 - alpha``
    quantile of the per-draw maximum of the pairs' null values (the max-|t|
    procedure). Its family-wise level has a Monte Carlo error of about
    ``sqrt(alpha (1 - alpha) / n)`` (:func:`level_error`) on a board of any
    size, where percentiles read off the draws would need many more draws
    than ``pairs / alpha`` to resolve. A joint error's own draws (a
    bootstrap, a mixture of laws) keep the percentiles read off them where
    they resolve the balanced level; where they do not (every pair's
    critical value would be its largest draw), one critical value, the
    ``1 - alpha`` quantile of the per-draw maximum of the pairs' null
    values, holds the level as well (the max-|t| step-down of Romano and
    Wolf 2005 over the draws), giving the heavier-tailed pairs more of the
    error budget than balancing would.
    """

    def __init__(
        self,
        joint: JointError,
        a: np.ndarray,
        b: np.ndarray,
        n_draws: int = N_DRAWS,
        seed: SeedLike = 0,
        threads: int = 1,
    ) -> None:
        estimate = joint.estimate.to_numpy(dtype=float)
        scale = joint.covariance.to_numpy(dtype=float)
        scale = (scale + scale.T) / 2
        self.draws = np.ascontiguousarray(error_draws(joint, n_draws, seed).T)
        self.n = self.draws.shape[1]
        #: The quantile function of every pair's common null law where the joint error is given
        #: by its law (the standard normal, or the t), else None. scipy.special's functions are
        #: those scipy.stats.norm and scipy.stats.t call, without importing scipy.stats.
        self.law: Callable[[float], float] | None = None
        #: One critical value for every pair (max-|t|), or balanced percentiles; None: not chosen yet.
        self.common: bool | None = None
        if joint.draws is None:
            df = float(joint.df)
            self.law = special.ndtri if np.isinf(df) else partial(special.stdtrit, df)
            self.common = True
        self.pair_a, self.pair_b = np.asarray(a), np.asarray(b)
        self.a = np.concatenate([self.pair_a, self.pair_b])
        self.b = np.concatenate([self.pair_b, self.pair_a])
        self.difference = estimate[self.a] - estimate[self.b]
        variance = scale[self.a, self.a] + scale[self.b, self.b] - 2 * scale[self.a, self.b]
        self.sd = np.sqrt(np.maximum(variance, SCALE_FLOOR**2))
        self.observed = self.difference / self.sd
        self.threads = max(1, int(threads))
        self.warned = False  # TooFewDrawsWarning, once
        self.tail_draw = np.zeros((len(self.a), 0), dtype=np.int32)
        self.tail_value = np.zeros((len(self.a), 0))

    def __len__(self) -> int:
        return len(self.a)

    # ---------------------------------------------------------------- levels and critical values

    def position(self, level: float) -> int:
        """The tail position (0: the largest draw) of the draw ``quantile(null, level, "higher")`` is."""
        index = int(np.quantile(np.arange(self.n), level, method="higher"))
        return self.n - 1 - index

    def balanced_position(self, alpha: float, active: np.ndarray) -> int:
        """The tail position of every active pair's balanced critical value at family-wise ``alpha``."""
        depth = min(self.n, max(16, int(np.ceil(4 * alpha * self.n / max(active.sum(), 1))) + 8))
        while True:
            if self.tail_draw.shape[1] < depth:
                self.find_tails(depth, active)
            depth = self.tail_draw.shape[1]
            kept = self.tail_draw[active]
            # per draw, the best tail position any active pair gives it (depth: below every tail)
            best = np.full(self.n, depth, dtype=np.int64)
            for j in range(depth - 1, -1, -1):
                best[kept[:, j]] = j
            worst = (self.n - best) / self.n  # the largest percentile per draw, as in min-p
            level = float(np.quantile(worst, 1 - alpha, method="higher"))
            position = self.position(level)
            if (level > (self.n - depth) / self.n and position < depth) or depth == self.n:
                return position
            depth = min(self.n, 4 * depth)

    def balanced_critical(self, alpha: float, active: np.ndarray) -> np.ndarray:
        """Per ordered pair, its balanced critical value over the active pairs at family-wise ``alpha``.

        The first call chooses the procedure for every later one (a step-down
        needs one, whose critical values only fall as the family shrinks):
        one critical value, the maximum's quantile, where the pairs share a
        known law or the draws cannot resolve the balanced level (every
        pair's critical value would be its largest draw); else each pair's
        percentile read off the draws.
        """
        if self.common is None:
            self.common = self.balanced_position(alpha, active) == 0
        if self.common:
            return np.full(len(self), self.max_critical(alpha, active))
        return self.critical(self.balanced_position(alpha, active))

    def max_critical(self, alpha: float, active: np.ndarray) -> float:
        """The ``1 - alpha`` quantile (numpy's ``"higher"``) of the per-draw maximum over the active pairs.

        Read off the kept tails: a draw outside an active pair's tail is at
        most that tail's lowest value, so every per-draw maximum above the
        highest of those lowest values is exact, and the quantile is exact
        when it lies above it; else the tails are found again, deeper.
        """
        depth = min(self.n, max(16, int(np.ceil(4 * alpha * self.n / max(active.sum(), 1))) + 8))
        while True:
            if self.tail_draw.shape[1] < depth:
                self.find_tails(depth, active)
            depth = self.tail_draw.shape[1]
            best = np.full(self.n, -np.inf)
            np.maximum.at(best, self.tail_draw[active].ravel(), self.tail_value[active].ravel())
            index = int(np.quantile(np.arange(self.n), 1 - alpha, method="higher"))
            critical = float(np.sort(best)[index])  # numpy's "higher" quantile of best
            if critical > self.tail_value[active, -1].max() or depth == self.n:
                if index == self.n - 1 and not self.warned:
                    self.warned = True
                    warnings.warn(
                        f"{self.n:,} draws cannot resolve a family-wise level of {alpha}: the "
                        "critical value is the largest draw of the maximum, and the family-wise "
                        "error may exceed alpha; raise n_draws (e.g. result.rank_sets(n_draws="
                        "10_000); a latent-trait fit's draws are its bootstrap replicates).",
                        TooFewDrawsWarning,
                        stacklevel=5,
                    )
                return critical
            depth = min(self.n, 4 * depth)

    def critical(self, position: int) -> np.ndarray:
        """Per ordered pair, its null draw at ``position`` of its tail."""
        return self.tail_value[:, position]

    def single_critical(self, level: float) -> np.ndarray:
        """Per ordered pair, the quantile of its null law at ``level`` (one pair at a time)."""
        if self.law is not None:
            return np.full(len(self), float(self.law(level)))
        position = self.position(level)
        values = np.empty(len(self))
        p = len(self.pair_a)
        for rows, (forward, backward) in self._tail_chunks(position + 1, np.arange(p)):
            values[rows] = forward[1][:, position]
            values[rows + p] = backward[1][:, position]
        return values

    # ---------------------------------------------------------------- the step-down

    def step_down(self, alpha: float) -> tuple[np.ndarray, np.ndarray]:
        """Ordered pairs decided by the step-down at family-wise ``alpha``, and the first step's critical values.

        Decide every active pair whose statistic exceeds its balanced
        critical value over the active pairs; drop them; repeat until a step
        decides nothing (Romano and Wolf 2005). The first step tests every
        pair: its critical values are the simultaneous pair intervals'.
        """
        active = np.ones(len(self), dtype=bool)
        first = self.balanced_critical(alpha, active).copy()
        critical = first
        while True:
            rejected = active & (self.observed > critical)
            if not rejected.any():
                break
            active &= ~rejected
            if not active.any():
                break
            critical = self.balanced_critical(alpha, active)
        return ~active, first

    # ---------------------------------------------------------------- the tails

    def find_tails(self, depth: int, active: np.ndarray) -> None:
        """Keep the ``depth`` largest null draws of every ordered pair with an active direction."""
        p = len(self.pair_a)
        wanted = np.flatnonzero(active[:p] | active[p:])
        draw = np.full((len(self), depth), -1, dtype=np.int32)  # draw ids: n < 2**31
        value = np.full((len(self), depth), np.nan)
        for rows, (forward, backward) in self._tail_chunks(depth, wanted):
            draw[rows], value[rows] = forward
            draw[rows + p], value[rows + p] = backward
        self.tail_draw, self.tail_value = draw, value

    def _tail_chunks(self, depth: int, pairs: np.ndarray) -> Iterator[tuple[np.ndarray, Tails]]:
        """Per chunk of pairs (at most :data:`CHUNK_CELLS` null draws): their rows and tails.

        A chunk holds pairs of one first generator and consecutive second
        ones where it can (every pair, in order), so that its differences are
        read from a slice of the draws without copying them.
        """
        size = max(1, CHUNK_CELLS // self.n)
        a, b = self.pair_a[pairs], self.pair_b[pairs]
        breaks = np.flatnonzero((np.diff(a) != 0) | (np.diff(b) != 1)) + 1
        chunks = [
            run[start : start + size]
            for run in np.split(pairs, breaks)
            for start in range(0, len(run), size)
        ]
        if self.threads == 1:
            for rows in chunks:
                yield rows, self._chunk_tails(rows, depth)
            return
        with ThreadPoolExecutor(self.threads) as pool:
            tails = pool.map(lambda rows: self._chunk_tails(rows, depth), chunks)
            yield from zip(chunks, tails, strict=True)

    def _chunk_tails(self, rows: np.ndarray, depth: int) -> Tails:
        """The forward and backward tails of these pairs (the backward null is the forward negated)."""
        a, b = self.pair_a[rows], self.pair_b[rows]
        if len(rows) > 1 and a[0] == a[-1] and b[-1] - b[0] == len(rows) - 1:
            difference = self.draws[a[0]] - self.draws[b[0] : b[-1] + 1]
        else:
            difference = self.draws[a] - self.draws[b]
        sd = self.sd[rows]
        return _top(difference, sd, depth, 1.0), _top(difference, sd, depth, -1.0)


def _top(
    difference: np.ndarray, sd: np.ndarray, depth: int, sign: float
) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the ``depth`` highest-ranked draws of ``sign * difference / sd`` and their values, highest first.

    Ranks are those of a stable sort. Candidates are picked on the unscaled
    difference (one comparison per draw) with a threshold that about 4 x
    depth draws pass, read off the first draws; only they are scaled and
    sorted. Scaling can merge neighbouring values into a tie, so a row whose
    candidates all tie at or above its depth-th value (or that has too few)
    is ranked whole.
    """
    n_rows, n = difference.shape
    if 4 * depth >= n:
        return _top_exact(difference, sd, depth, sign)
    sample = min(n, SAMPLE_DRAWS)
    above = min(sample, int(np.ceil((4 * depth + 16) * sample / n)))
    signed = difference[:, :sample] * sign  # exact: a sign flip
    threshold = np.partition(signed, sample - above, axis=1)[:, sample - above] * sign
    if sign > 0:
        candidate = difference >= threshold[:, None]
    else:
        candidate = difference <= threshold[:, None]
    flat = np.flatnonzero(candidate)
    row, draw = np.divmod(flat, n)
    count = np.bincount(row, minlength=n_rows)
    value = sign * (difference.reshape(-1)[flat] / sd[row])
    # ascending by (row, value, draw): a stable sort's order, so each row's last entries rank highest
    # (candidates come by row, then draw: two stable sorts make that order, faster than lexsort)
    by_value = np.argsort(value, kind="stable")
    order = by_value[np.argsort(row[by_value], kind="stable")]
    end = np.cumsum(count)
    last = np.maximum(end[:, None] - 1 - np.arange(depth)[None, :], 0)
    take = order[last]
    tail_draw, tail_value = draw[take], value[take]
    lowest = value[order[np.minimum(end - count, len(order) - 1)]]
    whole = np.flatnonzero((count < depth) | ~(lowest < tail_value[:, -1]))
    if len(whole):
        tail_draw[whole], tail_value[whole] = _top_exact(difference[whole], sd[whole], depth, sign)
    return tail_draw, tail_value


def _top_exact(
    difference: np.ndarray, sd: np.ndarray, depth: int, sign: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_top` by a stable sort of every draw."""
    null = sign * (difference / sd[:, None])
    order = np.argsort(null, axis=1, kind="stable")[:, ::-1][:, :depth]
    return order, np.take_along_axis(null, order, axis=1)
