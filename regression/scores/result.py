""":class:`ScoreResult`: each generator's mean human rating on the result contract, ranked through
:mod:`regression.ranking`, with the judges' calibration and the transport check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from scipy import stats

from regression.checks import SeedLike, check_alpha, check_alternative
from regression.core.covariance import joint_covariance
from regression.intervals import ConfidenceInterval, normal_quantile
from regression.labels.bias import held_out_bound
from regression.ranking import Ranked
from regression.registry import BOUNDED_INTERVAL_METHODS
from regression.results import JointError, Result, interval_frame
from regression.scores.estimate import RatedEstimate
from regression.scores.predict import Predictor
from regression.scores.table import ScoreTable

__all__ = ["TRANSPORT_COVERS", "ScoreResult"]

_DESIGN = "the random choice of the rated outputs (design-based, inverse-probability weighted)"
#: What a transported generator's interval accounts for.
TRANSPORT_COVERS = (
    "the calibration carried over from the rated generators, within the transport bound "
    "learnt from them held out in turn"
)


@dataclass(frozen=True, eq=False)
class ScoreResult(Ranked, Result):
    """Each generator's mean human rating over its scored outputs, with its interval.

    Attributes
    ----------
    table : ScoreTable
        The checked tables.
    rated : dict of generator to RatedEstimate
        The generators with their own estimate (on the [0, 1]-rescaled scale).
    transported : Series
        Per generator: the mean prediction over its outputs from the predictor
        fitted on every rated output (rescaled); a generator without enough
        ratings takes it as its estimate.
    held_out : Series
        Per rated generator: its transported estimate with its own ratings
        held out (rescaled; NaN where no other generator is rated).
    predictor : Predictor
        Fitted on every rated output (the calibration curves and the stack).
    interval_method : str
        ``"floored"``, ``"betting"`` or ``"normal"`` (the rated generators' interval).
    method : str
        ``"ppi++"``, or ``"labels_only"`` (the ratings alone).
    transport_bias : float or str or None
        The transport bound in rating points, ``"held-out"`` (learnt), or None
        (no bound assumed: a transported interval is the whole scale).
    warnings : tuple of str
    seed : int
        Seeds the betting interval.
    """

    table: ScoreTable
    rated: dict[Any, RatedEstimate]
    transported: pd.Series
    held_out: pd.Series
    predictor: Predictor = field(repr=False)
    interval_method: str = BOUNDED_INTERVAL_METHODS[0]
    method: str = "ppi++"
    transport_bias: float | str | None = "held-out"
    warnings: tuple[str, ...] = ()
    seed: int = 0
    # computed once each: the betting intervals take a few milliseconds per generator
    _widths: dict[tuple[Any, bool], float] = field(default_factory=dict, init=False, repr=False)
    _intervals: dict[tuple[Any, float, str], ConfidenceInterval] = field(
        default_factory=dict, init=False, repr=False
    )

    title: ClassVar[str] = "Mean human rating per generator"
    ESTIMATES: ClassVar[str] = "mean ratings"

    @property
    def covers(self) -> str:
        """What the intervals account for, in a sentence."""
        kind = {
            "floored": "Student's interval, each side at least the score side the rating "
            "scale's bounds allow, the side a skewed sample's empirical likelihood interval "
            "lengthens, and the shift of a share of outputs beyond the ratings' extremes that "
            "they may have missed",
            "betting": "bounded betting interval (Waudby-Smith & Ramdas, 2024) on the rating scale",
        }.get(
            self.interval_method,
            "Wilson's score interval at the effective sample size of the linearised estimate",
        )
        judges = " and the judges' errors on them" if self.method == "ppi++" else ""
        return (
            f"{_DESIGN}{judges} where a generator is rated ({kind}), and where it is "
            f"transported, {TRANSPORT_COVERS}"
        )

    # --- scale -------------------------------------------------------------------------

    def _to_scale(self, values: Any) -> np.ndarray:
        low, high = self.table.scale
        return low + (high - low) * np.asarray(values, dtype=float)

    @property
    def span(self) -> float:
        """The width of the rating scale."""
        return float(self.table.scale[1] - self.table.scale[0])

    @property
    def estimate(self) -> pd.Series:
        """Per generator, on the rating scale: its own estimate where rated, else transported."""
        values = self.transported.copy()
        for g, fit in self.rated.items():
            values[g] = fit.estimate
        return pd.Series(self._to_scale(values), index=values.index, name="estimate")

    # --- transport ---------------------------------------------------------------------

    def held_out_errors(self) -> pd.Series:
        """Per rated generator: held-out transported estimate minus its own estimate (rating points)."""
        own = pd.Series({g: fit.estimate for g, fit in self.rated.items()}, dtype=float)
        return ((self.held_out - own.reindex(self.held_out.index)) * self.span).rename(
            "held_out_error"
        )

    def transport_bound(self, alpha: float = 0.05) -> float:
        """The transport bound ``B`` in rating points at level ``alpha``: as set, or learnt.

        Learnt (``"held-out"``): ``max_c (|r_c| + z se_c)`` over the rated
        generators held out in turn (:func:`~regression.labels.bias.held_out_bound`),
        ``r_c`` the held-out error and ``se_c`` the standard error of ``c``'s
        own estimate; infinite with fewer than two rated generators.
        """
        if self.transport_bias is None:
            return float("inf")
        if self.transport_bias != "held-out":
            return float(self.transport_bias)
        errors = self.held_out_errors().dropna()
        if errors.empty:
            return float("inf")
        se = np.array([self.sd(g) for g in errors.index])
        return held_out_bound(errors.to_numpy(), se, alpha)

    def sd(self, generator: Any, judges: bool = True) -> float:
        """A rated generator's standard error in rating points: its 95 % interval's half-width over ``z``.

        From the interval the result reports (betting or normal), so the
        transport bound, the judges' worth and the joint error read the
        uncertainty the intervals show. ``judges=False``: the ratings alone.
        """
        key = (generator, judges)
        if key not in self._widths:
            fit = self.rated[generator]
            if judges:
                low, high = self._bounds(generator, 0.05, "two-sided")
            else:
                alone = fit.ratings_alone()
                low, high = alone.bounds(self.interval_method, 0.05, "two-sided", seed=self.seed)
            self._widths[key] = float(high - low) * self.span / (2 * normal_quantile(0.05))
        return self._widths[key]

    def worth(self, generator: Any) -> float:
        """The ratings the judges are worth to a rated generator: ``n ((sd_ratings / sd)^2 - 1)``.

        Read off the reported intervals' widths (:meth:`sd`): the ratings alone
        would need this many more for an interval as narrow. Exactly 0 where
        ``lam`` is 0 (the ratings alone), by structure; negative where the
        judges cost width (a betting interval pays for tuning ``lam`` on the
        first few ratings).
        """
        fit = self.rated[generator]
        if fit.lam == 0 or not fit.judges:
            return 0.0
        sd = self.sd(generator)
        return (
            float(fit.y.size * ((self.sd(generator, judges=False) / sd) ** 2 - 1.0)) if sd else 0.0
        )

    # --- the contract ------------------------------------------------------------------

    def _bounds(self, g: Any, alpha: float, alternative: str) -> ConfidenceInterval:
        """One generator's interval on the rescaled [0, 1] scale (a rated one's computed once per level)."""
        fit = self.rated.get(g)
        if fit is not None:
            key = (g, alpha, alternative)
            if key not in self._intervals:
                self._intervals[key] = fit.bounds(
                    self.interval_method, alpha, alternative, seed=self.seed
                )
            return self._intervals[key]
        bound = self.transport_bound(alpha) / self.span
        centre = float(self.transported[g])
        low = 0.0 if alternative == "less" else max(centre - bound, 0.0)
        high = 1.0 if alternative == "greater" else min(centre + bound, 1.0)
        return ConfidenceInterval(np.float64(low), np.float64(high))

    def roles(self) -> pd.Series:
        """Per generator: ``calibration`` (every output rated), ``partially labelled`` or ``transported``."""
        n_labels = self.table.n_labels()
        n_outputs = self.n_outputs()
        role = np.where(
            ~self.table.generators.isin(list(self.rated)),
            "transported",
            np.where(n_labels == n_outputs, "calibration", "partially labelled"),
        )
        return pd.Series(role, index=self.table.generators, name="role")

    def n_outputs(self) -> pd.Series:
        """Scored outputs per generator."""
        counts = pd.Series(self.table.generator_codes).value_counts()
        return pd.Series(
            counts.reindex(range(len(self.table.generators)), fill_value=0).to_numpy(dtype=int),
            index=self.table.generators,
            name="n_outputs",
        )

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """Per generator: ``estimate, low, high, method, role, n_labels`` on the rating scale.

        Each interval holds for its generator alone; for all at once use
        :meth:`joint_error` (comparisons, rank sets).
        """
        alpha, alternative = check_alpha(alpha), check_alternative(alternative)
        generators = list(self.table.generators)
        bounds = [self._bounds(g, alpha, alternative) for g in generators]
        return interval_frame(
            generators,
            self.estimate.reindex(generators),
            self._to_scale([float(b.low) for b in bounds]),
            self._to_scale([float(b.high) for b in bounds]),
            [self.method if g in self.rated else "transported" for g in generators],
            role=list(self.roles().reindex(generators)),
            n_labels=self.table.n_labels().reindex(generators),
        )

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """Per generator, beside the interval: ``n_outputs``, ``lam`` and ``judges_worth``."""
        diagnostics = self.diagnostics()
        return diagnostics[["n_outputs", "lam", "judges_worth"]]

    def diagnostics(self) -> pd.DataFrame:
        """Per generator: what the judges are worth and whether the calibration carries over.

        Columns ``role, n_labels, n_outputs``; ``lam`` (the estimate's weight
        on the judges' prediction, 0: the ratings alone) and ``judges_worth``
        (the ratings the judges are worth, :meth:`worth`, read off the
        interval: where the floor binds, the floored interval takes the weight
        of :data:`~regression.core.floor.LAM_GRID` whose normal part and
        shift together are least, and worth 0 with ``lam`` above 0 says that
        was the ratings alone, worth below 0 that it is wider than the ratings'
        own interval); ``transported`` (the mean rating the calibration carried
        over from the other rated generators gives: for a rated generator with
        its own ratings held out), ``held_out_error`` (that minus its own
        estimate) and ``carries_over`` (whether the held-out transported mean
        lies in the generator's own 95 % interval; blank for a transported
        generator, which has no ratings to check it by); ``outside_range``
        (the share of its outputs whose scores lie outside every rated output's
        range for some judge: the calibration there is extrapolated).
        """
        generators = self.table.generators
        lam = pd.Series({g: fit.lam for g, fit in self.rated.items()}, dtype=float)
        worth = pd.Series({g: self.worth(g) for g in self.rated}, dtype=float)
        transported = self.held_out.combine_first(self.transported)
        ci = self.interval(0.05)
        inside = (ci["low"] <= self._to_scale(transported.reindex(generators))) & (
            self._to_scale(transported.reindex(generators)) <= ci["high"]
        )
        carries = np.where(
            ~generators.isin(list(self.rated)) | self.held_out.reindex(generators).isna(),
            "",
            np.where(inside, "yes", "no"),
        )
        table = pd.DataFrame(
            {
                "role": self.roles(),
                "n_labels": self.table.n_labels(),
                "n_outputs": self.n_outputs(),
                "lam": lam.reindex(generators),
                "judges_worth": worth.reindex(generators),
                "transported": self._to_scale(transported.reindex(generators)),
                "held_out_error": self.held_out_errors().reindex(generators),
                "carries_over": carries,
                "outside_range": self.outside_range(),
            },
            index=generators,
        )
        return table

    def outside_range(self) -> pd.Series:
        """Per generator: the share of its outputs with a judge's score outside that judge's rated range."""
        scores, rated = self.table.scores, self.table.rated
        with np.errstate(invalid="ignore"):
            low = np.nanmin(np.where(rated[:, None], scores, np.nan), axis=0)
            high = np.nanmax(np.where(rated[:, None], scores, np.nan), axis=0)
            outside = ((scores < low) | (scores > high)).any(axis=1)
        share = pd.Series(outside).groupby(self.table.generator_codes).mean()
        return pd.Series(
            share.to_numpy(), index=self.table.generators[share.index], name="outside_range"
        )

    def judges(self) -> pd.DataFrame:
        """Per judge: its calibration to the humans on the rated outputs.

        Columns ``n_scored`` (outputs it scored), ``n_rated`` (of them rated),
        ``spearman`` (rank correlation of its score with the rating),
        ``weight`` (its non-negative stacking weight on the rescaled scale:
        near 0 for a judge that adds nothing to the others) and
        ``calibrated_range`` (the span of ratings its curve maps its scores to).
        """
        scores, rated = self.table.scores, self.table.rated
        y = self.table.units["human"].to_numpy(dtype=float)
        rows = []
        for j, curve in enumerate(self.predictor.curves):
            seen = ~np.isnan(scores[:, j])
            both = seen & rated
            rho = float("nan")
            if both.sum() > 2 and np.ptp(scores[both, j]) > 0 and np.ptp(y[both]) > 0:
                rho = float(stats.spearmanr(scores[both, j], y[both]).statistic)
            spread = float("nan") if curve is None else float(np.ptp(curve.values)) * self.span
            rows.append(
                (int(seen.sum()), int(both.sum()), rho, float(self.predictor.weights[j]), spread)
            )
        return pd.DataFrame(
            rows,
            columns=["n_scored", "n_rated", "spearman", "weight", "calibrated_range"],
            index=self.table.validators,
        )

    def calibration_curves(self) -> pd.DataFrame:
        """Each judge's calibration curve: ``validator, score, rating`` (rating on the scale).

        The isotonic fit of the rating on the judge's score over every rated
        output (:mod:`regression.scores.predict`), one row per distinct score.
        """
        parts = [
            pd.DataFrame(
                {"validator": v, "score": curve.scores, "rating": self._to_scale(curve.values)}
            )
            for v, curve in zip(self.table.validators, self.predictor.curves, strict=True)
            if curve is not None
        ]
        return (
            pd.concat(parts, ignore_index=True)
            if parts
            else pd.DataFrame(columns=["validator", "score", "rating"])
        )

    def joint_error(self, *, seed: SeedLike = 0) -> JointError:
        """The estimates' joint error, normal, on the rating scale (``seed`` unused).

        Each rated generator's standard deviation is its interval's (:meth:`sd`);
        two rated generators' correlation is their linearised terms'
        (:func:`~regression.core.covariance.joint_covariance`), paired where the
        same item was rated for both (their terms share a row), so a comparison
        on shared prompts is as sure as the pairing makes it. Transported
        generators: independent, with standard deviation ``B / z`` (their
        interval's half-width read as normal).
        """
        generators = list(self.table.generators)
        position = {g: i for i, g in enumerate(generators)}
        items = self.table.units["item"]
        rated_items = pd.Index(pd.unique(items[self.table.rated]))
        phi = np.zeros((len(rated_items), len(generators)))
        codes = self.table.generator_codes
        for g, fit in self.rated.items():
            on = self.table.rated & (codes == position[g])
            phi[rated_items.get_indexer(items[on]), position[g]] = fit.terms
        linearised = joint_covariance(phi)
        spread = np.sqrt(np.diag(linearised))
        with np.errstate(invalid="ignore", divide="ignore"):
            correlation = linearised / np.outer(spread, spread)
        correlation = np.where(np.isfinite(correlation), correlation, 0.0)
        np.fill_diagonal(correlation, 1.0)
        bound = self.transport_bound(0.05) / normal_quantile(0.05)
        sd = np.array([self.sd(g) if g in self.rated else bound for g in generators])
        unbounded = ~np.isfinite(sd)
        finite = np.where(unbounded, 0.0, sd)
        covariance = correlation * np.outer(finite, finite)
        covariance[unbounded, :] = np.nan  # no law to rank by: the reasons say why
        covariance[:, unbounded] = np.nan
        index = pd.Index(generators, name="generator")
        reasons = {
            g: "transported without a finite bound (fewer than two rated generators)"
            for g in generators
            if unbounded[position[g]]
        }
        return JointError(
            self.estimate.reindex(index),
            pd.DataFrame(covariance, index=index, columns=index),
            covers=self.covers,
            reasons=reasons,
        )

    def summary_tables(self, alpha: float, **options: Any) -> dict[str, pd.DataFrame]:
        """The generators' diagnostics and the judges' calibration."""
        return {"generators": self.diagnostics(), "judges": self.judges()}

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The level, what the intervals cover, the scale, and the transport bound."""
        low, high = self.table.scale
        notes = [
            f"{1 - alpha:.0%} intervals, each for its generator alone, cover {self.covers}.",
            f"Ratings on the scale ({low:g}, {high:g}); {int(self.table.rated.sum())} of "
            f"{len(self.table.units)} scored outputs rated.",
        ]
        diagnostics = self.diagnostics()
        apart = list(diagnostics.index[diagnostics["carries_over"] == "no"])
        if apart:
            notes.append(
                "The calibration does not carry over to "
                + ", ".join(map(str, apart))
                + ": with its own ratings held out, the other generators' calibration gives a "
                "mean rating outside its interval (held_out_error), so a transported estimate "
                "can be as far off for a generator like it."
            )
        if (self.roles() == "transported").any():
            bound = self.transport_bound(alpha)
            if np.isfinite(bound):
                notes.append(
                    f"Transport bound: {bound:.3g} rating points "
                    f"({self.transport_bias if isinstance(self.transport_bias, str) else 'set'})."
                )
            elif self.transport_bias is None:
                notes.append(
                    "No transport bound (transport_bias=None): the transported generators' "
                    "intervals are the whole scale."
                )
            else:
                notes.append(
                    "No transport bound could be learnt: it needs two rated generators, each "
                    "held out in turn; the transported generators' intervals are the whole scale."
                )
        return tuple(notes)
