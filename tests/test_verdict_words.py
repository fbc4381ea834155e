"""Every reader of a verdict agrees on the label spellings of the judgments table.

The table's spellings live once, in ``regression.checks.TRUE_STRINGS`` / ``FALSE_STRINGS``;
the in-memory reader (``coerce_binary``), the counting engine, the repair stage's synonyms
and the Inspect importer's free-text grades each read at least those, the same way.
"""

import json

import pandas as pd
import pytest

from jurycal.counting import count_frame
from jurycal.importers import read_inspect_log
from regression.checks import FALSE_STRINGS, TRUE_STRINGS, coerce_binary
from repair import LabelPolicy
from repair.labels import normalise_label

WORDS = [(w, 1) for w in TRUE_STRINGS] + [(w, 0) for w in FALSE_STRINGS]


def _spellings(word):
    return [word, word.upper(), f"  {word.capitalize()} "]


@pytest.mark.parametrize("word, label", WORDS)
def test_coerce_binary_and_the_counting_engine_agree(word, label):
    texts = _spellings(word)
    assert coerce_binary("label", texts).tolist() == [label] * len(texts)
    frame = pd.DataFrame(
        {"generator": "g", "item": range(len(texts)), "validator": "v", "label": texts}
    )
    counts = count_frame(frame)
    assert int(counts.n_labelled.loc["g", "v"]) == len(texts)
    assert int(counts.n_valid.loc["g", "v"]) == label * len(texts)


@pytest.mark.parametrize("word, label", WORDS)
def test_the_repair_stage_reads_every_table_spelling_as_that_label(word, label):
    for text in _spellings(word):
        assert normalise_label(text, LabelPolicy())[0] == label


@pytest.mark.parametrize("word, label", WORDS)
def test_the_inspect_importer_reads_every_table_spelling_as_that_label(tmp_path, word, label):
    samples = [
        {"id": f"s{i}", "epoch": 1, "scores": {"qa": {"value": text}}}
        for i, text in enumerate(_spellings(word))
    ]
    log = {
        "version": 2,
        "status": "success",
        "eval": {"task": "t", "model": "m", "scorers": [{"name": "qa"}]},
        "samples": samples,
    }
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    judgments = read_inspect_log(path).judgments
    assert judgments["label"].tolist() == [label] * len(samples)
