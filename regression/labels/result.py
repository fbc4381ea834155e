"""The partially labelled generators of a fit: their estimates, roles and what each source is worth."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from regression.checks import check_alpha, check_alternative
from regression.labels.design import LabelDesign
from regression.labels.interval import check_interval_method
from regression.labels.partial import COVERS, PartialEstimate, estimate_generator
from regression.registry import BOUNDED_INTERVAL_METHODS
from regression.results import Result, interval_frame

__all__ = ["LABELS_NOTE", "PartialLabels", "fit_partial"]

#: The report card's sentence above :meth:`PartialLabels.worth`.
LABELS_NOTE = (
    "Human labels per generator and what they are worth. A partially labelled generator's "
    "estimate combines its labels (a random sample of its items) and the judges' votes on all "
    "its items (judges_worth: the labels they add, prediction-powered, lam their weight); the "
    "other generators' transfer estimate joins only under an assumed bound on its bias "
    "(transfer_worth: the labels it adds, bias-aware); n_eff is the effective sample size of "
    "the interval and guarantee says what the interval's coverage rests on."
)


@dataclass(frozen=True, eq=False)
class PartialLabels(Result):
    """Roles, label counts and the partially labelled generators' estimates.

    A :class:`~regression.results.Result` of the partially labelled generators
    alone (:meth:`interval`); :meth:`diagnostics` is what each source is worth
    (:meth:`worth`).

    Attributes
    ----------
    roles : Series
        Per generator: ``calibration``, ``partially labelled`` or ``unlabelled``.
    n_labels : Series
        Human labels per generator.
    estimates : dict of str to PartialEstimate
        One per partially labelled generator.
    """

    roles: pd.Series
    n_labels: pd.Series
    estimates: dict[str, PartialEstimate] = field(default_factory=dict)

    covers: ClassVar[str] = COVERS
    method: ClassVar[str] = "partial"
    warnings: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Partially labelled generators"

    def apply(
        self, table: pd.DataFrame, alpha: float = 0.05, alternative: str = "two-sided"
    ) -> pd.DataFrame:
        """``table`` (an interval table indexed by generator) with the partial rows replaced, role and n_labels added."""
        table = table.copy()
        for generator, estimate in self.estimates.items():
            low, high = estimate.bounds(alpha, alternative)
            table.loc[generator, ["estimate", "low", "high"]] = [
                estimate.estimate,
                float(low),
                float(high),
            ]
            table.loc[generator, "method"] = "partial"
        roles = self.roles.reindex(table.index).fillna("unlabelled")
        # a generator the design could calibrate on, left out of this fit's calibration: held out
        left_out = (roles == "calibration") & (table["role"] != "calibration")
        table["role"] = roles.mask(left_out, "held out").to_numpy()
        table["n_labels"] = self.n_labels.reindex(table.index).fillna(0).astype(int).to_numpy()
        return table

    def mark(self, table: pd.DataFrame) -> pd.DataFrame:
        """A ``generator, role, ...`` table (``to_frame``) with the partial rows' role, and ``n_labels``.

        A partially labelled row has no full-label human precision to compare
        with: its ``human`` and ``abs_error`` are NaN.
        """
        table = table.copy()
        partial = table["generator"].isin(list(self.estimates))
        table.loc[partial, "role"] = "partially labelled"
        for column in ("human", "abs_error"):
            if column in table.columns:
                table.loc[partial, column] = np.nan
        table["n_labels"] = (
            self.n_labels.reindex(table["generator"]).fillna(0).astype(int).to_numpy()
        )
        return table

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """The partially labelled generators' intervals alone (:func:`~regression.results.interval_frame`).

        For a fit without a calibration generator, where there is no transfer
        estimate to fill the other rows.
        """
        alpha, alternative = check_alpha(alpha), check_alternative(alternative)
        bounds = [e.bounds(alpha, alternative) for e in self.estimates.values()]
        return interval_frame(
            list(self.estimates),
            [e.estimate for e in self.estimates.values()],
            [float(b.low) for b in bounds],
            [float(b.high) for b in bounds],
            "partial",
            role=["partially labelled"] * len(self.estimates),
            n_labels=[e.n_labels for e in self.estimates.values()],
        )

    def diagnostics(self) -> pd.DataFrame:
        """What each source is worth to each generator's interval (:meth:`worth`)."""
        return self.worth()

    def worth(self) -> pd.DataFrame:
        """Per generator: role, labels used and what the judges and the other generators are worth in labels.

        Columns ``role, n_labels, judges_worth, transfer_worth, n_eff``,
        ``lam`` and ``guarantee``; ``lam`` is the estimate's weight on the
        judges' prediction (PPI++'s power tuning; 0: the labels alone), which
        the floored interval lowers where its floor binds (a weight of
        :data:`~regression.core.floor.LAM_GRID` below it, docs/intervals.md);
        ``n_eff`` is the effective sample size of
        the interval (labels plus what the votes and the other generators
        add); NaN where it does not apply (calibration rows: their labels
        alone; unlabelled rows: no labels to count from). ``guarantee`` says
        what a partially labelled row's coverage rests on (any transfer bias,
        or a bias within the assumed bound); blank on the other rows.
        ``judges_worth`` is exactly 0 where the judges add nothing (``lam`` 0), set
        by structure: there the effective size is the labels' own on the
        interval's scale (finite population, pseudo-labels), not their count, and
        their difference is no worth of the judges.
        """
        table = pd.DataFrame(
            {"role": self.roles, "n_labels": self.n_labels.reindex(self.roles.index).fillna(0)},
        )
        for column in ("judges_worth", "transfer_worth", "n_eff", "lam"):
            table[column] = np.nan
        table["guarantee"] = ""
        table.loc[table["role"] == "calibration", "n_eff"] = table["n_labels"]
        for g, e in self.estimates.items():
            table.loc[g, ["judges_worth", "transfer_worth", "n_eff", "lam", "guarantee"]] = [
                0.0 if e.lam == 0 else e.n_eff_ppi - e.n_labels,
                e.n_transfer,
                e.n_eff,
                e.lam,
                e.guarantee,
            ]
        table["n_labels"] = table["n_labels"].astype(int)
        return table.rename_axis("generator")


def fit_partial(
    design: LabelDesign,
    transfer: pd.Series | None = None,
    transfer_sd: pd.Series | None = None,
    *,
    exclude: tuple[str, ...] | list[str] = (),
    bias_bound: float = float("nan"),
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    seed: int = 0,
) -> PartialLabels:
    """Estimate every partially labelled generator of ``design``.

    Parameters
    ----------
    design : LabelDesign
    transfer, transfer_sd : Series, optional
        The transfer estimate and its standard deviation per generator,
        fitted without the partial labels; a generator absent, or with a NaN
        sd, is not combined.
    exclude : sequence of str
        Partially labelled generators to leave out (named calibration generators).
    bias_bound : float
        The bound ``B`` assumed on the transfer estimate's bias, ``|bias| <= B``
        (a fraction: 0.05 is 5 points; :func:`~regression.labels.bias.bias_bound`
        reads it from the option ``transfer_bias``). NaN (default): nothing is
        assumed, and the transfer estimate gets no weight (the interval holds
        whatever its bias).
    interval_method : {"floored", "betting", "normal"}
        The labels-and-votes interval
        (:data:`~regression.registry.BOUNDED_INTERVAL_METHODS`): ``"floored"``
        (default) keeps the normal width where the labels show the judges'
        errors and a floor where they show none (docs/intervals.md);
        ``"betting"`` holds at any number of labels whatever the judges'
        errors, at about 1.4x the width; ``"normal"`` is the Wilson interval
        at the effective sample size, valid for many labels only
        (:mod:`regression.labels.partial`).
    seed : int
        Seeds the cross-fit folds (used only where the other generators hold
        too few labels) and the betting interval's random orders.

    Raises
    ------
    ValueError
        An unknown ``interval_method``.
    """
    check_interval_method(interval_method)
    estimates = {}
    roles = design.roles.copy()
    for generator in exclude:
        if generator in roles.index:
            roles[generator] = "calibration"
    nan = float("nan")
    for generator in [g for g in design.partial if g not in set(exclude)]:
        known = transfer is not None and transfer_sd is not None and generator in transfer.index
        estimates[generator] = estimate_generator(
            design,
            generator,
            float(transfer[generator]) if known else nan,  # type: ignore[index]
            float(transfer_sd[generator]) if known else nan,  # type: ignore[index]
            bias_bound=bias_bound,
            interval_method=interval_method,
            seed=seed,
        )
    return PartialLabels(roles, design.n_labels().reindex(design.roles.index), estimates)
