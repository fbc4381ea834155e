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
    assert np.array_equal(table.human, (arena["human_winner"] == "model_a").to_numpy(float))
