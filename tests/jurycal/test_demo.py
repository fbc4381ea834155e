"""``jurycal demo``: the whole pipeline on the bundled data, printed and written as a report card."""

import numpy as np
import pytest

from jurycal.cli import main
from jurycal.demo import arena_labels, arena_section
from jurycal.report import Report


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo") / "made" / "here"  # --out is made if missing
    import contextlib
    import io

    buffer, messages = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(messages):
        assert main(["--quiet", "demo", "--out", str(out)]) == 0
    return (out / "report.md").read_text(), out, buffer.getvalue(), messages.getvalue()


def test_arena_labels_match_the_data_readme():
    labels = arena_labels()
    assert len(labels) == 1754 and labels["judge_label"].isna().sum() == 2
    # data README: true win rates 0.41 / 0.24 / 0.40 against the three opponents
    per_opp = labels[labels["judge"] == "gpt-5.2"].groupby("opponent")["human"].mean()
    np.testing.assert_allclose(sorted(per_opp), [0.24, 0.40, 0.41], atol=0.006)


# The demo fixture runs `jurycal demo` (~4 s), the README's first command; whichever test
# first asks for it pays for it, so every test that does is marked slow.
@pytest.mark.slow
def test_demo_runs_every_stage(demo):
    text, *_ = demo
    for heading in (
        "## 1. Repair of validator outputs",
        "## 2. Ensemble voting",
        "## 3. Precision of generators without human labels",
        "## 4. Leaderboard: which generators are better than which",
        "## 5. One judge: LMArena battles",
        "### Comparison: gemini-2.5-flash vs gemini-2.5-pro",
    ):
        assert heading in text
    # repair: the paper's 9.4 % -> 3.2 % missing, reproduced on the bundled sample
    assert "Missing labels: 9.5% as produced, 3.3% after repair" in text
    # ensemble: the veto threshold the paper picked, found again leave-one-generator-out
    assert "The veto threshold n = 4 was picked" in text


@pytest.mark.slow
def test_demo_estimates_the_held_out_generator_from_the_repaired_judgments(demo):
    text, *_ = demo
    # step 3 follows on from steps 1 and 2: the same repaired judgments, beside the veto
    assert "The judgments repaired in step 1, with the human labels of 5 generators" in text
    assert "the minority veto of step 2 says" in text
    assert "Self-check: on your 5 calibration generators, each held out in turn" in text
    # the paper's headline use: the eight unannotated generators of the released matrix
    assert "Self-check: on your 6 calibration generators" in text
    assert text.split("## 4. Leaderboard")[0].count("| unlabelled |") == 8


@pytest.mark.slow
def test_demo_ranks_the_generators(demo):
    text, *_ = demo
    section = text.split("4. Leaderboard")[1].split("5. One judge")[0]
    assert "Could be the best: " in section
    # gpt-4-turbo (0.865, labelled) is decided below claude_3_opus (0.954, labelled)
    assert "| gpt-4-turbo | claude_3_opus |" in section and "b higher" in section


@pytest.mark.slow
def test_demo_flags_the_weak_arena_judges(demo):
    text, *_ = demo
    # data README: J between 0.01 and 0.24, Fiedler's low-J regime: the warnings must say so
    assert text.count("low judge quality: J = ") >= 4
    assert "1 test item(s) with a missing judge label were dropped" in text
    assert "Delta J = J[" in text


@pytest.mark.slow
def test_demo_ranks_the_chatbot_arena_from_three_judges_and_a_sample_of_votes(demo):
    text, _, printed, _ = demo
    section = text.split("## 6. Pairwise leaderboard: Chatbot Arena, three judges")[1]
    assert "the human votes on a sample of 1,000 of them drawn with seed 2026" in section
    # the 13,947 votes held back are the truth; the card says how many intervals and sets hold it
    # the betting interval (the win rates' default) holds all 12; the normal one held 9
    assert "Against the win rates of all 14,947 votes, 12 of 12 generators" in section
    assert "and 12 of 12 true ranks lie in their rank sets" in section
    assert (
        "| generator | estimate | low | high | low_rank | high_rank | n_labels | judges_worth |"
        in (" ".join(section.split("#### leaderboard")[1].split("\n")[2].split()))
    )
    judges = " ".join(section.split("#### judges")[1].split())
    assert "| human voters |" in judges and "| gpt-3.5-turbo |" in judges
    assert "](report-4.png)" in section
    assert "6. Pairwise leaderboard: Chatbot Arena, three judges" in printed


@pytest.mark.slow
def test_demo_prints_an_outline_and_where_the_card_is(demo):
    text, out, printed, messages = demo
    # a short summary on stdout, not the card: its sections and the path to open
    assert len(printed.splitlines()) < 15 and "## " not in printed
    assert "1. Repair of validator outputs" in printed
    assert f"the report card: {out / 'report.html'}" in printed
    figures = sorted(p.name for p in out.glob("*.png"))
    assert figures == [f"report-{n}.png" for n in range(1, 5)]
    assert "![" in text and "](report-1.png)" in text
    written = [line.removeprefix("jurycal: written: ") for line in messages.splitlines()]
    assert written == [str(out / n) for n in ("report.md", *figures, "report.html")]
    assert "data:image/png;base64," in (out / "report.html").read_text()


def test_arena_section_is_reproducible_from_its_seed():
    def card(seed):
        report = Report("x")
        arena_section(report, seed=seed, n_boot=500)
        return report.to_markdown()

    assert card(1) == card(1)
    assert card(1) != card(2)
