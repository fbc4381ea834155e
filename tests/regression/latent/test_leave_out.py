"""Leave-s-out evaluation: the paper's released numbers, baselines, both input forms."""

import pytest

from regression import LatentTraitModel, leave_out_evaluation
from regression.datasets import (
    ANNOTATED_GENERATORS,
    load_agreeableness_judgments,
    load_confusion,
    load_human_precision,
    load_validator_rates,
)
from regression.leave_out import DEFAULT_BASELINES
from regression.simulate import simulate_latent_world

TRUTH = load_human_precision()
ANNOTATED = list(ANNOTATED_GENERATORS)


# The released numbers are the paper's Fig. 6 / App. D.1 errors; all 63 splits of both levels
# are `python benchmarks/run.py released_leave_out` (docs/benchmarks.md). s = 0 and 2 are 16 of
# the 63 splits, and the bounds hold on them under every kernel .ci/blas-check runs (Prescott,
# Sandybridge, Haswell, Zen x 1 and 2 threads; SkylakeX x 1): |signed median| at most 0.07
# against 0.1, median |gap| 0.03-0.11 against 0.2, share within 0.5 points 0.81-0.94 against
# 0.75, per-s means within 0.24 against 1, s = 0 over 7 times s = 2 against 5.
FAST_SIZES = (0, 2)


@pytest.mark.float_sensitive
@pytest.mark.slow  # ~3 s a level: the one check in the unit run that paper_release() reproduces
@pytest.mark.parametrize("level", ["none", "feedback+lines+labels"])
def test_paper_release_reproduces_the_released_leave_s_out_errors(level, benchmark):
    """Split by split against the paper's released errors, on s = 0 and 2 (16 of 63 splits).

    Still caught: any change to the released optimiser path (its loss, start, jitter,
    finite-difference gradient or stopping rule) or to the leave-s-out splits moves most splits
    by points, not the few hundredths the floating-point path does, and breaks the bulk
    bounds; a model that does not use the calibration subset breaks the s = 0 / s = 2 ratio.
    """
    study = benchmark("bench_released_leave_out")
    gaps = study.released_gaps(level, sizes=FAST_SIZES)
    assert len(gaps) == 16
    summary = study.summarise(gaps)
    assert not study.failed_criteria(summary), summary


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
    assert fits.converged.all() and fits.n_held_out.eq(4).all()  # exact: integer counts


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
