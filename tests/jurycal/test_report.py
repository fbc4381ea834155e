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

    md_path = report.write(tmp_path / "card.md")
    md = md_path.read_text()
    assert "## Estimand" in md and "> **Warning.** J is low." in md
    assert "| a | 0.91 | 10 |" in md and "![A line](figure-1.png)" in md
    assert (tmp_path / "figure-1.png").read_bytes().startswith(b"\x89PNG")

    page = report.write(tmp_path / "card.html").read_text()
    assert "<h2>Estimand</h2>" in page and "Precision &lt;of&gt; generator A." in page
    assert "data:image/png;base64," in page and "<td>0.91</td>" in page


def test_write_rejects_unknown_ending(tmp_path):
    with pytest.raises(ValueError, match=r"report path .*card.pdf' must end in .md or .html"):
        Report("x").write(tmp_path / "card.pdf")


def test_write_both_writes_markdown_and_html_beside_each_other(tmp_path):
    report = Report("Card")
    report.paragraph("text")
    markdown, page = report.write_both(tmp_path / "sub" / "card.md")
    assert (markdown.name, page.name) == ("card.md", "card.html")
    assert markdown.read_text().startswith("# Card") and "<h1>Card</h1>" in page.read_text()
