"""``jurycal demo``: the whole pipeline on the bundled data, printed and written as a report card."""

import re

import numpy as np
import pytest

from jurycal.cli import main
from jurycal.demo import arena_labels, arena_section
from jurycal.report import Report

#: The figures the demo's card holds (one or two per section that has estimates)
FIGURES = 7


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
    assert "| higher | lower | difference | se |" in " ".join(section.split())
    assert "| claude_3_opus | gpt-4-turbo |" in section and "var_ratio" not in section


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
    # it leads with the estimate; the check against the held-back votes says what one draw is
    assert section.index("First: gpt-4 ") < section.index(
        "Checked against the win rates of all 14,947 votes: 9 of 12 generators"
    )
    assert (
        "on this one draw of the votes, and 12 of 12 true ranks lie in their rank sets" in section
    )
    assert "95 % intervals miss 0.6 of 12 on average" in section
    assert (
        "| generator | rank | estimate | low | high | low_rank | high_rank | n_labels | judges_worth |"
        in (" ".join(section.split("#### leaderboard")[1].split("\n")[2].split()))
    )
    judges = " ".join(section.split("#### judges")[1].split())
    assert "| human voters |" in judges and "| gpt-3.5-turbo |" in judges
    # the bundled gpt-3.5-turbo picks the answer shown first in 86.9 % of its decisive verdicts
    assert (
        "| gpt-3.5-turbo | 14,947 | 0.0023 | 0.8693 | 0.4260 | first shown (p < 0.001) |" in judges
    )
    assert "judge gpt-3.5-turbo picks the answer shown first in 86.9% of its" in section
    assert "](report-5.png)" in section
    assert "6. Pairwise leaderboard: Chatbot Arena, three judges" in printed


@pytest.mark.slow
def test_demo_prints_an_outline_and_where_the_card_is(demo):
    text, out, printed, messages = demo
    # a short summary on stdout, not the card: its sections and the path to open
    assert len(printed.splitlines()) < 30 and "## " not in printed
    assert "1. Repair of validator outputs" in printed
    figures = sorted(p.name for p in out.glob("*.png"))
    assert figures == [f"report-{n}.png" for n in range(1, FIGURES + 1)]
    assert "![" in text and "](report-1.png)" in text
    written = [line.removeprefix("jurycal: written: ") for line in messages.splitlines()]
    assert written == [str(out / n) for n in ("report.md", *figures, "report.html")]
    assert "data:image/png;base64," in (out / "report.html").read_text()


@pytest.mark.slow
def test_demo_ranks_hannas_systems_from_judges_scores_and_ten_ratings_each(demo):
    text, _, printed, _ = demo
    heading = "## 7. Graded scores: HANNA stories, Coherence, 20 judges"
    assert heading in text and heading.removeprefix("## ") in printed
    section = text.split(heading)[1]
    # the human-written story: mean Coherence rating 4.43 over its 96 ratings (the data's
    # README), far above every generator's (at most 3.31): first, and the truth said beside it
    assert "Coherence, 10 ratings per system: Human first, mean rating " in section
    assert "(all 96 ratings: 4.43)" in section
    assert "systems lie in their 95 % intervals (one draw of the ratings" in section
    assert "](report-6.png)" in section and "](report-7.png)" in section  # board, calibration


@pytest.mark.slow
def test_demo_prints_the_numbers_that_matter_and_a_link_to_the_card(demo):
    text, out, printed, _ = demo
    lines = printed.splitlines()
    titles = [i for i, line in enumerate(lines) if re.match(r"  \d\. ", line)]
    assert len(titles) == 7
    # under each section title, one or two numbers, indented below it
    ends = [*titles[1:], lines.index("")]
    for start, end in zip(titles, ends, strict=True):
        assert 1 <= end - start - 1 <= 2, lines[start:end]
        assert all(line.startswith("      ") for line in lines[start + 1 : end])
    # every interval printed is one the card shows (the card rounds to 2 or 3 places, as here)
    intervals = re.findall(r"(\d\.\d+) \[(-?\d\.\d+), (-?\d\.\d+)\]", printed)
    assert len(intervals) >= 6
    for estimate, low, high in intervals:
        assert float(low) <= float(estimate) <= float(high)
    leader = re.search(r"first: gpt-4 (\S+ \[\S+ \S+\]), rank set 1-2", printed)
    assert leader is not None and f"First: gpt-4 {leader.group(1)}, rank set 1-2" in text
    held_out = re.search(r"gpt-4-turbo, its labels held out: (\S+ \[\S+ \S+\]), human", printed)
    assert held_out is not None and f"puts it at {held_out.group(1)} against" in text
    # one draw's count of true win rates held is read beside what seeded draws give
    assert re.search(r"\d+ of 12 true win rates .* on this draw \(over 60 seeded draws: ", printed)
    # links a terminal can open, absolute whatever the working directory
    assert f"the report card: {(out / 'report.html').resolve().as_uri()}" in printed
    assert f"as Markdown: {(out / 'report.md').resolve().as_uri()}" in printed


def test_arena_section_is_reproducible_from_its_seed():
    def card(seed):
        report = Report("x")
        arena_section(report, seed=seed, n_boot=500)
        return report.to_markdown()

    assert card(1) == card(1)
    assert card(1) != card(2)


@pytest.mark.slow
def test_no_table_of_the_card_has_a_leftover_index_column(demo):
    _, out, _, _ = demo
    page = (out / "report.html").read_text()
    headers = re.findall(r"<thead><tr>(.*?)</tr></thead>", page)
    assert len(headers) >= 10
    for header in headers:
        names = re.findall(r"<th>(.*?)</th>", header)
        assert not {"", "index", "level_0"} & set(names), names
