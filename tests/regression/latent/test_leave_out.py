"""Leave-s-out evaluation: the paper's released numbers, baselines, both input forms."""

import pytest

from regression import LatentTraitModel, leave_out_evaluation
from regression.datasets import (
    ANNOTATED_GENERATORS,
    load_agreeableness_judgments,
    load_confusion,
    load_human_precision,
    load_paper_regression_errors,
    load_validator_rates,
)
from regression.leave_out import DEFAULT_BASELINES
from regression.simulate import simulate_latent_world

TRUTH = load_human_precision()
ANNOTATED = list(ANNOTATED_GENERATORS)


@pytest.mark.parametrize("level", ["none", "feedback+lines+labels"])
def test_paper_release_reproduces_the_released_leave_s_out_errors(level):
    # Reference: paper_regression_errors.csv (the paper's own release, Fig. 6 / App. D.1):
    # mean MaxAE per s, e.g. level none: s=0 15.76 %, s=5 1.15 %.
    table = leave_out_evaluation(
        load_validator_rates(level),
        confusion=load_confusion(level),
        precision=TRUTH,
        annotated=ANNOTATED,
        models={"paper": LatentTraitModel.paper_release()},
        baselines={},
    )
    paper = load_paper_regression_errors()
    paper = paper[(paper.repair_level == level) & (paper.calibration_size < 6)]
    merged = table.merge(
        paper.rename(columns={"calibration_size": "s", "max_abs_error": "released"}),
        on=["s", "calibration_generators"],
        validate="one_to_one",
    )
    assert len(merged) == 63
    # The released numbers are L-BFGS-B's stall points on the RMSE loss's kinks, and where a
    # fit stalls moves with the floating-point path: the OpenBLAS kernel and thread count (and
    # scipy's C port of L-BFGS-B, not the Fortran the paper ran). Over OPENBLAS_CORETYPE
    # Prescott / Sandybridge / Haswell / Zen x 1 and 2 threads, single splits move by up to a
    # few points while the bulk reproduces the release: the median |gap| over the 63 splits is
    # 0.03-0.11 points, the signed median within 0.02, 84-97 % of splits lie within 0.5 points,
    # and the per-s means within 0.01-0.64 points. So the test asserts what holds on any
    # kernel: no systematic shift, most splits reproduced, and per-s means within 1 point.
    # `.ci/blas-check` reruns this test under each of those kernels and thread counts.
    gap = (merged.max_abs_error - merged.released) * 100  # percentage points, per split
    assert abs(gap.median()) <= 0.1
    assert gap.abs().median() <= 0.2
    assert (gap.abs() <= 0.5).mean() >= 0.75
    per_s = merged.groupby("s")[["max_abs_error", "released"]].mean() * 100
    assert (per_s.max_abs_error - per_s.released).abs().max() <= 1.0
    # the paper's own claim (section 5.2): calibration is what makes the model work
    assert per_s.max_abs_error[0] > 5 * per_s.max_abs_error[1:].max()


def test_baselines_on_the_same_splits_and_adding_one():
    rates = load_validator_rates("none")

    def oracle(split):  # a stand-in for e.g. a voting ensemble: one function of the split
        return TRUTH.reindex(split.rates.index)

    table = leave_out_evaluation(
        rates,
        confusion=load_confusion("none"),
        precision=TRUTH,
        annotated=ANNOTATED,
        sizes=[0, 2],
        models={},
        baselines={**DEFAULT_BASELINES, "oracle": oracle},
    )
    assert set(table.method) == {"best_single_validator", "mean_of_validators", "oracle"}
    assert len(table) == 3 * (1 + 15)
    assert (table[table.method == "oracle"].max_abs_error == 0).all()
    assert (
        table[(table.method == "best_single_validator") & (table.s == 0)].max_abs_error.isna().all()
    )
    row = table[(table.method == "mean_of_validators") & (table.s == 0)].iloc[0]
    expected = (rates.mean(axis=1)[ANNOTATED] - TRUTH[ANNOTATED]).abs()
    assert row.max_abs_error == pytest.approx(expected.max())
    assert row.mean_abs_error == pytest.approx(expected.mean())


def test_judgments_input_with_a_batched_torch_model():
    judgments, human = load_agreeableness_judgments()
    table = leave_out_evaluation(
        judgments,
        human,
        sizes=[2],
        models={"likelihood": LatentTraitModel(loss="likelihood", n_restarts=2, backend="torch")},
    )
    assert len(table) == 15 * 3
    fits = table[table.method == "likelihood"]
    assert fits.converged.all() and fits.n_held_out.eq(4).all()


def test_likelihood_beats_the_paper_loss_where_the_model_holds():
    world = simulate_latent_world(14, 14, 1000, seed=21)
    table = leave_out_evaluation(
        world.counts,
        confusion=world.confusion,
        precision=world.sample_precision[list(world.annotated)],
        sizes=[1, 3],
        models={
            "paper": LatentTraitModel(loss="paper", n_restarts=5),
            "likelihood": LatentTraitModel(loss="likelihood", n_restarts=2, backend="torch"),
        },
    )
    mean = table.groupby("method").max_abs_error.mean()
    assert mean["likelihood"] < mean["paper"]
    assert mean["likelihood"] < mean["mean_of_validators"]


def test_bad_leave_out_inputs_are_named():
    rates = load_validator_rates("none")
    with pytest.raises(ValueError, match=r"s \(6\) must lie in \[0, 5\]"):
        leave_out_evaluation(
            rates, confusion=load_confusion("none"), precision=TRUTH, sizes=[6], models={}
        )
    with pytest.raises(ValueError, match=r"needs confusion= and precision="):
        leave_out_evaluation(rates, precision=TRUTH)
    with pytest.raises(
        ValueError, match=r"annotated generator\(s\) \['gpt-4.1'\] have no true precision"
    ):
        leave_out_evaluation(
            rates,
            confusion=load_confusion("none"),
            precision=TRUTH,
            annotated=["gpt-4.1"],
            models={},
        )
    judgments, _ = load_agreeableness_judgments()
    with pytest.raises(ValueError, match=r"needs human_labels"):
        leave_out_evaluation(judgments)
