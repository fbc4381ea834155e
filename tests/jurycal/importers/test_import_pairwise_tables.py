"""The pairwise importers on the tools' own files (fixtures/published: AlpacaEval annotations
copied from its repository) and on hand-made files in the layouts the tools' source writes
(fixtures/handmade: MT-Bench pairs, Arena-Hard-Auto judgments, Chatbot Arena battles).
Provenance in fixtures/README.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from jurycal.importers import read_mt_bench_judgments
from jurycal.importers.pairwise import (
    PAIRWISE_IMPORTERS,
    import_pairwise,
    read_alpaca_eval_pairs,
    read_arena_battles,
    read_arena_hard_judgments,
    read_mt_bench_pairs,
)
from jurycal.importers.records import short_hash
from jurycal.importers.result import ImportFormatError
from regression.pairwise import check_pairwise

FIXTURES = Path(__file__).parent / "fixtures"
PUBLISHED = FIXTURES / "published"
HANDMADE = FIXTURES / "handmade"
ALPACA_TURBO = PUBLISHED / "alpaca_eval_text_davinci_001_weighted_alpaca_eval_gpt4_turbo.json"
ALPACA_OLD = PUBLISHED / "alpaca_eval_phi-2_alpaca_eval_gpt4.json"
MT_ALL_PAIRS = HANDMADE / "mt_bench_gpt-4_pair_all_pairs.jsonl"
ARENA_HARD_V2 = HANDMADE / "arena_hard_v2.0_gpt-4.1_model-x.jsonl"
ARENA_HARD_V01 = HANDMADE / "arena_hard_v0.1_gpt-4-1106-preview_model-y.jsonl"
ARENA = HANDMADE / "arena_clean_battle.json"

KEY = ["item", "generator_a", "generator_b", "validator", "verdict", "position"]


def rows(frame: pd.DataFrame, columns: list[str] = KEY) -> list[tuple]:
    return [tuple(None if pd.isna(v) else v for v in row) for row in frame[columns].values]


# -- AlpacaEval ---------------------------------------------------------------------------


def test_alpaca_eval_weighted_annotations_read_side_and_order_shown() -> None:
    result = read_alpaca_eval_pairs(ALPACA_TURBO)
    frame = result.verdicts
    assert set(frame["generator_a"]) == {"gpt4_1106_preview"}
    assert set(frame["generator_b"]) == {"text_davinci_001"}
    assert set(frame["validator"]) == {"weighted_alpaca_eval_gpt4_turbo"}
    # the preferences as written: 1.5 1.5 1.00000004 1.000003 1.983 1.818 1.060 1.706
    assert frame["verdict"].tolist() == ["tie", "tie", "a", "a", "b", "b", "a", "b"]
    assert frame["score"].iloc[4] == pytest.approx(1.9830850877)
    # AlpacaEval's seeded switch (seed 0), recomputed from the instruction
    assert frame["position"].tolist() == ["ba", "ab", "ba", "ab", "ab", "ba", "ab", "ab"]
    data = json.loads(ALPACA_TURBO.read_text())
    assert frame["item"].tolist() == [short_hash(row["instruction"]) for row in data]
    assert result.unknown_fields == ()


def test_alpaca_eval_recomputed_order_is_the_order_the_judge_saw() -> None:
    """The weighted annotator answers one token: "m" for the output shown first, "M" for the
    second (alpaca_eval_clf_gpt4_turbo prompt). The token and the written preference agree with
    the order recomputed with seed 0 on every annotation whose token is recorded; under another
    seed they do not: the recomputation is what AlpacaEval did, not a guess."""
    data = json.loads(ALPACA_TURBO.read_text())

    def agrees(seed: int) -> list[bool]:
        frame = read_alpaca_eval_pairs(ALPACA_TURBO, seed=seed).verdicts
        out = []
        for row, verdict, position in zip(data, frame["verdict"], frame["position"], strict=True):
            raw = row.get("raw_completion")
            if isinstance(raw, dict) and verdict != "tie":
                first_preferred = raw["logprobs"]["content"][0]["token"] == "m"
                out.append(first_preferred == ((verdict == "a") == (position == "ab")))
        return out

    assert agrees(0) == [True] * 6
    assert not all(agrees(123))


def test_alpaca_eval_old_annotator_draws_and_unparsed() -> None:
    result = read_alpaca_eval_pairs(ALPACA_OLD)
    frame = result.verdicts
    assert set(frame["generator_a"]) == {"text_davinci_003"}
    assert set(frame["generator_b"]) == {"phi-2"}
    assert [None if pd.isna(v) else v for v in frame["verdict"]] == [None, "tie", "b", "a"]
    assert "1 old-style draws (preference 0) read as ties" in result.notes
    assert "1 annotations without a parsed preference read as no verdict" in result.notes


def test_alpaca_eval_one_instruction_in_two_battles_is_two_battles() -> None:
    result = read_alpaca_eval_pairs([ALPACA_TURBO, ALPACA_OLD])
    table = check_pairwise(result.verdicts)
    test = short_hash('Write "Test"')
    assert (result.verdicts["item"] == test).sum() == 2
    assert table.n_battles == 12 and table.n_verdicts == 12


def test_alpaca_eval_recorded_switch_and_unswitched_annotators(tmp_path: Path) -> None:
    data = json.loads(ALPACA_OLD.read_text())
    data[0]["is_switched_outputs"] = True
    data[1]["is_switched_outputs"] = False
    for row in data[2:]:
        row["annotator"] = "lmsys_gpt4"  # is_randomize_output_order: false
    path = tmp_path / "annotations.json"
    path.write_text(json.dumps(data))
    assert read_alpaca_eval_pairs(path).verdicts["position"].tolist() == ["ba", "ab", "ab", "ab"]


def test_alpaca_eval_other_seed_moves_the_order() -> None:
    orders = {
        seed: read_alpaca_eval_pairs(ALPACA_TURBO, seed=seed).verdicts["position"].tolist()
        for seed in (0, 1, 2)
    }
    assert orders[1] != orders[0] or orders[2] != orders[0]


# -- MT-Bench -----------------------------------------------------------------------------


def test_mt_bench_pairs_are_two_games_in_both_orders() -> None:
    result = read_mt_bench_pairs(MT_ALL_PAIRS)
    assert rows(result.verdicts) == [
        ("81#t1", "alpaca-13b", "vicuna-13b-v1.3", "gpt-4", "b", "ab"),
        ("81#t1", "alpaca-13b", "vicuna-13b-v1.3", "gpt-4", "b", "ba"),
        ("81#t1", "alpaca-13b", "gpt-3.5-turbo", "gpt-4", "a", "ab"),  # the first shown wins
        ("81#t1", "alpaca-13b", "gpt-3.5-turbo", "gpt-4", "b", "ba"),  # ... twice
        ("81#t1", "vicuna-13b-v1.3", "gpt-3.5-turbo", "gpt-4", "tie", "ab"),
        ("81#t1", "vicuna-13b-v1.3", "gpt-3.5-turbo", "gpt-4", "b", "ba"),
        ("81#t2", "vicuna-13b-v1.3", "gpt-3.5-turbo", "gpt-4", "b", "ab"),
        ("81#t2", "vicuna-13b-v1.3", "gpt-3.5-turbo", "gpt-4", None, "ba"),
        ("101#t1", "alpaca-13b", "gpt-3.5-turbo", "gpt-4", "b", "ab"),
    ]
    assert result.verdicts["explanation"].iloc[1] == "Handmade game 2. [[A]]"
    assert "1 games with an error verdict read as no verdict" in result.notes
    assert any(note.startswith("1 single-answer pairs") for note in result.notes)
    table = check_pairwise(result.verdicts)
    assert table.n_battles == 5


def test_mt_bench_pairs_agree_with_the_flattening_importer(fixtures: Path) -> None:
    """Where both games agree, the judgments importer's label (1: the model beat the baseline)
    is the pairwise verdict for that model; everywhere else it has no label."""
    path = fixtures / "mt_bench_gpt-4_pair.jsonl"
    flat = read_mt_bench_judgments(path).judgments.set_index("item")["label"]
    pairs = read_mt_bench_pairs(path).verdicts
    for item, games in pairs.groupby("item"):
        words = set(games["verdict"].dropna())
        agreed = words.pop() if len(words) == 1 and games["verdict"].notna().all() else None
        label = flat[item]
        if agreed in ("a", "b"):  # model_1 is the generator, model_2 the baseline
            assert label == int(agreed == "a")
        else:
            assert pd.isna(label)


def test_mt_bench_single_answer_file_is_refused_with_the_right_importer(fixtures: Path) -> None:
    with pytest.raises(ImportFormatError, match="line 1: .*read it with the mt_bench judgments"):
        read_mt_bench_pairs(fixtures / "mt_bench_gpt-4_single.jsonl")


def test_mt_bench_unknown_winner_names_the_line(tmp_path: Path) -> None:
    lines = MT_ALL_PAIRS.read_text().splitlines()
    lines[2] = lines[2].replace('"g2_winner": "model_2"', '"g2_winner": "model_3"')
    path = tmp_path / "gpt-4_pair.jsonl"
    path.write_text("\n".join(lines))
    with pytest.raises(ImportFormatError, match=r"line 3: .*g2_winner 'model_3' is not"):
        read_mt_bench_pairs(path)


# -- Arena-Hard-Auto ----------------------------------------------------------------------


def test_arena_hard_games_are_turned_to_say_which_generator_won() -> None:
    result = read_arena_hard_judgments(ARENA_HARD_V2)
    o3, flash = "o3-mini-2025-01-31", "gemini-2.0-flash-001"
    assert rows(result.verdicts) == [
        ("hp-001", o3, "model-x", "gpt-4.1", "b", "ab"),  # B>A: the model, shown as B
        ("hp-001", o3, "model-x", "gpt-4.1", "b", "ba"),  # A>>B: the model, shown as A
        ("hp-002", o3, "model-x", "gpt-4.1", "a", "ab"),
        ("hp-002", o3, "model-x", "gpt-4.1", "b", "ba"),  # A>B twice: the first shown wins
        ("hp-003", o3, "model-x", "gpt-4.1", "tie", "ab"),
        ("hp-003", o3, "model-x", "gpt-4.1", None, "ba"),  # no label found
        ("cw-001", flash, "model-x", "gpt-4.1", None, "ab"),  # the judge call failed
        ("cw-001", flash, "model-x", "gpt-4.1", "a", "ba"),  # B>>A: the baseline, shown as B
    ]
    assert "2 strong preferences (A>>B, B>>A) read as plain preferences" in result.notes
    assert "2 games that failed or gave no label read as no verdict" in result.notes
    assert result.verdicts["explanation"].iloc[0] == "Handmade. My final verdict: [[B>A]]"
    assert check_pairwise(result.verdicts).n_battles == 4


def test_arena_hard_v01_needs_the_baseline() -> None:
    with pytest.raises(ValueError, match="line 1 names no baseline .*gpt-4-0314"):
        read_arena_hard_judgments(ARENA_HARD_V01)
    result = read_arena_hard_judgments(ARENA_HARD_V01, baseline="gpt-4-0314")
    assert rows(result.verdicts, ["generator_a", "generator_b", "verdict", "position"]) == [
        ("gpt-4-0314", "model-y", "b", "ab"),
        ("gpt-4-0314", "model-y", "b", "ba"),
        ("gpt-4-0314", "model-y", "a", "ab"),
        ("gpt-4-0314", "model-y", "a", "ba"),
    ]


def test_arena_hard_unknown_label_names_the_line(tmp_path: Path) -> None:
    lines = ARENA_HARD_V2.read_text().splitlines()
    lines[1] = lines[1].replace('"score": "A>B"', '"score": "A>C"', 1)
    path = tmp_path / "model-x.jsonl"
    path.write_text("\n".join(lines))
    with pytest.raises(ImportFormatError, match=r"line 2: .*label 'A>C' is not one of A>>B"):
        read_arena_hard_judgments(path)


# -- a plain arena table ------------------------------------------------------------------


def test_arena_battles_are_human_votes() -> None:
    result = read_arena_battles(ARENA)
    assert result.verdicts.empty
    claude, gpt, llama = "claude-3-opus-20240229", "gpt-4-turbo-2024-04-09", "llama-3-70b-instruct"
    assert rows(result.human, ["item", "generator_a", "generator_b", "human"]) == [
        ("4f2a1c", claude, gpt, "a"),
        ("7b9e03", gpt, llama, "b"),
        ("a1d5f7", llama, claude, "tie"),
        ("c3e8b2", claude, llama, "tie"),  # tie (bothbad)
        ("e6f0a9", gpt, claude, "a"),
    ]


def test_arena_battles_as_a_judge_and_with_human_votes_check_together(tmp_path: Path) -> None:
    judge = read_arena_battles(ARENA, validator="my-judge").verdicts
    assert (
        judge["position"].eq("ab").all()  # exact: strings
        and judge["validator"].eq("my-judge").all()  # exact: strings
    )
    human = read_arena_battles(ARENA).human
    table = check_pairwise(judge, human)
    assert table.n_labels == 5
    # a human vote read from a table listing the pair the other way is the same vote
    flipped = pd.DataFrame(json.loads(ARENA.read_text()))
    flipped[["model_a", "model_b"]] = flipped[["model_b", "model_a"]].to_numpy()
    flipped["winner"] = flipped["winner"].replace({"model_a": "model_b", "model_b": "model_a"})
    flipped[["question_id", "model_a", "model_b", "winner"]].to_csv(tmp_path / "b.csv", index=False)
    again = check_pairwise(judge, read_arena_battles(tmp_path / "b.csv").human)
    assert again.human.tolist() == table.human.tolist()


def test_arena_missing_and_bad_winners(tmp_path: Path) -> None:
    path = tmp_path / "battles.csv"
    path.write_text("id,model_a,model_b,winner\n1,x,y,model_a\n2,x,y,\n")
    result = read_arena_battles(path)
    assert len(result.human) == 1
    assert "1 battles without a winner left without a human vote" in result.notes
    path.write_text("id,model_a,model_b,winner\n1,x,y,model_a\n2,x,y,left\n")
    with pytest.raises(ImportFormatError, match=r"record 2: .*winner 'left' is not a verdict"):
        read_arena_battles(path)
    path.write_text("model_a,model_b,winner\nx,y,model_a\n")
    with pytest.raises(ImportFormatError, match="no item column"):
        read_arena_battles(path)
    assert len(read_arena_battles(path, item_column="model_a").human) == 1


def test_disagreeing_human_votes_leave_the_battle_unvoted(tmp_path: Path) -> None:
    path = tmp_path / "battles.csv"
    path.write_text("id,model_a,model_b,winner\n1,x,y,model_a\n1,y,x,model_b\n2,x,y,tie\n2,x,y,a\n")
    result = read_arena_battles(path)
    assert rows(result.human, ["item", "generator_a", "generator_b", "human"]) == [
        ("1", "x", "y", "a")
    ]
    assert "1 battles whose human votes disagree left without a vote" in result.notes
    assert "1 repeated human votes that agree with the first on their battle merged" in result.notes


# -- every format -------------------------------------------------------------------------

FILES = {
    "alpaca_eval_pairs": ([ALPACA_TURBO, ALPACA_OLD], {}),
    "mt_bench_pairs": ([MT_ALL_PAIRS], {}),
    "arena_hard": ([ARENA_HARD_V2, ARENA_HARD_V01], {"baseline": "gpt-4-0314"}),
    "arena": ([ARENA], {"validator": "my-judge"}),
}


@pytest.mark.parametrize("name", sorted(PAIRWISE_IMPORTERS))
def test_every_format_writes_a_table_the_data_model_reads(name: str) -> None:
    paths, options = FILES[name]
    result = import_pairwise(name, paths, **options)
    table = check_pairwise(result.verdicts, result.human if len(result.human) else None)
    assert table.n_verdicts == len(result.verdicts) > 0
    summary = result.account()
    assert summary["n_verdicts"] == len(result.verdicts)
    assert sum(summary["verdicts"].values()) == len(result.verdicts)
    assert summary["n_battles"] == table.n_battles


@pytest.mark.parametrize("name", sorted(PAIRWISE_IMPORTERS))
def test_a_file_read_twice_is_refused_or_the_last_kept(name: str, tmp_path: Path) -> None:
    paths, options = FILES[name]
    copy = tmp_path / paths[0].name
    shutil.copy(paths[0], copy)
    with pytest.raises(
        ValueError, match=r"repeat a \(battle, judge, position\).*duplicates='last'"
    ):
        import_pairwise(name, [paths[0], copy], **options)
    once = import_pairwise(name, paths[:1], **options).verdicts
    twice = import_pairwise(name, [paths[0], copy], duplicates="last", **options).verdicts
    assert len(twice) == len(once)


def test_registry_refuses_unknown_formats_and_options() -> None:
    with pytest.raises(ValueError, match="format \\('lmsys'\\) not recognized; must be one of"):
        import_pairwise("lmsys", [ARENA])
    with pytest.raises(ValueError, match="takes no option baseline \\(its options: none\\)"):
        import_pairwise("mt_bench_pairs", [MT_ALL_PAIRS], baseline="gpt-3.5-turbo")
    assert len(import_pairwise("arena", [ARENA], validator=None).human) == 5
