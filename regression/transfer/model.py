"""The estimators of :mod:`regression.transfer.estimators` as a fitted model with pandas in and out.

:class:`TransferModel` takes what :class:`~regression.latent.model.LatentTraitModel`
takes (a matrix with its counts and :class:`~regression.data.anchors.Anchors`,
or the judgments table with human labels) and returns a :class:`TransferResult`:
the precision per generator, its interval, the self-check (every estimator's
error on the calibration generators, each held out in turn) and per-generator
diagnostics.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np
import pandas as pd

from regression.data.anchors import Anchors
from regression.data.counts import Counts, counts_from_encoded
from regression.data.judgments import HumanLabels
from regression.data.matrix import check_new_rows, default_n, matrix_inputs
from regression.labels.bias import HELD_OUT, bias_bound
from regression.labels.design import LabelDesign, label_design
from regression.labels.result import fit_partial
from regression.registry import BOUNDED_INTERVAL_METHODS, TRANSFER_METHODS
from regression.settings import Interval, Options, Settings
from regression.transfer.adapter import transfer_data
from regression.transfer.estimators import ESTIMATORS, logit_spread, pooled_anchors
from regression.transfer.result import TransferResult, with_partial

__all__ = ["TransferModel"]


class TransferModel(Settings):
    """An estimator of new generators' precision that holds when judges move between generators.

    Parameters
    ----------
    method : str
        One of ``"transfer"`` (default: :func:`~regression.transfer.estimators.transfer`),
        ``"hierarchical"``, ``"offset"``, ``"rogan_gladen_pooled"``, ``"calibration_mean"``,
        ``"mean_of_judges"`` (:data:`regression.registry.TRANSFER_METHODS`).
    transfer_bias : None, "held-out" or float
        What is assumed of the transfer estimate's bias for a partially
        labelled generator (:meth:`label_partial`): None (default: nothing,
        its interval rests on its labels and votes), a bound in [0, 1] (a
        fraction: 0.05 is 5 points), or ``"held-out"`` (a bound from the
        held-out errors, :func:`~regression.labels.bias.held_out_bound`).
    interval_method : str
        A partially labelled generator's labels-and-votes interval:
        ``"betting"`` (default: valid at any number of labels, a sample that
        shows no error included) or ``"normal"`` (Wilson at the effective
        sample size, valid for many labels only;
        :data:`~regression.registry.BOUNDED_INTERVAL_METHODS`).

    Examples
    --------
    >>> from regression.datasets import load_confusion, load_human_precision, load_validator_rates
    >>> truth = load_human_precision()
    >>> cal = ["gpt-4o", "gpt-4-turbo", "claude_3_opus", "gemini-1.5-pro"]
    >>> anchors = Anchors.from_confusion(load_confusion("none"), cal, precision=truth[cal])
    >>> result = TransferModel().fit(load_validator_rates("none"), anchors=anchors)
    >>> round(float(result.precision["deepseek-chat"]), 3)  # humans: 0.931
    0.918
    """

    def __init__(
        self,
        *,
        method: str = "transfer",
        transfer_bias: float | str | None = None,
        interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    ) -> None:
        self.method = method
        self.transfer_bias = transfer_bias
        self.interval_method = interval_method

    parameter_constraints = {
        "method": [Options(tuple(TRANSFER_METHODS))],
        "transfer_bias": [None, Options((HELD_OUT,)), Interval(numbers.Real, 0, 1)],
        "interval_method": [Options(BOUNDED_INTERVAL_METHODS)],
    }

    def fit(
        self,
        rates: pd.DataFrame | Counts,
        counts: pd.DataFrame | Counts | None = None,
        anchors: Anchors | None = None,
    ) -> TransferResult:
        """Estimate every generator's precision from the matrix and the calibration generators.

        Parameters
        ----------
        rates : DataFrame or Counts
            Generators x validators, share labelled valid (NaN = absent).
        counts : DataFrame or Counts, optional
            Items behind each rate; without them every cell weighs the same.
        anchors : Anchors
            With each calibration generator's confusion table (see :func:`transfer_data`).

        Returns
        -------
        TransferResult

        Raises
        ------
        ValueError
            Bad settings or inputs (as :meth:`LatentTraitModel.fit`), or anchors
            :func:`transfer_data` cannot use.
        """
        self.check_settings()
        table, n = matrix_inputs(rates, counts)
        return self._fit(table, n, Anchors() if anchors is None else anchors)

    def fit_table(
        self,
        judgments: pd.DataFrame | LabelDesign,
        human_labels: pd.DataFrame | HumanLabels | None = None,
        calibration_generators: Iterable[str] | None = None,
        *,
        shared_items: bool = False,
    ) -> TransferResult:
        """Fit from the judgments table and the human labels (default: every labelled generator calibrates).

        ``judgments`` may be the :class:`~regression.labels.design.LabelDesign`
        of both tables, already checked and encoded (the CLI builds it once);
        ``human_labels`` is then not given.

        Each partially labelled generator is estimated from its labels and
        votes, with the transfer estimate as ``transfer_bias`` allows
        (:meth:`label_partial`).

        ``shared_items=True`` says an item id names the same prompt for every
        generator (all answered one benchmark): the calibration generators'
        label errors are then paired on the items they share
        (:func:`~regression.data.anchors.paired_precision_correlation`), which
        :meth:`joint_error`, :meth:`compare` and :meth:`rank_sets` count.
        """
        self.check_settings()
        # partial labels (regression.labels): generators with every judged item labelled
        # calibrate; the partially labelled ones get the estimate of fit_partial
        design = _design(judgments, human_labels)
        encoded = design.encoded
        counts = counts_from_encoded(encoded)
        calibration = calibration_generators
        if calibration is None:
            calibration = design.calibration
            if not calibration and design.partial:
                raise ValueError(
                    f"no generator has all its judged items labelled (partially labelled: "
                    f"{design.partial}); the other generators' estimate needs one. Label one "
                    "generator fully, or estimate the partially labelled ones from their labels "
                    "and votes alone: regression.labels.fit_partial(regression.labels."
                    "label_design(judgments, human_labels)).interval()."
                )
        anchors = Anchors.from_encoded(encoded, calibration, shared_items=shared_items)
        result = self._fit(counts.rates, counts.n_labelled.astype(float), anchors)
        return self.label_partial(result, design)

    def label_partial(self, result: TransferResult, design: LabelDesign) -> TransferResult:
        """``result`` with every partially labelled generator of ``design`` estimated from its labels.

        :func:`regression.labels.fit_partial` combines each one's labels and
        votes with ``result``'s transfer estimate as :attr:`transfer_bias`
        allows (``"held-out"``: the bound from ``result``'s own held-out errors).
        """
        assert result.anchors is not None  # a fit keeps its anchors
        held_out = None
        if self.transfer_bias == HELD_OUT and len(result.loo_errors):
            held_out = result.loo_errors[self.method]
        partial = fit_partial(
            design,
            result.precision,
            result.transfer_sd(),
            exclude=result.anchors.calibration_generators,
            bias_bound=bias_bound(self.transfer_bias, design, held_out),
            interval_method=self.interval_method,
        )
        return with_partial(result, partial)

    def add_generators(
        self,
        result: TransferResult,
        rates: pd.DataFrame,
        counts: pd.DataFrame | None = None,
        *,
        design: LabelDesign | None = None,
    ) -> TransferResult:
        """Estimate new generators: ``result``'s inputs with their rows, fitted again (cheap: no optimiser).

        The new fit's transfer estimates read every row, so they move a little
        for the generators already in ``result``. With ``design``, the
        :class:`~regression.labels.design.LabelDesign` of the whole table (the
        fitted generators and the new ones), every partially labelled
        generator, new ones included, is estimated again from its labels,
        votes and the new fit (:meth:`label_partial`, with this model's
        ``transfer_bias``); without it the new rows are unlabelled
        and the partially labelled generators keep their estimates of ``result``.

        Raises
        ------
        ValueError
            A result without its inputs, a generator already in the fit, an
            unknown validator, or counts given (or missing) where the original
            fit had none (or had them).
        """
        self.check_settings()
        if result.rates is None or result.anchors is None:
            raise ValueError("this result does not keep its inputs; refit with TransferModel.fit.")
        check_new_rows(rates, result.rates)
        if (counts is None) != (result.n is None):
            raise ValueError(
                "give counts for the new rows exactly when the original fit had counts."
            )
        new_rates = pd.concat([result.rates, rates.reindex(columns=result.rates.columns)])
        new_n = (
            None
            if result.n is None or counts is None
            else pd.concat([result.n, counts.reindex(columns=result.rates.columns)])
        )
        refit = self._fit(new_rates, new_n, result.anchors)
        if design is not None:
            return self.label_partial(refit, design)
        return refit if result.partial is None else with_partial(refit, result.partial)

    def _fit(self, rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors) -> TransferResult:
        data = transfer_data(rates, n, anchors)
        estimator = ESTIMATORS[self.method]
        estimate = estimator(data)
        notes = list(anchors.notes)
        if n is None:
            notes.append(
                "no counts given: every cell weighs the same (as if backed by "
                f"{default_n(anchors, None):g} items); pass counts to weight cells by their items."
            )
        if data.s < 2:
            notes.append(
                "one calibration generator: nothing can be held out, so there is no self-check "
                "and no interval; the estimate is the offset-corrected mean of judges. Label a "
                "second generator."
            )
        tpr, tnr, _, _ = pooled_anchors(data)
        if np.all(tpr + tnr - 1.0 <= 0):
            notes.append(
                "no validator beats chance on the calibration generators (J <= 0 for all): the "
                "judges carry no information; the estimates rest on the calibration generators."
            )
        precision = pd.Series(estimate.precision, index=rates.index, name="precision")
        # a calibration generator's best estimate is its own human labels
        precision.iloc[data.calibration] = data.precision
        return TransferResult(
            precision=precision,
            method=self.method,
            estimate=estimate,
            tpr=pd.Series(tpr, index=rates.columns, name="tpr"),
            tnr=pd.Series(tnr, index=rates.columns, name="tnr"),
            spread=logit_spread(data.confusion),
            warnings=tuple(notes),
            rates=rates,
            n=n,
            anchors=anchors,
            data=data,
        )


def _design(
    judgments: pd.DataFrame | LabelDesign, human_labels: pd.DataFrame | HumanLabels | None
) -> LabelDesign:
    """The label design of ``fit_table``'s input: built once here, or as given."""
    if isinstance(judgments, LabelDesign):
        if human_labels is not None:
            raise ValueError("give a LabelDesign alone: it already holds the human labels.")
        return judgments
    if human_labels is None:
        raise ValueError(
            "the transfer estimator needs human_labels on at least one calibration generator; "
            "for an unanchored fit use LatentTraitModel(loss='likelihood')."
        )
    return label_design(judgments, human_labels)
