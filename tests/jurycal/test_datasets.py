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
    arena = datasets.load_arena().drop_duplicates("id")
    assert np.array_equal(  # exact: 0/1 labels from strings
        table.human, (arena["human_winner"] == "model_a").to_numpy(float)
    )


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
