"""The report renders the same content to Markdown and HTML."""

import matplotlib

matplotlib.use("Agg")

import re  # noqa: E402
from html.parser import HTMLParser  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from jurycal.report import Report  # noqa: E402
from regression.results import TABLE_WRAPPER, Summary  # noqa: E402


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


class _Layout(HTMLParser):
    """Each table's and image's chain of enclosing elements, and the meta tags."""

    def __init__(self):
        super().__init__()
        self.open: list[tuple[str, dict]] = []
        self.tables: list[list[tuple[str, dict]]] = []
        self.images: list[dict] = []
        self.metas: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table":
            self.tables.append(list(self.open))
        elif tag == "img":
            self.images.append(attributes)
        elif tag == "meta":
            self.metas.append(attributes)
        if tag not in ("img", "meta"):  # void elements never close
            self.open.append((tag, attributes))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass


def _layout(page: str) -> _Layout:
    parser = _Layout()
    parser.feed(page)
    return parser


def _wide_card():
    report = _card()
    wide = pd.DataFrame({f"column_{i}": [0.5 + i, 1.5] for i in range(30)})
    report.add(Summary("Wide", {"thirty columns": wide}))
    return report


def test_the_page_fits_a_phone():
    layout = _layout(_wide_card().to_html())
    assert {"name": "viewport", "content": "width=device-width, initial-scale=1"} in layout.metas
    # every table sits in a wrapper that scrolls it sideways, so the page itself never does
    assert len(layout.tables) == 2
    for enclosing in layout.tables:
        tag, attributes = enclosing[-1]
        assert tag == "div" and TABLE_WRAPPER in attributes["class"].split()
        assert "overflow-x:auto" in attributes["style"]
    assert f".{TABLE_WRAPPER}{{overflow-x:auto" in _wide_card().to_html()
    # every figure scales down to the column, keeping its proportions
    assert layout.images
    for image in layout.images:
        assert "max-width:100%" in image["style"] and "height:auto" in image["style"]


def test_a_summary_shown_in_a_notebook_scrolls_its_tables_too():
    summary = Summary("x", {"t": pd.DataFrame({"a": [1.0]})})
    layout = _layout(summary._repr_html_())
    assert [enclosing[-1][0] for enclosing in layout.tables] == ["div"]
