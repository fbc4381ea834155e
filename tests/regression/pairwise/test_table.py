"""The pairwise data model: the verdict vocabulary, battles, human votes and every bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression.errors import DuplicateRowError, InputError, MissingColumnError, MissingValueError
from regression.pairwise import (
    VERDICT_WORDS,
    BattleError,
    VerdictError,
    check_pairwise,
)

FLIP_VERDICT = {"a": "b", "b": "a", "tie": "tie"}
FLIP_POSITION = {"ab": "ba", "ba": "ab"}


def small() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two items: item 1 played by x-y in both orders (the second row listed y-x), item 2 by
    x-z and y-z; two judges."""
    verdicts = pd.DataFrame(
        [
            (1, "x", "y", "j1", "a", "ab"),
            (1, "y", "x", "j1", "A>B", "ab"),  # y first and preferred: x shown second, b wins
            (1, "x", "y", "j2", "tie", "ab"),
            (2, "x", "z", "j1", "model_b", "ab"),
            (2, "y", "z", "j1", None, "ba"),
            (2, "y", "z", "j2", 2, "ba"),
        ],
        columns=["item", "generator_a", "generator_b", "validator", "verdict", "position"],
    )
    human = pd.DataFrame(
        [(1, "y", "x", "b"), (2, "y", "z", "tie")],
        columns=["item", "generator_a", "generator_b", "human"],
    )
    return verdicts, human


def test_small_table_is_encoded_battle_by_battle() -> None:
    verdicts, human = small()
    table = check_pairwise(verdicts, human)
    assert list(table.generators) == ["x", "y", "z"]
    assert list(table.validators) == ["j1", "j2"]
    assert table.battles.to_dict("list") == {
        "item": [1, 2, 2],
        "generator_a": ["x", "x", "y"],
        "generator_b": ["y", "z", "z"],
    }
    assert table.battle.tolist() == [0, 0, 0, 1, 2, 2]
    # row 1 listed y-x: turned to x-y, its "a" (y) becomes a score 0 for x, its position "ba"
    assert table.score.tolist()[:4] == [1.0, 0.0, 0.5, 0.0]  # exact: scores 0, 0.5, 1 as given
    assert (
        np.isnan(table.score[4])
        and table.score[5]  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        == 0.0
    )
    assert table.position.tolist() == [0, 1, 0, 0, 1, 1]
    # the human "b" on y-x is a win for x, the battle's generator_a
    assert (
        table.human[0]  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        == 1.0
    )
    assert (
        np.isnan(table.human[1])
        and table.human[2]  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        == 0.5
    )
    assert table.human_row.tolist() == [0, -1, 1]
    assert table.n_battles == 3 and table.n_verdicts == 6 and table.n_labels == 2
    # a uniform sample: 2 votes on 3 battles
    np.testing.assert_allclose(table.inclusion_probability[[0, 2]], [2 / 3, 2 / 3])
    assert not table.weighted
    assert table.battles_per_generator().to_dict() == {"x": 2, "y": 2, "z": 2}


def test_verdict_counts_by_validator_and_position() -> None:
    verdicts, _ = small()
    counts = check_pairwise(verdicts).verdict_counts()
    assert counts.to_dict("records") == [
        {"validator": "j1", "position": "ab", "a": 1, "tie": 0, "b": 1, "none": 0},
        {"validator": "j1", "position": "ba", "a": 0, "tie": 0, "b": 1, "none": 1},
        {"validator": "j2", "position": "ab", "a": 0, "tie": 1, "b": 0, "none": 0},
        {"validator": "j2", "position": "ba", "a": 0, "tie": 0, "b": 1, "none": 0},
    ]


@pytest.mark.parametrize("word", sorted(VERDICT_WORDS))
def test_every_word_of_the_vocabulary_is_read_in_any_case(word: str) -> None:
    for spelling in (word, word.upper(), f"  {word.title()} "):
        verdicts = pd.DataFrame({
            "item": [1], "generator_a": ["x"], "generator_b": ["y"], "validator": ["j"],
            "verdict": [spelling],
        })  # fmt: skip
        assert check_pairwise(verdicts).score.tolist() == [VERDICT_WORDS[word]]


def test_alpaca_eval_numbers_are_read() -> None:
    verdicts = pd.DataFrame({
        "item": [1, 2, 3], "generator_a": "x", "generator_b": "y", "validator": "j",
        "verdict": [1, 2, 1.5],
    })  # fmt: skip
    # exact: scores 0, 0.5, 1 as given
    assert check_pairwise(verdicts).score.tolist() == [1.0, 0.0, 0.5]


def test_no_position_column_means_generator_a_shown_first() -> None:
    verdicts, _ = small()
    table = check_pairwise(verdicts.drop(columns="position").iloc[[0, 2, 3]])
    assert table.position.tolist() == [0, 0, 0]


def test_inclusion_probabilities_are_kept() -> None:
    verdicts, human = small()
    table = check_pairwise(verdicts, human.assign(inclusion_probability=[0.5, 1.0]))
    assert table.weighted
    np.testing.assert_array_equal(  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        table.inclusion_probability[[0, 2]], [0.5, 1.0]
    )


# -- bad input: one error, naming the row, column and value ---------------------------------


def raises(
    error: type[InputError], match: str | None, verdicts: pd.DataFrame, human=None
) -> InputError:
    with pytest.raises(error, match=match) as caught:
        check_pairwise(verdicts, human)
    return caught.value


def test_a_missing_column_is_named() -> None:
    verdicts, human = small()
    err = raises(MissingColumnError, "missing column", verdicts.drop(columns="validator"))
    assert err.column == "validator"
    err = raises(MissingColumnError, "missing column", verdicts, human.drop(columns="human"))
    assert err.column == "human"


def test_a_word_outside_the_vocabulary_names_it_and_the_words_read() -> None:
    verdicts, human = small()
    verdicts.loc[3, "verdict"] = "model_c"
    err = raises(
        VerdictError,
        r"'model_c' in column 'verdict' at row 3, not a verdict; the words read are 'a'",
        verdicts,
    )
    assert (err.row, err.column, err.value) == (3, "verdict", "model_c")
    assert "'tie (bothbad)'" in str(err) and "'A>B'".lower() in str(err)
    verdicts, human = small()
    human["human"] = human["human"].astype(object)
    human.loc[1, "human"] = 0  # AlpacaEval's old draw code is not read: 0 could mean either side
    err = raises(VerdictError, "0 in column 'human' at row 1", verdicts, human)
    assert (err.row, err.column) == (1, "human")


def test_a_bad_position_is_named() -> None:
    verdicts, _ = small()
    verdicts.loc[2, "position"] = "first"
    err = raises(VerdictError, "position 'first' at row 2", verdicts)
    assert (err.row, err.column, err.value) == (2, "position", "first")


def test_one_generator_on_both_sides_is_refused() -> None:
    verdicts, human = small()
    verdicts.loc[4, "generator_b"] = "y"
    err = raises(BattleError, r"generator_a equal to generator_b \('y'\) at row 4", verdicts)
    assert (err.row, err.column, err.value) == (4, "generator_b", (2, "y", "y"))
    verdicts, human = small()
    human.loc[0, "generator_a"] = "x"
    err = raises(BattleError, "human has generator_a equal", verdicts, human)
    assert err.row == 0


def test_a_human_vote_on_an_unjudged_battle_says_what_was_judged() -> None:
    verdicts, human = small()
    human.loc[1, "item"] = 3
    err = raises(BattleError, "no judge gave a verdict on item 3", verdicts, human)
    assert (err.row, err.column, err.value) == (1, "item", (3, "y", "z"))
    verdicts, human = small()
    human.loc[0, ["generator_a", "generator_b"]] = ["y", "z"]  # item 1 was x-y only
    err = raises(BattleError, r"generators differ .* item 1: \('x', 'y'\)", verdicts, human)
    assert (err.row, err.column) == (0, "generator_b")
    verdicts, human = small()
    human.loc[0, "generator_b"] = "w"  # a generator no judge saw
    raises(BattleError, "a battle with no judge verdict", verdicts, human)


def test_repeated_rows_are_refused_whichever_way_the_pair_is_listed() -> None:
    verdicts, human = small()
    again = verdicts.iloc[[3]].assign(generator_a="z", generator_b="x", position="ba")
    err = raises(
        DuplicateRowError, r"\(2, 'z', 'x', 'j1', 'ba'\) at row 6", pd.concat([verdicts, again])
    )
    assert err.row == 6
    # the same battle in the other position is not a repeat
    check_pairwise(pd.concat([verdicts, verdicts.iloc[[3]].assign(position="ba")]))
    flipped = human.iloc[[0]].assign(generator_a="x", generator_b="y", human="a")
    err = raises(DuplicateRowError, "human repeats", verdicts, pd.concat([human, flipped]))
    assert err.row == 2


def test_missing_keys_and_votes_are_refused() -> None:
    verdicts, human = small()
    verdicts.loc[2, "validator"] = None
    err = raises(MissingValueError, "missing validator at row 2", verdicts)
    assert (err.row, err.column) == (2, "validator")
    verdicts, human = small()
    human.loc[1, "human"] = None
    err = raises(MissingValueError, "missing vote at row 1", verdicts, human)
    assert (err.row, err.column) == (1, "human")


def test_an_error_names_the_table_its_row_is_in() -> None:
    # the two tables share item, generator_a and generator_b: only the table tells them apart
    cases = [
        ("verdicts", "generator_b", "x", BattleError),  # row 0: x against x
        ("verdicts", "verdict", "maybe", VerdictError),
        ("human votes", "generator_b", "y", BattleError),  # row 0: y against y
        ("human votes", "item", 9, BattleError),
        ("human votes", "human", "maybe", VerdictError),
    ]
    for table, column, value, kind in cases:
        verdicts, human = small()
        frame = verdicts if table == "verdicts" else human
        frame.loc[0, column] = value
        err = raises(kind, None, verdicts, human)
        assert (err.table, err.row, err.column) == (table, 0, column)


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5, "often"])
def test_inclusion_probabilities_outside_zero_one_are_refused(bad: object) -> None:
    verdicts, human = small()
    human["inclusion_probability"] = pd.Series([0.5, bad], dtype=object)
    err = raises(
        InputError, "inclusion_probability .* at row 1; it must be a number in", verdicts, human
    )
    assert (err.row, err.column, err.value) == (1, "inclusion_probability", bad)


def test_inclusion_probabilities_given_for_some_votes_only_are_refused() -> None:
    verdicts, human = small()
    err = raises(InputError, "given for every vote or for none", verdicts, human.assign(
        inclusion_probability=[0.5, None]))  # fmt: skip
    assert err.row == 1


# -- properties ---------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Random verdict and human tables: up to 6 generators, 3 judges, both positions, pairs
    listed either way, missing verdicts, a random subset of battles voted."""
    n_gen = draw(st.integers(2, 6))
    n_battles = draw(st.integers(1, 15))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows, human = [], []
    for battle in range(n_battles):
        a, b = rng.choice(n_gen, size=2, replace=False)
        item = int(rng.integers(0, 4)) if rng.random() < 0.5 else 100 + battle
        if any(r[0] == item and {r[1], r[2]} == {f"g{a}", f"g{b}"} for r in rows):
            continue  # that battle is already drawn
        for judge in rng.choice(3, size=rng.integers(1, 4), replace=False):
            for position in rng.choice(["ab", "ba"], size=rng.integers(1, 3), replace=False):
                # the position is the battle's; a row listing the pair the other way says it so
                reverse = rng.random() < 0.5
                pair = (f"g{b}", f"g{a}") if reverse else (f"g{a}", f"g{b}")
                shown = FLIP_POSITION[str(position)] if reverse else str(position)
                verdict = rng.choice(["a", "b", "tie", "A>B", "model_b", None])
                rows.append((item, *pair, f"j{judge}", verdict, shown))
        if rng.random() < 0.5:
            pair = (f"g{a}", f"g{b}") if rng.random() < 0.5 else (f"g{b}", f"g{a}")
            human.append((item, *pair, rng.choice(["a", "b", "tie"])))
    columns = ["item", "generator_a", "generator_b", "validator", "verdict", "position"]
    return (
        pd.DataFrame(rows, columns=columns),
        pd.DataFrame(human, columns=["item", "generator_a", "generator_b", "human"]),
    )


def mirror(frame: pd.DataFrame, verdict: str) -> pd.DataFrame:
    """generator_a and generator_b swapped, the verdicts and positions flipped to say the same."""
    out = frame.copy()
    out["generator_a"], out["generator_b"] = frame["generator_b"], frame["generator_a"]
    words = {"a": "b", "b": "a", "tie": "tie", "A>B": "B>A", "model_b": "model_a"}
    out[verdict] = frame[verdict].map(words, na_action="ignore")
    if "position" in out:
        out["position"] = frame["position"].map(FLIP_POSITION)
    return out


@settings(max_examples=60, deadline=None)
@given(tables())
def test_mirroring_the_table_mirrors_every_battle(data: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    verdicts, human = data
    table = check_pairwise(verdicts, human)
    mirrored = check_pairwise(mirror(verdicts, "verdict"), mirror(human, "human"))
    assert set(mirrored.generators) == set(table.generators)
    assert mirrored.battle.tolist() == table.battle.tolist()
    assert mirrored.battles["generator_a"].tolist() == table.battles["generator_b"].tolist()
    assert mirrored.battles["generator_b"].tolist() == table.battles["generator_a"].tolist()
    np.testing.assert_array_equal(  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        mirrored.score, 1.0 - table.score
    )
    np.testing.assert_array_equal(  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        mirrored.position, 1 - table.position
    )
    np.testing.assert_array_equal(  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        mirrored.human, 1.0 - table.human
    )
    assert mirrored.battles_per_generator().to_dict() == table.battles_per_generator().to_dict()


@settings(max_examples=60, deadline=None)
@given(tables())
def test_every_input_row_is_accounted_for(data: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    verdicts, human = data
    table = check_pairwise(verdicts, human)
    assert table.n_verdicts == len(verdicts)
    assert int(np.isnan(table.score).sum()) == int(verdicts["verdict"].isna().sum())
    assert int(table.verdict_counts()[["a", "tie", "b", "none"]].to_numpy().sum()) == len(verdicts)
    # each row's battle holds the row's item and generators, and its verdict read from its side
    battle = table.battles.iloc[table.battle]
    assert (battle["item"].to_numpy() == verdicts["item"].to_numpy()).all()  # exact: item names
    same = battle["generator_a"].to_numpy() == verdicts["generator_a"].to_numpy()
    swapped = battle["generator_a"].to_numpy() == verdicts["generator_b"].to_numpy()
    assert (same ^ swapped).all()
    as_given = np.where(same, table.score, 1.0 - table.score)
    expected = (
        verdicts["verdict"]
        .map({"a": 1.0, "A>B": 1.0, "tie": 0.5, "b": 0.0, "model_b": 0.0})
        .to_numpy(dtype=float)
    )
    np.testing.assert_array_equal(  # exact: scores 0, 0.5, 1 and probabilities as given; mirrored by 1 - x
        as_given, expected
    )
    # every human vote sits on one battle, once
    assert table.n_labels == len(human)
    assert sorted(table.human_row[table.human_row >= 0].tolist()) == list(range(len(human)))


@settings(max_examples=40, deadline=None)
@given(tables(), st.data())
def test_a_bad_word_anywhere_is_named_at_its_row(
    data: tuple[pd.DataFrame, pd.DataFrame], draw: st.DataObject
) -> None:
    verdicts, _ = data
    row = draw.draw(st.integers(0, len(verdicts) - 1))
    word = draw.draw(st.sampled_from(["c", "model_c", "A>C", "3", "yes", ""]))
    verdicts = verdicts.assign(verdict=verdicts["verdict"].astype(object))
    verdicts.loc[:, "verdict"] = verdicts["verdict"].where(verdicts.index != row, word)
    with pytest.raises(VerdictError) as caught:
        check_pairwise(verdicts)
    assert (caught.value.row, caught.value.column, caught.value.value) == (row, "verdict", word)
