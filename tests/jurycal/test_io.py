"""Tables round-trip through every supported format, whole and in chunks."""

import pandas as pd
import pytest

from jurycal.io import iter_table, read_table, table_format, write_table


@pytest.fixture
def table():
    return pd.DataFrame(
        {
            "generator": ["g1", "g1", "g2", "g2", "g3"],
            "item": [0, 1, 0, 1, 0],
            "validator": ["v1", "v2", "v1", "v2", "v1"],
            "label": pd.array([1, 0, None, 1, 0], dtype="Int8"),
        }
    )


@pytest.mark.parametrize("name", ["t.csv", "t.csv.gz", "t.tsv", "t.parquet", "t.jsonl", "t.jsonl.gz"])
def test_round_trip_whole_and_chunked(tmp_path, table, name):
    path = tmp_path / name
    write_table(table, path)
    whole = read_table(path)
    assert whole["generator"].tolist() == table["generator"].tolist()
    assert whole["label"].isna().tolist() == table["label"].isna().tolist()
    chunks = list(iter_table(path, chunk_rows=2))
    assert [len(c) for c in chunks] == [2, 2, 1]
    assert pd.concat(chunks)["item"].tolist() == table["item"].tolist()
    only = next(iter_table(path, chunk_rows=10, columns=["generator", "label"]))
    assert list(only.columns) == ["generator", "label"]


def test_bad_paths(tmp_path):
    with pytest.raises(ValueError, match=r"cannot tell the format of 'votes.xlsx'"):
        table_format("votes.xlsx")
    with pytest.raises(ValueError, match=r"no such file: .*missing.csv"):
        read_table(tmp_path / "missing.csv")
    (tmp_path / "x.csv").write_text("a\n1\n")
    with pytest.raises(ValueError, match=r"chunk_rows \(0\) must be positive"):
        next(iter_table(tmp_path / "x.csv", chunk_rows=0))
