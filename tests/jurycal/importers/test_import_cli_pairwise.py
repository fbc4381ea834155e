"""``jurycal import`` of the pairwise formats, from a tool's own files to ``jurycal rank``
(issue 39 item 3): the table each format declares, directories searched at every depth."""

import json
import shutil
from pathlib import Path

import pandas as pd

from jurycal.cli.import_ import FORMAT_TABLE
from jurycal.importers import IMPORTERS, SCORE_IMPORTERS
from jurycal.importers.names import IMPORT_TABLES
from jurycal.importers.pairwise import PAIRWISE_IMPORTERS

FIXTURES = Path(__file__).parent / "fixtures"
ALPACA = {
    "alpaca_eval_gpt4": FIXTURES / "published" / "alpaca_eval_phi-2_alpaca_eval_gpt4.json",
    "weighted_alpaca_eval_gpt4_turbo": FIXTURES
    / "published"
    / "alpaca_eval_text_davinci_001_weighted_alpaca_eval_gpt4_turbo.json",
}
ARENA_HARD = FIXTURES / "handmade" / "arena_hard_v2.0_gpt-4.1_model-x.jsonl"
MT_PAIRS = FIXTURES / "handmade" / "mt_bench_gpt-4_pair_all_pairs.jsonl"
ARENA = FIXTURES / "handmade" / "arena_clean_battle.json"
VERDICT_COLUMNS = ["item", "generator_a", "generator_b", "validator", "verdict", "position"]


def test_every_registered_format_is_offered_with_the_table_it_writes(run_cli):
    """The command is generic over the registries: each format once, under the table it gives."""
    assert set(FORMAT_TABLE) == set(IMPORTERS) | set(PAIRWISE_IMPORTERS) | set(SCORE_IMPORTERS)
    assert {FORMAT_TABLE[name] for name in SCORE_IMPORTERS} == {"scores"}
    assert {FORMAT_TABLE[name] for name in PAIRWISE_IMPORTERS} == {"pairwise"}
    names = [name for _, formats in IMPORT_TABLES.values() for name in formats]
    assert len(names) == len(set(names))
    code, out, _ = run_cli(["import", "--help"])
    text = " ".join(out.split())
    assert code == 0
    for what, formats in IMPORT_TABLES.values():
        assert f"{', '.join(formats)} give {' '.join(what.split())}" in text


def test_alpaca_eval_results_directory_is_searched_at_every_depth(tmp_path, run_cli):
    """AlpacaEval writes results/<model>/<annotator>/annotations.json beside files of its own."""
    for annotator, source in ALPACA.items():
        folder = tmp_path / "results" / source.stem / annotator
        folder.mkdir(parents=True)
        shutil.copy(source, folder / "annotations.json")
    (tmp_path / "results" / "leaderboard.json").write_text('{"not": "annotations"}')
    out = tmp_path / "verdicts.csv"
    code, stdout, err = run_cli(
        ["import", "alpaca_eval_pairs", str(tmp_path / "results"), "-o", str(out)]
    )
    assert code == 0, err
    verdicts = pd.read_csv(out)
    assert list(verdicts.columns[:6]) == VERDICT_COLUMNS
    assert set(verdicts["validator"]) == set(ALPACA)
    assert "12 verdicts" in stdout and "from 2 alpaca_eval file(s)" in stdout
    code, stdout, _ = run_cli(["rank", str(out)])  # the table rank reads
    assert code == 0 and "win rates" in stdout.lower()


def test_arena_hard_judgment_folder_is_found_below_the_benchmark(tmp_path, run_cli):
    judged = tmp_path / "arena-hard-v2.0" / "model_judgment" / "gpt-4.1"
    judged.mkdir(parents=True)
    shutil.copy(ARENA_HARD, judged / "model-x.jsonl")
    # the benchmark's questions and answers are .jsonl too, and are not judgments
    (tmp_path / "arena-hard-v2.0" / "question.jsonl").write_text('{"uid": "1"}\n')
    out = tmp_path / "verdicts.parquet"
    code, stdout, err = run_cli(["import", "arena_hard", str(tmp_path), "-o", str(out), "--json"])
    assert code == 0, err
    account = json.loads(stdout)
    assert account["table"] == "pairwise verdicts" and account["n_verdicts"] == 8
    assert len(pd.read_parquet(out)) == 8


def test_mt_bench_pairs_and_arena_votes_give_rank_its_two_tables(tmp_path, run_cli):
    verdicts, votes = tmp_path / "verdicts.csv", tmp_path / "votes.csv"
    code, _, err = run_cli(["import", "mt_bench_pairs", str(MT_PAIRS), "-o", str(verdicts)])
    assert code == 0, err
    code, stdout, err = run_cli(["import", "arena", str(ARENA), "-o", str(votes)])
    assert code == 0 and "human votes" in stdout, err
    assert list(pd.read_csv(votes).columns) == ["item", "generator_a", "generator_b", "human"]


def test_an_option_of_another_format_is_refused_by_its_flag(tmp_path, run_cli):
    code, _, err = run_cli(
        ["import", "arena", str(ARENA), "-o", str(tmp_path / "v.csv"), "--baseline", "gpt-4"]
    )
    assert code == 1 and "--baseline is not an option of format arena" in err
    assert "--validator, --item-column" in err
    code, _, err = run_cli(
        [
            "import",
            "arena",
            str(ARENA),
            "-o",
            str(tmp_path / "v.csv"),
            "--human-out",
            str(tmp_path / "h.csv"),
        ]
    )
    assert code == 1 and "human votes only" in err
