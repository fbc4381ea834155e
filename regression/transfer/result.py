"""The result of a :class:`~regression.transfer.model.TransferModel` fit: estimates, intervals, self-check.

:class:`TransferResult` holds the precision per generator, its interval, the
self-check (every estimator's error on the calibration generators, each held
out in turn) and per-generator diagnostics.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import check_alpha, check_alternative
from regression.data.anchors import Anchors
from regression.intervals import normal_quantile, wilson_interval
from regression.labels.result import LABELS_NOTE, PartialLabels
from regression.ranking import N_DRAWS, Ranked
from regression.results import METHODS, JointError, Result, interval_frame, with_roles
from regression.transfer.estimators import (
    ESTIMATORS,
    TRANSFER_PARTS,
    Estimate,
    TransferData,
    leave_one_out,
)
from regression.transfer.joint import COVERS as JOINT_COVERS
from regression.transfer.joint import JointParts, joint_parts, sample_errors

__all__ = ["COVERS", "TransferResult", "with_partial"]

#: The generators whose diagnostic note :meth:`TransferResult.summary` prints.
SUMMARY_NOTES = 20

#: What each estimator's interval covers (:attr:`TransferResult.covers`).
COVERS = {
    "transfer": "the spread of the estimate's own errors on the calibration generators held out "
    "one at a time: transfer between generators, item sampling and the anchors' noise together "
    "(t with s - 1 degrees of freedom)",
    "hierarchical": "the judges' between-generator spread, item sampling, the anchors' noise and "
    "the spread of precision between generators (empirical Bayes, t with s - 1 degrees of freedom)",
    "offset": "the spread of the offsets m_c - h_c between calibration generators (t prediction "
    "interval, s - 1 degrees of freedom)",
    "rogan_gladen_pooled": "item sampling and the anchors' noise only, not that TPR / TNR move between "
    "generators",
    "calibration_mean": "the spread of precision between calibration generators (t prediction "
    "interval, s - 1 degrees of freedom)",
    "mean_of_judges": "nothing: the mean of judges uses no human label, so it has no interval",
}


def _self_check(
    data: TransferData, rates: pd.DataFrame, known: Mapping[str, np.ndarray] | None = None
) -> pd.DataFrame:
    """Signed errors of every estimator on each calibration generator held out (rows).

    ``known``: held-out errors already computed (the stack's parts), not redone.
    """
    names = list(ESTIMATORS)
    known = known or {}
    errors = np.stack(
        [known[name] if name in known else leave_one_out(data, ESTIMATORS[name]) for name in names],
        axis=1,
    )
    index = pd.Index(rates.index[data.calibration], name="generator") if data.s >= 2 else []
    return pd.DataFrame(errors.reshape(len(index), len(names)), index=index, columns=names)


@dataclass(frozen=True, eq=False)
class TransferResult(Ranked, Result):
    """A fitted :class:`TransferModel`.

    Attributes
    ----------
    precision : Series
        Estimated precision per generator.
    method : str
    estimate : Estimate
        The arrays behind ``precision`` and the interval.
    tpr, tnr : Series
        Each validator's TPR / TNR pooled over the calibration generators.
    spread : (float, float)
        Between-generator variance of the judges' logit TPR and logit TNR
        (:func:`~regression.transfer.estimators.logit_spread`).
    warnings : tuple of str
    """

    precision: pd.Series
    method: str
    estimate: Estimate = field(repr=False)
    tpr: pd.Series = field(repr=False)
    tnr: pd.Series = field(repr=False)
    spread: tuple[float, float]
    warnings: tuple[str, ...]
    rates: pd.DataFrame | None = field(default=None, repr=False)
    n: pd.DataFrame | None = field(default=None, repr=False)
    anchors: Anchors | None = field(default=None, repr=False)
    data: TransferData | None = field(default=None, repr=False)
    partial: PartialLabels | None = field(default=None, repr=False)

    #: The keyword options :meth:`summary` passes to :meth:`to_frame`, beyond ``alpha``: the
    #: interval is the estimator's own, so it has no interval settings (the CLI reads this).
    SUMMARY_OPTIONS: ClassVar[tuple[str, ...]] = ("truth",)
    JOINT_OPTIONS: ClassVar[tuple[str, ...]] = ("n_draws",)

    @cached_property
    def loo_errors(self) -> pd.DataFrame:
        """Calibration generators (rows) x estimators (columns): signed held-out errors.

        The error of each estimator on each calibration generator when that
        generator's human labels are held out and the others are used
        (:func:`~regression.transfer.estimators.leave_one_out`); computed on first
        use. Empty below two calibration generators.
        """
        if self.data is None or self.rates is None:
            raise ValueError("this result does not keep its data; refit with TransferModel.fit.")
        # the stack already held out its parts (regression.transfer.estimators.stack)
        residuals = self.estimate.details.get("loo_residuals")
        known = {} if residuals is None else dict(zip(TRANSFER_PARTS, residuals, strict=True))
        return _self_check(self.data, self.rates, known)

    @property
    def youden_j(self) -> pd.Series:
        """Pooled ``J = TPR + TNR - 1`` per validator."""
        return (self.tpr + self.tnr - 1.0).rename("youden_j")

    @property
    def self_check(self) -> pd.DataFrame:
        """Each estimator's held-out error on the calibration generators.

        Index: estimators (this fit's method first); columns ``n`` (calibration
        generators held out), ``rms``, ``min_abs``, ``max_abs`` (fractions, not
        points). Empty below two calibration generators.
        """
        errors = self.loo_errors
        if errors.empty:
            return pd.DataFrame(
                columns=["n", "rms", "min_abs", "max_abs"], index=pd.Index([], name="method")
            )
        order = [self.method] + [m for m in errors.columns if m != self.method]
        absolute = errors[order].abs()
        return pd.DataFrame(
            {
                "n": len(errors),
                "rms": np.sqrt((errors[order] ** 2).mean()),
                "min_abs": absolute.min(),
                "max_abs": absolute.max(),
            }
        ).rename_axis("method")

    def self_check_text(self) -> str:
        """The self-check in one sentence."""
        check = self.self_check
        if len(self.loo_errors) == 0:
            return "one calibration generator: no self-check possible (nothing to hold out)."
        own = check.loc[self.method]
        others = "; ".join(
            f"{METHODS[m]} {100 * check.loc[m, 'rms']:.1f}" for m in check.index if m != self.method
        )
        return (
            f"on your {int(own['n'])} calibration generators, each held out in turn, this "
            f"method's error was {100 * own['min_abs']:.1f}-{100 * own['max_abs']:.1f} points "
            f"(rms {100 * own['rms']:.1f}); rms of the others: {others}."
        )

    @property
    def covers(self) -> str:
        """What the interval accounts for."""
        return COVERS[self.method]

    def transfer_sd(self) -> pd.Series:
        """Each generator's transfer estimate's sd: the normal sd its 95 % interval implies (NaN if none).

        The half-width of its 95 % interval over ``z_0.975``: the bias-aware
        combination (:mod:`regression.labels.bias`) takes the transfer
        estimate as normal, with the spread of its t interval at that level.
        """
        low, high = self.estimate.bounds(0.05)
        return pd.Series((high - low) / (2 * normal_quantile(0.05)), index=self.precision.index)

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """Per-generator interval for the precision.

        Parameters
        ----------
        alpha : float
            1 - confidence level.
        alternative : {"two-sided", "less", "greater"}

        Returns
        -------
        DataFrame
            Index: generators; the contract's columns
            (:func:`regression.results.interval_frame`): ``estimate, low, high``
            (NaN where the method gives no interval), ``method``, ``role`` and
            ``n_labels``. A calibration generator's interval is the Wilson
            interval of its own human labels; :attr:`covers` says what the
            others cover (a t with ``estimate.df`` degrees of freedom).
        """
        alpha = check_alpha(alpha)
        check_alternative(alternative)
        low, high = self.estimate.bounds(alpha, alternative)
        n_labels = np.zeros(len(self.precision), dtype=int)
        role = np.full(len(self.precision), "unlabelled", dtype=object)
        if self.data is not None and self.anchors is not None:
            # calibration generators: the Wilson interval of their own human labels
            rows = self.data.calibration
            role[rows] = "calibration"
            low[rows], high[rows] = np.nan, np.nan
            counts = self.anchors.precision_n
            if counts is not None:
                n = counts.reindex(self.precision.index[rows]).to_numpy(dtype=float)
                k = np.rint(self.data.precision * n)
                wilson = wilson_interval(k, n, alpha, alternative)
                low[rows], high[rows] = wilson.low, wilson.high
                n_labels[rows] = np.nan_to_num(n).astype(int)
        table = interval_frame(
            self.precision.index,
            self.precision.to_numpy(),
            low,
            high,
            self.method,
            role=list(role),
            n_labels=n_labels,
        )
        if self.partial is not None:  # partial labels, role and n_labels (regression.labels)
            table = self.partial.apply(table, alpha, alternative)
        return table

    @cached_property
    def joint_parts(self) -> JointParts:
        """The shared, specific and label parts of the estimates' error (:mod:`regression.transfer.joint`)."""
        if self.data is None or self.anchors is None:
            raise ValueError("this result does not keep its data; refit with TransferModel.fit.")
        counts = self.anchors.precision_n
        calibration = self.precision.index[self.data.calibration]
        label_n = None if counts is None else counts.reindex(calibration).to_numpy(dtype=float)
        residuals = self.loo_errors[self.method].to_numpy(dtype=float)
        partial: dict[int, tuple[float, float]] = {}
        if self.partial is not None:
            for generator, estimate in self.partial.estimates.items():
                partial[self.precision.index.get_loc(generator)] = (
                    estimate.weight,
                    estimate.own_sd,
                )
        correlation = self.anchors.precision_correlation
        label_correlation = (
            None
            if correlation is None
            else correlation.reindex(index=calibration, columns=calibration).to_numpy()
        )
        return joint_parts(
            self.data, self.estimate.se, residuals, label_n, partial, label_correlation
        )

    def joint_error(
        self, *, n_draws: int = N_DRAWS, seed: int = 0, df: float | None = None
    ) -> JointError:
        """The joint law of every generator's error, for :meth:`compare` and :meth:`rank_sets`.

        What it counts is :mod:`regression.transfer.joint`'s module docstring:
        the held-out errors of the self-check, split by the method of moments
        into a part the unlabelled generators share and a part specific to
        each, the calibration generators' label sampling, and for a partially
        labelled generator its own interval, leaning on the transfer estimate
        by its share of the effective sample size. Each unlabelled generator's
        marginal scale is that of its :meth:`interval`.

        ``df`` replaces the t scale's degrees of freedom (default ``s - 1``,
        what ``s`` held-out errors carry). A larger value trusts the scale
        beyond the data; it exists for the ablation of ``docs/ranking.md``,
        which measures what that costs in coverage.

        Raises
        ------
        ValueError
            Below two calibration generators (no interval to build it from).
        """
        parts = self.joint_parts if df is None else replace(self.joint_parts, df=float(df))
        table = self.interval()
        index = pd.Index(self.precision.index, name="generator")
        return JointError(
            estimate=pd.Series(table["estimate"].to_numpy(), index=index, name="estimate"),
            covariance=pd.DataFrame(parts.covariance(), index=index, columns=index),
            df=parts.df,
            draws=sample_errors(parts, n_draws, seed),
            covers=JOINT_COVERS,
        )

    def diagnostics(self, *, calibration: bool = True) -> pd.DataFrame:
        """Per generator: how much the judges say about it and how much the estimate follows them.

        ``calibration=False`` leaves out the calibration generators, whose
        estimate is their human labels: the rows a reader of the notes wants.

        Columns: ``validators`` (that judged it), ``informative`` (of them with
        pooled J > 0), ``youden_j`` (their mean pooled J: a 1-point change in
        precision moves their mean vote by that many points under eq. (1)),
        ``follows_judges`` (how far the estimate moves per point of precision
        the judges' votes signal: the response of the estimate to a shift of
        the row's rates, times ``youden_j``; 1 = as the fixed model reads the
        votes, 0 = not at all, the estimate then rests on the calibration
        generators) and ``note`` (a sentence). Calibration generators have no
        ``follows_judges`` (their estimate is their human labels).
        """
        if self.data is None:
            raise ValueError("this result does not keep its data; refit with TransferModel.fit.")
        data = self.data
        present = data.n > 0
        j = (self.tpr + self.tnr - 1.0).to_numpy()
        mean_j = np.where(present, j[None, :], 0.0).sum(axis=1) / np.maximum(present.sum(axis=1), 1)
        step = 1e-4
        # shift the unlabelled rows only: shifting the calibration rows too would move the
        # offsets and anchors with them and cancel the response
        unlabelled = np.ones(data.n_generators, dtype=bool)
        unlabelled[data.calibration] = False
        moved_rates = np.where(
            unlabelled[:, None], np.clip(data.rates + step, 0.0, 1.0), data.rates
        )
        shifted = TransferData(
            moved_rates, data.n, data.confusion, data.calibration, data.precision
        )
        moved = ESTIMATORS[self.method](shifted).precision - self.estimate.precision
        follows = np.clip(moved / step * mean_j, 0.0, None)
        notes = [
            f"the judges' J on this kind of data is {jj:.2f}: a 1-point change in precision "
            f"moves their votes by {jj:.2f} points; the estimate follows {f:.0%} of what they "
            + ("signal" if f >= 0.5 else "signal and rests mostly on the calibration generators")
            for jj, f in zip(mean_j, follows, strict=True)
        ]
        table = pd.DataFrame(
            {
                "validators": present.sum(axis=1),
                "informative": (present & (j > 0)[None, :]).sum(axis=1),
                "youden_j": mean_j,
                "follows_judges": follows,
                "note": notes,
            },
            index=self.precision.index,
        )
        table.iloc[data.calibration, table.columns.get_loc("follows_judges")] = np.nan
        table.iloc[data.calibration, table.columns.get_loc("note")] = "calibration generator"
        if self.partial is not None:  # its estimate is its labels and votes (regression.labels)
            for generator, estimate in self.partial.estimates.items():
                if not estimate.weight > 0:
                    transfer = "not on the transfer from the others"
                elif estimate.transfer_contradicted:
                    transfer = (
                        f"and the transfer from the others at weight {estimate.weight:.2f}, "
                        "though its labels reject a transfer bias within the assumed bound "
                        "(a test at level 5 %)"
                    )
                else:
                    transfer = (
                        f"and the transfer from the others at weight {estimate.weight:.2f}, "
                        "within the bias bound"
                    )
                table.loc[generator, "follows_judges"] = np.nan
                table.loc[generator, "note"] = (
                    "partially labelled: the estimate rests on its own labels and the judges' "
                    f"votes on its items, {transfer} (the labels table)"
                )
        if not calibration:
            return table.drop(index=self.precision.index[data.calibration])
        return table

    def details(self, alpha: float = 0.05, *, truth: pd.Series | None = None) -> pd.DataFrame:
        """Per generator: role, human precision, items and error (:func:`~regression.results.with_roles`).

        ``truth``: human precision where known (default: the calibration
        generators'); ``role`` is ``calibration``, ``held out`` (human precision
        the fit did not use), ``partially labelled`` or ``unlabelled``;
        ``abs_error`` for held-out rows.
        """
        anchors = self.anchors if self.anchors is not None else Anchors()
        known = anchors.precision if truth is None else pd.Series(truth, dtype=float)
        table = pd.DataFrame(
            {"generator": self.precision.index, "estimate": self.precision.to_numpy()}
        )
        table = with_roles(table, known, self.n, anchors.calibration_generators)
        if self.partial is not None:  # partially labelled rows (regression.labels)
            table = self.partial.mark(table)
        return table.set_index("generator")[["role", "human", "n", "abs_error"]]

    ESTIMATES: ClassVar[str] = "precision"

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        return f"New-generator estimate ({self.method}: {METHODS[self.method]})"

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """What the interval covers, the self-check, the judges' spread, the generators' notes."""
        notes = self.diagnostics(calibration=False)["note"]
        lines = [
            f"{1 - alpha:.0%} intervals covering {self.covers}.",
            "self-check: " + self.self_check_text(),
            f"Judges: between-generator spread of logit TPR {self.spread[0] ** 0.5:.2f}, "
            f"of logit TNR {self.spread[1] ** 0.5:.2f} (sd).",
        ]
        lines += [f"{g}: {note}" for g, note in notes.iloc[:SUMMARY_NOTES].items()]
        if len(notes) > SUMMARY_NOTES:
            lines.append(f"... and {len(notes) - SUMMARY_NOTES} more (see diagnostics()).")
        if self.partial is not None and self.partial.estimates:
            lines.append(LABELS_NOTE)
        return tuple(lines)

    def summary_tables(self, alpha: float, **options: Any) -> dict[str, pd.DataFrame]:
        """The self-check, the validators' TPR, TNR and J, and the partial labels' worth."""
        validators = pd.DataFrame({"tpr": self.tpr, "tnr": self.tnr, "youden_j": self.youden_j})
        tables = {"self-check": self.self_check, "validators": validators}
        if self.partial is not None and self.partial.estimates:
            tables["labels"] = self.partial.worth()
        return tables


def with_partial(result: TransferResult, partial: PartialLabels) -> TransferResult:
    """``result`` with the partially labelled generators' estimates of ``partial`` (:mod:`regression.labels`)."""
    precision = result.precision.copy()
    for generator, estimate in partial.estimates.items():
        precision[generator] = estimate.estimate
    return replace(result, precision=precision, partial=partial)
