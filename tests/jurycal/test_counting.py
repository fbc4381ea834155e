"""Counting at any scale (jurycal.counting): DuckDB over files, narwhals over the user's engine.

Every route must give exactly the numbers of the in-memory reference,
``regression.counts_from_judgments`` (and
``regression.data.confusion_from_judgments``), on the same rows.
"""

import gzip

import dask.dataframe as dd
import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jurycal.counting import (
    confusion_files,
    confusion_frame,
    count_files,
    count_frame,
    judgment_files,
)
from jurycal.datasets import load_agreeableness_judgments
from jurycal.io import count_judgments, write_table
from regression import Counts, counts_from_judgments
from regression.data import confusion_from_judgments

pytestmark = [
    # narwhals 2.x announces that its Dask support moves to the narwhals-dask package.
    pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning"),
    # dask's Parquet reader calls reset_index(inplace=True), which pandas 3.1 deprecates.
    pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index"),
]

TEXT_ENDINGS = ["csv", "csv.gz", "tsv", "tsv.gz", "jsonl", "jsonl.gz", "ndjson", "ndjson.gz"]
ENDINGS = [*TEXT_ENDINGS, "parquet", "pq"]


def _engines(frame: pd.DataFrame) -> dict:
    """The same rows in every engine the tests run: eager, lazy and distributed (Dask)."""
    return {
        "pandas": frame,
        "polars": pl.from_pandas(frame),
        "polars-lazy": pl.from_pandas(frame).lazy(),
        "dask": dd.from_pandas(frame, npartitions=3),
        "duckdb": duckdb.from_df(frame),
    }


def assert_same_counts(got: Counts, want: Counts) -> None:
    """Equal numbers cell by cell (order aside: the engines sort, the reference keeps order)."""
    assert sorted(got.generators) == sorted(want.generators)
    assert sorted(got.validators) == sorted(want.validators)
    for name in ("n_valid", "n_labelled"):
        expected = getattr(want, name).loc[got.generators, got.validators]
        np.testing.assert_array_equal(  # exact: integer counts
            getattr(got, name).to_numpy(), expected.to_numpy()
        )


@pytest.fixture
def votes() -> pd.DataFrame:
    """Mixed label spellings, a missing label and a pair whose only label is missing."""
    return pd.DataFrame(
        {
            "generator": ["g1", "g1", "g1", "g2", "g2", "g2", "g3"],
            "item": [1, 2, 1, 1, 2, 3, 1],
            "validator": ["v1", "v1", "v2", "v1", "v1", "v2", "v2"],
            "label": ["valid", " 0 ", "TRUE", "invalid", None, "1", None],
        }
    )


@pytest.fixture
def human() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "generator": ["g1", "g1", "g2", "g2", "g2"],
            "item": [1, 2, 1, 2, 3],
            "human": [1, 0, 0, 1, 1],
        }
    )


@pytest.fixture(scope="module")
def real() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The bundled agreeableness votes (83,608 rows) and their human labels."""
    return load_agreeableness_judgments("feedback+lines+labels")


# --------------------------------------------------------------------------- files through DuckDB


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_format_counts_as_in_memory(tmp_path, real, ending):
    judgments, _ = real
    path = tmp_path / f"votes.{ending}"
    write_table(judgments, path)
    assert_same_counts(count_files(path), counts_from_judgments(judgments))


def test_gzip_files_really_are_compressed(tmp_path, votes):
    path = tmp_path / "v.jsonl.gz"
    write_table(votes, path)
    with gzip.open(path, "rt") as handle:
        assert handle.readline().startswith('{"generator":"g1"')
    assert_same_counts(count_files(path), counts_from_judgments(votes))


def test_globs_lists_and_mixed_formats_add_up(tmp_path, real):
    judgments, _ = real
    parts = np.array_split(np.arange(len(judgments)), 4)
    names = ["a.csv", "b.parquet", "sub/c.jsonl.gz", "sub/d.tsv"]
    (tmp_path / "sub").mkdir()
    for name, rows in zip(names, parts, strict=True):
        write_table(judgments.iloc[rows], tmp_path / name)
    want = counts_from_judgments(judgments)
    assert_same_counts(count_files([tmp_path / n for n in names]), want)
    assert_same_counts(count_files([tmp_path / "*.*", str(tmp_path / "sub" / "*")]), want)
    assert judgment_files(str(tmp_path / "**" / "*.*")) == sorted(str(tmp_path / n) for n in names)


def test_columns_in_any_order_and_extra_columns_are_ignored(tmp_path, votes):
    path = tmp_path / "v.csv"
    write_table(votes[["label", "validator", "item", "generator"]].assign(raw="x"), path)
    assert_same_counts(count_files(path), counts_from_judgments(votes))


def test_text_files_read_missing_and_numeric_labels_as_pandas_does(tmp_path):
    # pandas writes a float label column with NaN as 1.0 / 0.0 / empty; 'NA' and 'null'
    # are pandas' missing-value strings.
    path = tmp_path / "v.csv"
    path.write_text(
        "generator,item,validator,label\n"
        "g,1,v,1.0\ng,2,v,0.0\ng,3,v,\ng,4,v,NA\ng,5,v,null\ng,6,v,Valid\ng,7,v,false\n"
    )
    counts = count_files(path)
    assert counts.n_labelled.loc["g", "v"] == 4 and counts.n_valid.loc["g", "v"] == 2
    floats = tmp_path / "floats.csv"
    write_table(
        pd.DataFrame(
            {"generator": "g", "item": [1, 2, 3], "validator": "v", "label": [1.0, np.nan, 0.0]}
        ),
        floats,
    )
    assert_same_counts(count_files(floats), counts_from_judgments(pd.read_csv(floats)))


def test_a_label_column_that_changes_type_far_down_a_file(tmp_path):
    # DuckDB guesses types from a sample; labels are read as text so this is no guess.
    rows = [f"g,{i},v,{i % 2}" for i in range(30_000)] + ["g,30000,v,valid"]
    path = tmp_path / "v.csv"
    path.write_text("generator,item,validator,label\n" + "\n".join(rows) + "\n")
    counts = count_files(path)
    assert counts.n_labelled.loc["g", "v"] == 30_001
    assert counts.n_valid.loc["g", "v"] == 15_001


def test_duplicates_across_files_are_caught_with_file_and_line(tmp_path, votes):
    write_table(votes, tmp_path / "a.csv")
    write_table(votes.iloc[[4]], tmp_path / "b.jsonl")  # g2, item 2, v1 again
    with pytest.raises(ValueError, match=r"1 duplicate \(generator, item, validator\) key") as info:
        count_files(tmp_path / "*")
    message = str(info.value)
    assert "('g2', 2, 'v1') 2 times" in message
    # line 6 of a.csv: header, then the fifth row; line 1 of b.jsonl
    assert f"{tmp_path / 'a.csv'} line 6" in message
    assert f"{tmp_path / 'b.jsonl'} line 1" in message


def test_duplicates_far_apart_in_one_large_parquet_file(tmp_path):
    # Many row groups: the check is global, not per chunk.
    n = 300_000
    frame = pd.DataFrame(
        {"generator": "g", "item": np.arange(n), "validator": "v", "label": np.arange(n) % 2}
    )
    frame.loc[n - 1, "item"] = 7
    path = tmp_path / "v.parquet"
    frame.to_parquet(path, row_group_size=10_000)
    with pytest.raises(ValueError, match=r"\('g', 7, 'v'\) 2 times \(.*v\.parquet row 8\)"):
        count_files(path)
    assert count_files(path, check_duplicates=False).n_labelled.loc["g", "v"] == n


def test_bad_labels_are_named_with_their_rows_and_file(tmp_path, votes):
    bad = votes.assign(label=["maybe", "maybe", "yes", 1, 0, "maybe", None])
    write_table(bad, tmp_path / "bad.csv")
    with pytest.raises(
        ValueError,
        match=r"judgments has 4 row\(s\) whose label is not a binary label in file "
        r"'.*bad\.csv': 'maybe' \(3 rows\), 'yes' \(1 row\)",
    ):
        count_files(tmp_path / "bad.csv")


def test_a_parquet_label_of_another_number_is_named(tmp_path, votes):
    write_table(votes.assign(label=[1, 0, 2, 1, 0, 1, 0]), tmp_path / "v.parquet")
    with pytest.raises(ValueError, match=r"1 row\(s\) whose label is not a binary label.*'2'"):
        count_files(tmp_path / "v.parquet")


def test_missing_generator_and_missing_column(tmp_path, votes):
    write_table(
        votes.assign(generator=[None, "g1", "g1", "g2", "g2", "g2", "g3"]), tmp_path / "a.csv"
    )
    with pytest.raises(ValueError, match=r"1 row\(s\) with a missing generator in file '.*a\.csv'"):
        count_files(tmp_path / "a.csv")
    write_table(votes.drop(columns="item"), tmp_path / "b.parquet")
    with pytest.raises(ValueError, match=r"missing column\(s\) \['item'\]"):
        count_files(tmp_path / "b.parquet")


def test_empty_files_and_bad_paths(tmp_path):
    header_only = tmp_path / "empty.csv"
    header_only.write_text("generator,item,validator,label\n")
    with pytest.raises(ValueError, match=r"holds no judgment rows"):
        count_files(header_only)
    empty_parquet = tmp_path / "empty.parquet"
    write_table(
        pd.DataFrame(
            {c: pd.Series([], dtype="int64") for c in ("generator", "item", "validator", "label")}
        ),
        empty_parquet,
    )
    with pytest.raises(ValueError, match=r"holds no judgment rows"):
        count_files(empty_parquet)
    (tmp_path / "zero.csv").write_text("")
    with pytest.raises(ValueError, match=r"missing column\(s\) \['generator', 'item'"):
        count_files(tmp_path / "zero.csv")
    with pytest.raises(ValueError, match=r"no such file: '.*nothing\.csv'"):
        count_files(tmp_path / "nothing.csv")
    with pytest.raises(ValueError, match=r"no file matches '.*\*\.pq'"):
        count_files(tmp_path / "*.pq")
    (tmp_path / "v.xlsx").write_text("x")
    with pytest.raises(ValueError, match=r"cannot tell the format of '.*v\.xlsx'"):
        count_files(tmp_path / "v.xlsx")


def test_settings_are_checked_and_a_small_memory_limit_spills_to_disk(tmp_path, real):
    judgments, _ = real
    path = tmp_path / "v.parquet"
    write_table(judgments, path)
    with pytest.raises(ValueError, match=r"threads \(0\) must be a whole number from 1 to 1,024"):
        count_files(path, threads=0)
    # a huge thread count killed the whole process in the C library (exit 127); now it is named
    with pytest.raises(ValueError, match=r"threads \(1000000000\) must be a whole number"):
        count_files(path, threads=1_000_000_000)
    with pytest.raises(ValueError, match=r"DuckDB refused a setting"):
        count_files(path, memory_limit="lots")
    counts = count_files(path, memory_limit="64MB", threads=1)
    assert_same_counts(counts, counts_from_judgments(judgments))


def test_progress_goes_to_stderr_so_stdout_stays_clean(tmp_path, votes, capsys):
    write_table(votes, tmp_path / "v.parquet")
    count_files(tmp_path / "v.parquet", progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "count" in captured.err


def test_count_judgments_is_the_duckdb_count(tmp_path, real):
    judgments, _ = real
    path = tmp_path / "v.csv.gz"
    write_table(judgments, path)
    counts = count_judgments(path, progress=False)
    assert_same_counts(counts, counts_from_judgments(judgments))


def test_confusion_files_join_judgments_with_human_labels(tmp_path, real):
    judgments, human = real
    write_table(judgments, tmp_path / "votes.parquet")  # item: integers
    write_table(human, tmp_path / "human.csv")
    got = confusion_files(tmp_path / "votes.parquet", tmp_path / "human.csv")
    want = confusion_from_judgments(judgments, human)
    want = want.sort_values(["generator", "validator"], ignore_index=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)  # exact: integer counts


def test_confusion_files_check_the_human_labels(tmp_path, votes, human):
    write_table(votes, tmp_path / "votes.csv")
    write_table(human.assign(human=[1, 0, None, 1, 1]), tmp_path / "missing.csv")
    with pytest.raises(ValueError, match=r"human labels have 1 row\(s\) with a missing label"):
        confusion_files(tmp_path / "votes.csv", tmp_path / "missing.csv")
    write_table(pd.concat([human, human.iloc[[0]]]), tmp_path / "twice.csv")
    with pytest.raises(ValueError, match=r"duplicate \(generator, item\) key.*\('g1', 1\) 2 times"):
        confusion_files(tmp_path / "votes.csv", tmp_path / "twice.csv")


# --------------------------------------------------------------------------- frames through narwhals


@pytest.mark.parametrize("engine", ["pandas", "polars", "polars-lazy", "dask", "duckdb"])
def test_every_engine_counts_as_in_memory(real, engine):
    judgments, human = real
    frames = _engines(judgments)
    assert_same_counts(count_frame(frames[engine]), counts_from_judgments(judgments))
    want = confusion_from_judgments(judgments, human)
    want = want.sort_values(["generator", "validator"], ignore_index=True)
    got = confusion_frame(frames[engine], _engines(human)[engine])
    pd.testing.assert_frame_equal(got, want, check_dtype=False)  # exact: integer counts


def test_dask_reads_partitioned_files_and_counts_as_duckdb(tmp_path, real):
    judgments, _ = real
    for k, rows in enumerate(np.array_split(np.arange(len(judgments)), 5)):
        write_table(judgments.iloc[rows], tmp_path / f"part-{k}.parquet")
    lazy = dd.read_parquet(str(tmp_path / "part-*.parquet"))
    assert lazy.npartitions == 5
    assert_same_counts(count_frame(lazy), count_files(tmp_path / "part-*.parquet"))


@pytest.mark.parametrize("engine", ["pandas", "polars-lazy", "dask", "duckdb"])
def test_every_engine_catches_duplicates_across_partitions(votes, engine):
    twice = pd.concat([votes, votes.iloc[[0]]], ignore_index=True)  # first and last partition
    with pytest.raises(ValueError, match=r"1 duplicate .*\('g1', 1, 'v1'\) 2 times"):
        count_frame(_engines(twice)[engine])
    counts = count_frame(_engines(twice)[engine], check_duplicates=False)
    assert counts.n_labelled.loc["g1", "v1"] == 3


@pytest.mark.parametrize("engine", ["pandas", "polars-lazy", "dask", "duckdb"])
def test_every_engine_names_bad_labels(votes, engine):
    bad = votes.assign(label=["valid", "nope", "nope", "0", "1", "?", None])
    with pytest.raises(
        ValueError, match=r"3 row\(s\) whose label is not .*'nope' \(2 rows\), '\?' \(1 row\)"
    ):
        count_frame(_engines(bad)[engine])


def test_many_kinds_of_bad_label_list_the_commonest(votes):
    bad = votes.assign(label=["a", "a", "b", "c", "d", "e", "f"])
    with pytest.raises(
        ValueError, match=r"7 row\(s\).*'a' \(2 rows\), 'b' \(1 row\).*'e' \(1 row\), \.\.\.;"
    ):
        count_frame(bad)


def test_frames_are_checked(votes, human):
    with pytest.raises(ValueError, match=r"must be a dataframe narwhals supports.*got list"):
        count_frame([1, 2])
    with pytest.raises(ValueError, match=r"missing column\(s\) \['label'\]"):
        count_frame(pl.from_pandas(votes.drop(columns="label")))
    with pytest.raises(ValueError, match=r"same engine"):
        confusion_frame(pl.from_pandas(votes).lazy(), duckdb.from_df(human))
    with pytest.raises(ValueError, match=r"holds no judgment rows"):
        count_frame(votes.iloc[:0])
    mixed = votes.assign(label=pd.array([True, 0, "valid", 1.0, None, "0", None], dtype=object))
    assert_same_counts(count_frame(mixed), counts_from_judgments(mixed))


def test_boolean_and_float_labels(votes):
    boolean = votes.assign(label=pd.array([True, False, True, False, None, True, None], "boolean"))
    floats = votes.assign(label=[1.0, 0.0, 1.0, 0.0, np.nan, 1.0, np.nan])
    for frame in (boolean, floats):
        want = counts_from_judgments(frame)
        for native in _engines(frame).values():
            assert_same_counts(count_frame(native), want)
    nan_in_polars = pl.DataFrame(
        {
            "generator": ["g", "g"],
            "item": [1, 2],
            "validator": ["v", "v"],
            "label": [1.0, float("nan")],
        }
    )
    assert count_frame(nan_in_polars).n_labelled.loc["g", "v"] == 1
    all_null = pl.DataFrame({"generator": ["g"], "item": [1], "validator": ["v"], "label": [None]})
    assert count_frame(all_null).n_labelled.loc["g", "v"] == 0


# --------------------------------------------------------------------------- every engine agrees

_names = st.sampled_from(["a", "b", "c", "d"])
_labels = st.sampled_from([1, 0, "valid", "invalid", "TRUE", "false", None])


# Stays: the one check that every engine (pandas, Polars, DuckDB, Dask) and file format counts
# the same random table alike; each example starts each engine once (Dask's scheduler most).
@pytest.mark.slow
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(_names, st.integers(0, 5), _names, _labels), min_size=1, max_size=40))
def test_random_tables_give_equal_counts_through_every_engine(tmp_path, rows):
    labels = pd.Series([None if r[3] is None else str(r[3]) for r in rows], dtype="str")
    frame = pd.DataFrame(
        {
            "generator": [r[0] for r in rows],
            "item": [r[1] for r in rows],
            "validator": [r[2] for r in rows],
            "label": labels,
        }
    ).drop_duplicates(["generator", "item", "validator"], ignore_index=True)
    want = counts_from_judgments(frame)
    for native in _engines(frame).values():
        assert_same_counts(count_frame(native), want)
    for ending in ("csv", "parquet", "jsonl"):
        path = tmp_path / f"random.{ending}"
        write_table(frame, path)
        assert_same_counts(count_files(path), want)


def test_pyarrow_tables_and_categorical_labels(votes):
    import pyarrow as pa

    want = counts_from_judgments(votes)
    assert_same_counts(count_frame(pa.Table.from_pandas(votes)), want)
    assert_same_counts(count_frame(votes.astype({"label": "category"})), want)
    categorical = pl.from_pandas(votes).with_columns(pl.col("label").cast(pl.Categorical))
    assert_same_counts(count_frame(categorical.lazy()), want)
