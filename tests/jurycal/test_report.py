"""The report renders the same content to Markdown and HTML."""

import matplotlib

matplotlib.use("Agg")

import re  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from jurycal.report import Report  # noqa: E402
from regression.results import Summary  # noqa: E402


def _card():
    report = Report("Card")
    estimates = pd.DataFrame(
        {"model": ["a", "b"], "estimate": [0.91234, np.nan], "n": [10.0, 12.0]}
    )
    report.add(
        Summary("Estimand", {"Estimates": estimates}, ("Precision <of> generator A.",),
                ("J is low.", "J is low.", "few labels"))
    )  # fmt: skip
    report.add(Summary("Nested", notes=("inside",)), level=3)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    report.figure(fig, "A line")
    plt.close(fig)
    return report


def test_markdown_and_html_carry_every_part(tmp_path):
    written = _card().write(tmp_path / "card.md")
    assert [p.name for p in written] == ["card.md", "card-1.png", "card.html"]
    md = written[0].read_text()
    assert "## Estimand" in md and "### Nested" in md and "Precision <of> generator A." in md
    assert "| a     |   0.9123 | 10 |" in md and "![A line](card-1.png)" in md
    assert (tmp_path / "card-1.png").read_bytes().startswith(b"\x89PNG")

    page = written[-1].read_text()
    assert "<h2>Estimand</h2>" in page and "Precision &lt;of&gt; generator A." in page
    assert "data:image/png;base64," in page and '<td class="num">0.9123</td>' in page


def test_the_page_has_no_nan_and_says_each_warning_once():
    page = re.sub(r'src="data:[^"]*"', "", _card().to_html())  # figures' base64 may spell nan
    assert "nan" not in page.lower()
    assert '<td class="num">-</td>' in page  # the missing estimate
    assert page.count('class="warning"') == 1  # one block of warnings per section
    assert page.count("J is low.") == 1 and "J is low. (2 times)" in page


def test_headings_nest():
    page = _card().to_html()
    levels = [int(n) for n in re.findall(r"<h([1-6])>", page)]
    assert levels[0] == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels


def test_write_rejects_an_ending_that_is_not_a_card(tmp_path):
    with pytest.raises(ValueError, match=r"report path .*card.pdf' ends in '.pdf'; .*give NAME"):
        Report("x").write(tmp_path / "card.pdf")


@pytest.mark.parametrize("name", ["card", "card.md", "card.html"])
def test_a_card_is_named_after_its_report_whatever_ending_is_given(tmp_path, name):
    report = Report("Card")
    report.add(Summary("Section", notes=("text",)))
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
