"""The bundled example data loads with the documented shapes."""

import numpy as np
import pytest

from jurycal import datasets


def test_bundled_data_shapes():
    assert datasets.load_validator_rates("none").shape == (14, 14)
    assert len(datasets.load_confusion("none")) == 6 * 14
    judgments, human = datasets.load_agreeableness_judgments("feedback")
    assert len(human) == 5972 and len(judgments) == 14 * 5972
    assert set(judgments.columns) == {"generator", "item", "validator", "label"}
    assert len(datasets.load_arena()) == 1754
    with pytest.raises(ValueError, match=r"repair_level \('raw'\) not recognized"):
        datasets.load_validator_rates("raw")


def test_arena_pairwise_tables_check_and_keep_every_row():
    from regression.pairwise import check_pairwise

    verdicts, human = datasets.load_arena_pairwise()
    table = check_pairwise(verdicts, human)
    assert table.n_battles == len(human) == 877
    assert len(table.score) == len(verdicts) == 1754
    assert int(table.n_labels) == 877
    # each battle keeps the arena's orientation: the human score is model_a's
    arena = datasets.load_arena().drop_duplicates("id").set_index("id")
    winner = arena["human_winner"].reindex(table.battles["item"])
    assert np.array_equal(  # exact: 0/1 labels from strings
        table.human, (winner == "model_a").to_numpy(float)
    )
    shown_first = arena["model_a"].reindex(table.battles["item"])
    assert table.battles["generator_a"].tolist() == shown_first.tolist()  # exact: names


def test_chatbot_arena_tables_check_and_match_the_source():
    from regression.pairwise import check_pairwise

    verdicts, human = datasets.load_chatbot_arena()
    table = check_pairwise(verdicts, human)
    assert table.n_battles == len(human) == 14_947 and len(table.generators) == 12
    assert int(table.n_labels) == 14_947 and len(table.score) == len(verdicts) == 3 * 14_947
    assert tuple(verdicts["validator"].unique()) == datasets.CHATBOT_ARENA_JUDGES
    shares = verdicts.groupby("validator")["verdict"].value_counts(normalize=True)
    # the description of the set: one judge says "a" on 86 %, another prefers "b"
    assert shares["gpt-3.5-turbo", "a"] == pytest.approx(0.867, abs=0.001)
    assert shares["claude-3-opus", "b"] > shares["claude-3-opus", "a"] + 0.1
    assert human["human"].value_counts()["tie"] == 4_265  # "tie" and "tie (bothbad)"


def test_the_applications_loaders_are_the_stages_loaders():
    import regression.datasets
    import repair.datasets

    stages = set(regression.datasets.__all__) | set(repair.datasets.__all__)
    assert set(datasets.__all__) == stages
    for name in datasets.__all__:
        home = regression.datasets if name in regression.datasets.__all__ else repair.datasets
        assert getattr(datasets, name) is getattr(home, name), name


# The source's README (dig-team/hanna-benchmark-asg, as described in regression/datasets/README.md):
# each system's mean of the 3-rater average, printed to 2 decimals, for three of the six criteria.
HANNA_SYSTEM_MEANS = {
    "Relevance": {"Human": 4.17, "GPT-2": 2.81, "Fusion": 2.09, "HINT": 2.29},
    "Coherence": {"Human": 4.43, "GPT-2 (tag)": 3.31, "XLNet": 2.88, "HINT": 2.38},
    "Complexity": {"Human": 3.73, "GPT-2 (tag)": 2.80, "CTRL": 2.23, "HINT": 1.45},
}


@pytest.mark.parametrize("criterion", sorted(HANNA_SYSTEM_MEANS))
def test_hanna_matches_the_sources_figures(criterion):
    scores, human = datasets.load_hanna(criterion)
    assert len(human) == 11 * 96 and len(scores) == 20 * len(human)
    assert tuple(scores["validator"].unique()) == datasets.HANNA_JUDGES
    assert set(scores.columns) == {"generator", "item", "validator", "score"}
    # every judge scored every story; the items (prompts) are shared by the 11 systems
    assert not scores["score"].isna().any()
    assert (human.groupby("generator")["item"].nunique() == 96).all()
    # the truth is the mean of 3 integer ratings on 1-5: a multiple of 1/3 (exact after * 3)
    raters = datasets.load_hanna_raters(criterion)
    assert raters[["rater1", "rater2", "rater3"]].isin([1, 2, 3, 4, 5]).all().all()
    thirds = human["human"].to_numpy() * 3
    assert np.allclose(thirds, np.round(thirds), atol=1e-9)  # one mean of 3 integers
    means = human.groupby("generator")["human"].mean()
    for system, printed in HANNA_SYSTEM_MEANS[criterion].items():
        # the source prints 2 decimals: within half a unit of the last place
        assert abs(means[system] - printed) <= 0.005 + 1e-12, system


def test_hanna_judge_correlation_matches_the_source():
    # the source's per-output Pearson r of llm:Beluga-13B:prompt2 with the 3-rater mean, all
    # 11 systems, Coherence: 0.52 (printed to 2 decimals)
    scores, human = datasets.load_hanna("Coherence")
    judge = scores[scores["validator"] == "Beluga-13B:prompt2"]
    both = judge.merge(human, on=["generator", "item"])
    assert abs(np.corrcoef(both["score"], both["human"])[0, 1] - 0.52) <= 0.005 + 1e-12
    with pytest.raises(ValueError, match=r"criterion \('Fluency'\) not recognized"):
        datasets.load_hanna("Fluency")
