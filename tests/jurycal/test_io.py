"""Tables round-trip through every supported format; bad files are named."""

import pandas as pd
import pytest

from jurycal.io import first_line, read_table, table_format, write_table, write_text


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


@pytest.mark.parametrize(
    "name", ["t.csv", "t.csv.gz", "t.tsv", "t.parquet", "t.jsonl", "t.jsonl.gz"]
)
def test_round_trip(tmp_path, table, name):
    path = tmp_path / name
    write_table(table, path)
    whole = read_table(path)
    assert whole["generator"].tolist() == table["generator"].tolist()
    assert whole["label"].isna().tolist() == table["label"].isna().tolist()
    assert whole["item"].tolist() == table["item"].tolist()


def test_bad_paths(tmp_path):
    with pytest.raises(ValueError, match=r"cannot tell the format of 'votes.xlsx'"):
        table_format("votes.xlsx")
    with pytest.raises(ValueError, match=r"no such file: .*missing.csv"):
        read_table(tmp_path / "missing.csv")


def test_count_judgments_adds_up(tmp_path, table):
    from jurycal.io import count_judgments
    from regression import counts_from_judgments

    rows = pd.concat([table.assign(item=table["item"] + 10 * k) for k in range(7)])
    path = tmp_path / "j.parquet"
    write_table(rows, path)
    streamed = count_judgments(path, progress=False)
    whole = counts_from_judgments(rows)
    pd.testing.assert_frame_equal(  # exact: a file round trip
        streamed.n_valid.loc[whole.n_valid.index, whole.n_valid.columns],
        whole.n_valid,
        check_dtype=False,
    )
    pd.testing.assert_frame_equal(  # exact: a file round trip
        streamed.n_labelled.loc[whole.n_labelled.index, whole.n_labelled.columns],
        whole.n_labelled,
        check_dtype=False,
    )
    # every row is accounted for: labelled ones in n_labelled, the rest were missing labels
    assert int(streamed.n_labelled.to_numpy().sum()) == int(rows["label"].notna().sum())


def test_count_judgments_empty_file(tmp_path):
    from jurycal.io import count_judgments

    path = tmp_path / "empty.csv"
    path.write_text("generator,item,validator,label\n")
    with pytest.raises(ValueError, match=r"holds no judgment rows"):
        count_judgments(path, progress=False)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, table):
    path = tmp_path / "t.parquet"
    write_table(table, path)
    before = path.read_bytes()
    unwritable = pd.DataFrame({"x": [object(), object()]})  # pyarrow cannot store these
    with pytest.raises(ValueError, match=r"cannot write '.*t.parquet': .*object"):
        write_table(unwritable, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.parquet"]


def test_writes_are_atomic_and_keep_the_usual_permissions(tmp_path, table):
    import os
    import stat

    path = tmp_path / "t.csv.gz"
    write_table(table, path)
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzip, by the name
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    with pytest.raises(ValueError, match=r"cannot write .*: no such directory"):
        write_table(table, tmp_path / "missing" / "t.csv")
    with pytest.raises(ValueError, match=r"cannot write .*: it is a directory"):
        write_text("x", tmp_path)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("t.csv", b"", r"'.*t.csv' is empty"),
        ("t.tsv.gz", b"not gzip at all", r"'.*t.tsv.gz' is not a complete gzip file"),
        ("t.jsonl", b'{"a": 1}\n[1, 2]\n', r"'.*t.jsonl' line 2: not a JSON object"),
        ("t.ndjson", b'{"a": 1}\n{"a": \n', r"'.*t.ndjson' line 2: not a JSON object"),
        ("t.csv", b"a,b\n1,2\n\xff\xfe,3\n", r"'.*t.csv' line 3: not UTF-8 text"),
        ("t.parquet", b"garbage", r"'.*t.parquet' is not a Parquet file"),
    ],
)
def test_unreadable_files_are_named_with_their_line(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        read_table(path)


def test_first_line_counts_the_header():
    assert [first_line(f"t{e}") for e in (".csv", ".tsv.gz", ".jsonl", ".parquet")] == [2, 2, 1, 1]
