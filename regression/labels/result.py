"""The partially labelled generators of a fit: their estimates, roles and what each source is worth."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from regression.intervals import normal_quantile
from regression.labels.design import LabelDesign
from regression.labels.partial import COVERS, PartialEstimate, estimate_generator
from regression.results import interval_frame

__all__ = ["LABELS_NOTE", "PartialLabels", "fit_partial", "transfer_sd"]

#: The report card's sentence above :meth:`PartialLabels.worth`.
LABELS_NOTE = (
    "Human labels per generator and what they are worth. A partially labelled generator's "
    "estimate combines its labels (a random sample of its items), the judges' votes on all "
    "its items (judges_worth: the labels they add, prediction-powered, lam their weight) and "
    "the other generators (transfer_worth: the labels the transfer estimate adds, discounted "
    "by its disagreement with the labels); n_eff is the effective sample size of the interval."
)


def transfer_sd(
    table: pd.DataFrame | None, generator: str, alpha: float = 0.05
) -> tuple[float, float]:
    """The transfer estimate and the normal sd its ``1 - alpha`` interval implies (NaN if none)."""
    if table is None or generator not in table.index:
        return float("nan"), float("nan")
    row = table.loc[generator]
    sd = (float(row["high"]) - float(row["low"])) / (2 * normal_quantile(alpha))
    return float(row["estimate"]), sd


@dataclass(frozen=True, eq=False)
class PartialLabels:
    """Roles, label counts and the partially labelled generators' estimates.

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

    covers = COVERS

    def apply(
        self, table: pd.DataFrame, alpha: float = 0.05, alternative: str = "two-sided"
    ) -> pd.DataFrame:
        """``table`` (an interval table indexed by generator) with the partial rows replaced, role and n_labels added."""
        table = table.copy()
        for generator, estimate in self.estimates.items():
            low, high = estimate.interval(alpha, alternative)
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
        bounds = [e.interval(alpha, alternative) for e in self.estimates.values()]
        return interval_frame(
            list(self.estimates),
            [e.estimate for e in self.estimates.values()],
            [float(b.low) for b in bounds],
            [float(b.high) for b in bounds],
            "partial",
            role=["partially labelled"] * len(self.estimates),
            n_labels=[e.n_labels for e in self.estimates.values()],
        )

    def worth(self) -> pd.DataFrame:
        """Per generator: role, labels used and what the judges and the other generators are worth in labels.

        Columns ``role, n_labels, judges_worth, transfer_worth, n_eff`` and
        ``lam``; ``n_eff`` is the effective sample size of the estimate (labels
        plus what the votes and the other generators add); NaN where it does
        not apply (calibration rows: their labels alone; unlabelled rows: no
        labels to count from).
        """
        table = pd.DataFrame(
            {"role": self.roles, "n_labels": self.n_labels.reindex(self.roles.index).fillna(0)},
        )
        for column in ("judges_worth", "transfer_worth", "n_eff", "lam"):
            table[column] = np.nan
        table.loc[table["role"] == "calibration", "n_eff"] = table["n_labels"]
        for g, e in self.estimates.items():
            table.loc[g, ["judges_worth", "transfer_worth", "n_eff", "lam"]] = [
                e.n_eff_ppi - e.n_labels,
                e.n_transfer,
                e.n_eff,
                e.lam,
            ]
        table["n_labels"] = table["n_labels"].astype(int)
        return table.rename_axis("generator")


def fit_partial(
    design: LabelDesign,
    transfer: pd.DataFrame | None = None,
    *,
    exclude: tuple[str, ...] | list[str] = (),
    seed: int = 0,
) -> PartialLabels:
    """Estimate every partially labelled generator of ``design``.

    Parameters
    ----------
    design : LabelDesign
    transfer : DataFrame, optional
        The transfer estimate's 95 % interval table (``estimate, low, high``
        indexed by generator), fitted without the partial labels; rows with a
        NaN bound are not combined.
    exclude : sequence of str
        Partially labelled generators to leave out (named calibration generators).
    seed : int
        Seeds the cross-fit folds (used only where the other generators hold
        too few labels).
    """
    estimates = {}
    roles = design.roles.copy()
    for generator in exclude:
        if generator in roles.index:
            roles[generator] = "calibration"
    for generator in [g for g in design.partial if g not in set(exclude)]:
        t, sd = transfer_sd(transfer, generator)
        estimates[generator] = estimate_generator(design, generator, t, sd, seed=seed)
    return PartialLabels(roles, design.n_labels().reindex(design.roles.index), estimates)
