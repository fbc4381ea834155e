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


@pytest.fixture(scope="module")
def arena_board():
    """The bundled Chatbot Arena (12 generators) with a seeded 300 of its human votes, and its board."""
    from jurycal.datasets import load_chatbot_arena
    from regression.pairwise import PairwiseModel
    from regression.pairwise.board import pairwise_board

    verdicts, human = load_chatbot_arena()
    result = PairwiseModel(seed=1).fit_table(verdicts, human.sample(300, random_state=1))
    return result, pairwise_board(result, seed=1)


def _names_on_the_estimates_panel(figure):
    return [t.get_text().split("  [")[0] for t in figure.axes[0].get_yticklabels()]


@pytest.mark.parametrize("top", [3, None])
def test_every_figure_honours_top_as_the_tables_do(arena_board, top):
    from jurycal.report import add_pairwise_leaderboard, pairwise_plot
    from regression.ranking.plot import plot_board

    result, board = arena_board
    shown = list(board.table.index[: top or len(board.table)])
    for figure in (pairwise_plot(board, top=top), plot_board(board, top=top)):
        assert _names_on_the_estimates_panel(figure) == shown  # best on top, as the table
        assert figure.axes[1].images[0].get_array().shape == (len(shown), len(shown))
        plt.close(figure)
    report = Report("Card")
    add_pairwise_leaderboard(report, result, board, top=top or 20)
    markdown = report.to_markdown(stem="card")
    table = markdown.split("### leaderboard")[1].split("###")[0]
    assert sum(line.startswith("| ") for line in table.splitlines()) == 1 + len(shown)
    said = f"The top 3 of {len(board.table)} generators' estimates"
    assert (said in markdown) == (top == 3)


def test_a_board_beyond_the_matrix_draws_its_top_and_every_rank_set():
    from regression.ranking import leaderboard
    from regression.ranking.plot import NAMED_MAX, plot_board
    from regression.results import JointError

    g = 50
    names = [f"g{i}" for i in range(g)]
    estimate = pd.Series(np.linspace(0.9, 0.4, g), index=names)
    covariance = pd.DataFrame(np.eye(g) * 0.02**2, index=names, columns=names)

    class _Result:
        method = "toy"

        def interval(self, alpha):
            se = 0.02 * 1.96
            return pd.DataFrame({"estimate": estimate, "low": estimate - se, "high": estimate + se})

    joint = JointError(estimate, covariance, covers="toy")
    board = leaderboard(_Result(), joint=joint, n_draws=2000)
    for top, drawn in ((None, NAMED_MAX), (5, 5), (40, NAMED_MAX)):
        figure = plot_board(board, top=top)
        assert _names_on_the_estimates_panel(figure) == names[:drawn]
        assert f"all {g}" in figure.axes[1].get_title(loc="left")
        plt.close(figure)


def _precision_table():
    return pd.DataFrame(
        {
            "generator": ["a", "b", "c", "d"],
            "estimate": [0.93, 0.88, 0.95, 0.92],
            "low": [0.91, 0.80, 0.94, 0.83],
            "high": [0.95, 0.97, 0.97, 1.0],
            "role": ["calibration", "held out", "calibration", "unlabelled"],
            "human": [0.93, 0.86, 0.95, np.nan],
        }
    )


def test_a_legend_sits_beside_the_intervals_never_over_one():
    from regression.latent.plots import plot_precision_intervals

    figure = plot_precision_intervals(_precision_table())
    figure.canvas.draw()
    axes = figure.axes[0]
    legend = axes.get_legend()
    assert legend is not None
    assert legend.get_window_extent().x0 >= axes.get_window_extent().x1
    plt.close(figure)


def _tick_labels_apart(axes):
    """Whether the x tick labels drawn inside the axis's range are apart (none overlapping)."""
    low, high = sorted(axes.get_xlim())
    labels = [
        t
        for t, x in zip(axes.get_xticklabels(), axes.get_xticks(), strict=True)
        if t.get_text() and low <= x <= high
    ]
    boxes = sorted((t.get_window_extent() for t in labels), key=lambda b: b.x0)
    return all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:], strict=False))


def test_x_tick_labels_do_not_run_together(arena_board):
    from jurycal.report import pairwise_plot
    from regression.latent.plots import plot_precision_intervals

    narrow = _precision_table().assign(low=lambda t: t["low"] - 0.3)  # a wide range of values
    for figure in (plot_precision_intervals(narrow), pairwise_plot(arena_board[1])):
        figure.canvas.draw()
        assert _tick_labels_apart(figure.axes[0])
        plt.close(figure)


def test_every_card_with_estimates_has_its_figure(tmp_path):
    from jurycal.cli import main
    from jurycal.report import add_comparison, add_single_judge
    from regression import compare_models, estimate_prevalence
    from regression.datasets import load_agreeableness_judgments
    from regression.single_judge import CalibrationTable

    rng = np.random.default_rng(0)
    human = rng.integers(0, 2, 120)
    judge = np.where(rng.random(120) < 0.8, human, 1 - human)
    table = CalibrationTable.from_labels(human, judge)
    test_a, test_b = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    report = Report("Card")
    add_single_judge(report, estimate_prevalence(table, test_a), name="a")
    comparison = compare_models(test_a, test_b, table, table, paired=False, n_boot=200, seed=0)
    add_comparison(report, comparison)
    markdown = report.to_markdown(stem="card")
    assert markdown.count("![") == 2 and "](card-2.png)" in markdown

    judgments, labels = load_agreeableness_judgments()
    judgments.to_csv(tmp_path / "judgments.csv", index=False)
    labels.to_csv(tmp_path / "human.csv", index=False)
    files = [str(tmp_path / "judgments.csv"), str(tmp_path / "human.csv")]
    calibration = ["--calibration", "gpt-4o", "claude_3_opus", "gemini-1.5-pro"]
    assert main(["--quiet", "fit", *files, *calibration, "--report", str(tmp_path / "fit")]) == 0
    assert (tmp_path / "fit-1.png").read_bytes().startswith(b"\x89PNG")
    assert "](fit-1.png)" in (tmp_path / "fit.md").read_text()
    for header in re.findall(r"<thead><tr>(.*?)</tr></thead>", (tmp_path / "fit.html").read_text()):
        assert not {"", "index", "level_0"} & set(re.findall(r"<th>(.*?)</th>", header))
