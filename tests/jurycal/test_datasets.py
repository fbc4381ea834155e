"""The bundled example data loads with the documented shapes."""

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
