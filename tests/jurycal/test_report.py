"""The report renders the same content to Markdown and HTML."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from jurycal.report import Report  # noqa: E402


def test_markdown_and_html_carry_every_block(tmp_path):
    report = Report("Card")
    report.heading("Estimand")
    report.paragraph("Precision <of> generator A.")
    report.warning("J is low.")
    report.table(pd.DataFrame({"model": ["a"], "estimate": [0.91234], "n": [10]}), digits=2)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    report.figure(fig, "A line")
    plt.close(fig)

    written = report.write(tmp_path / "card.md")
    assert [p.name for p in written] == ["card.md", "card-1.png", "card.html"]
    md = written[0].read_text()
    assert "## Estimand" in md and "> **Warning.** J is low." in md
    assert "| a | 0.91 | 10 |" in md and "![A line](card-1.png)" in md
    assert (tmp_path / "card-1.png").read_bytes().startswith(b"\x89PNG")

    page = written[-1].read_text()
    assert "<h2>Estimand</h2>" in page and "Precision &lt;of&gt; generator A." in page
    assert "data:image/png;base64," in page and "<td>0.91</td>" in page


def test_write_rejects_an_ending_that_is_not_a_card(tmp_path):
    with pytest.raises(ValueError, match=r"report path .*card.pdf' ends in '.pdf'; .*give NAME"):
        Report("x").write(tmp_path / "card.pdf")


@pytest.mark.parametrize("name", ["card", "card.md", "card.html"])
def test_a_card_is_named_after_its_report_whatever_ending_is_given(tmp_path, name):
    report = Report("Card")
    report.paragraph("text")
    markdown, page = report.write(tmp_path / name)
    assert (markdown.name, page.name) == ("card.md", "card.html")
    assert markdown.read_text().startswith("# Card") and "<h1>Card</h1>" in page.read_text()


def test_two_cards_in_one_folder_keep_their_own_figures(tmp_path):
    written = {}
    for name in ("leaderboard", "fit"):
        report = Report(name)
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1] if name == "fit" else [1, 0])
        report.figure(fig, name)
        plt.close(fig)
        written[name] = report.write(tmp_path / f"{name}.md")
    assert [p.name for p in written["leaderboard"]] == [
        "leaderboard.md",
        "leaderboard-1.png",
        "leaderboard.html",
    ]
    first, second = written["leaderboard"][1], written["fit"][1]
    assert first.exists() and second.exists() and first.read_bytes() != second.read_bytes()
