"""Report cards in Markdown and HTML.

A card is a title and a list of parts: sections, each a
:class:`~regression.results.Summary` at a heading level (rendered by the
Summary itself, the one renderer of tables, notes and warnings), and figures.
Each part renders itself (``markdown``, ``html``), so the card never branches
on a part's type. Figures are embedded in the HTML as PNG data and written
beside the Markdown file, named after the card (``card-1.png``, ...).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pandas as pd

from regression.results import TABLE_WRAPPER, Summary, flat_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from regression import ModelComparison, SingleJudgeResult
    from regression.ranking import Leaderboard

__all__ = [
    "CARD_ENDINGS",
    "VIEWPORT",
    "Report",
    "add_comparison",
    "add_estimate",
    "add_fit",
    "add_leaderboard",
    "add_pairwise_leaderboard",
    "add_single_judge",
    "card_files",
    "fit_figure",
    "pairwise_plot",
    "section",
]


class _Part(Protocol):
    def markdown(self, names: Iterator[str]) -> str: ...

    def html(self) -> str: ...


@dataclass(frozen=True)
class _Section:
    summary: Summary
    level: int

    def markdown(self, names: Iterator[str]) -> str:
        return self.summary.as_markdown(level=self.level)

    def html(self) -> str:
        return self.summary.as_html(level=self.level)


@dataclass(frozen=True)
class _Figure:
    png: bytes
    caption: str

    def markdown(self, names: Iterator[str]) -> str:
        name = next(names, None)
        return "" if name is None else f"![{self.caption}]({name})\n\n*{self.caption}*"

    def html(self) -> str:
        data = base64.b64encode(self.png).decode("ascii")
        caption = html.escape(self.caption)
        return (
            f'<figure><img alt="{caption}" style="{_IMAGE_STYLE}" '
            f'src="data:image/png;base64,{data}">'
            f"<figcaption>{caption}</figcaption></figure>"
        )


#: A figure is drawn wider than a phone's column: it scales down rather than overflow (inline,
#: so a page that embeds the figure without the card's CSS scales it too).
_IMAGE_STYLE = "max-width:100%;height:auto"

#: The page's width in the reader's units: a phone lays it out at its own width, not at 980 px.
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'

_STYLE = (
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
    # a long name (a generator's, a warning's) breaks rather than push the page sideways
    "p,li,h1,h2,h3,h4,figcaption{overflow-wrap:anywhere}"
    # a table wider than the screen scrolls inside its wrapper; the page never does
    f".{TABLE_WRAPPER}{{overflow-x:auto;max-width:100%}}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".warning{background:#fff3cd;border-left:4px solid #e0a800;padding:.5em}"
    f"figure{{margin:1em 0}}img{{{_IMAGE_STYLE}}}"
)


@dataclass
class Report:
    """A card: a title, sections (:class:`~regression.results.Summary` objects) and figures.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.results import Summary
    >>> report = Report("Demo")
    >>> report.add(Summary("Numbers", {"x": pd.DataFrame({"x": [0.12345]})}, notes=("Two.",)))
    >>> print(report.to_markdown())
    # Demo
    <BLANKLINE>
    ## Numbers
    <BLANKLINE>
    Two.
    <BLANKLINE>
    ### x
    <BLANKLINE>
    | x      |
    |-------:|
    | 0.1235 |
    <BLANKLINE>
    """

    title: str
    parts: list[_Part] = field(default_factory=list)
    #: The numbers that matter, by top-level section title (:meth:`highlight`).
    highlights: dict[str, list[str]] = field(default_factory=dict)

    def add(self, summary: Summary, level: int = 2) -> None:
        """A section: ``summary`` with its title at heading ``level`` (2 under the card's title)."""
        self.parts.append(_Section(summary, level))

    def figure(self, figure: Figure, caption: str) -> None:
        """``figure`` as PNG below the sections so far, with ``caption``.

        The card keeps the PNG, and pyplot lets go of the figure (a caller may still save it,
        as ``--plot`` does): a card of many figures holds none of them open.
        """
        import matplotlib.pyplot as plt

        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
        plt.close(figure)
        self.parts.append(_Figure(buffer.getvalue(), caption))

    def outline(self) -> list[str]:
        """The section titles at heading level 2, in order."""
        return [p.summary.title for p in self.parts if isinstance(p, _Section) and p.level == 2]

    def highlight(self, line: str) -> None:
        """A number that matters (with its interval) in the latest level-2 section.

        What a terminal shows of the card beside its :meth:`outline`
        (``jurycal demo``); the card itself carries the same number in its text.
        """
        outline = self.outline()
        if not outline:
            raise ValueError("a highlight belongs to a section: add one first.")
        self.highlights.setdefault(outline[-1], []).append(line)

    def figure_names(self, stem: str) -> list[str]:
        """The file names of the figures for a card named ``stem``: ``stem-1.png``, ``stem-2.png``, ..."""
        n_figures = sum(isinstance(p, _Figure) for p in self.parts)
        return [f"{stem}-{n}.png" for n in range(1, n_figures + 1)]

    def to_markdown(self, stem: str | None = None) -> str:
        """Markdown text; figures link to :meth:`figure_names` of ``stem`` (left out when None)."""
        names = iter(self.figure_names(stem) if stem is not None else [])
        blocks = [f"# {self.title}", *(part.markdown(names) for part in self.parts)]
        return "\n\n".join(b for b in blocks if b) + "\n"

    def to_html(self) -> str:
        """A self-contained HTML page (figures embedded as PNG data)."""
        title = html.escape(self.title)
        return "\n".join(
            [
                "<!DOCTYPE html>",
                f'<html lang="en"><head><meta charset="utf-8">{VIEWPORT}<title>{title}</title>',
                f"<style>{_STYLE}</style></head><body>",
                f"<h1>{title}</h1>",
                *(part.html() for part in self.parts),
                "</body></html>",
            ]
        )

    def write(self, path: str | Path) -> list[Path]:
        """Write the card as ``<stem>.md``, its figures ``<stem>-<n>.png`` beside it, and ``<stem>.html``.

        ``path`` is ``card``, ``card.md`` or ``card.html``; every file is
        written atomically (:func:`jurycal.io.write_atomic`), each named after
        the card, so two cards in one folder never share a file.

        Returns
        -------
        list of Path
            Every file written: the Markdown, the figures, the HTML.
        """
        from jurycal.io import write_atomic, write_text

        markdown, page, figures = card_files(path, self)
        pngs = [p.png for p in self.parts if isinstance(p, _Figure)]
        for figure, png in zip(figures, pngs, strict=True):
            write_atomic(figure, partial(Path.write_bytes, data=png))
        write_text(self.to_markdown(stem=markdown.stem), markdown)
        write_text(self.to_html(), page)
        return [markdown, *figures, page]


#: The endings a card's path may have: none, or one of the two files it becomes.
CARD_ENDINGS = ("", ".md", ".html")


def card_files(path: str | Path, report: Report | None = None) -> tuple[Path, Path, list[Path]]:
    """The Markdown file, the HTML file and (for ``report``) the figures a card at ``path`` becomes.

    Raises
    ------
    ValueError
        A path ending in something else (``judgments.csv``): a card is written as
        ``.md`` and ``.html``, and the name would be mistaken for a table.

    Examples
    --------
    >>> card_files("out/leaderboard.md")[:2]
    (PosixPath('out/leaderboard.md'), PosixPath('out/leaderboard.html'))
    """
    p = Path(path)
    if p.suffix.lower() not in CARD_ENDINGS:
        raise ValueError(
            f"report path {str(path)!r} ends in {p.suffix!r}; a report is written as NAME.md "
            "(figures NAME-1.png, ...) and NAME.html: give NAME, NAME.md or NAME.html."
        )
    base = p.with_suffix("") if p.suffix else p
    figures = [] if report is None else [p.parent / n for n in report.figure_names(base.name)]
    return base.with_name(base.name + ".md"), base.with_name(base.name + ".html"), figures


# --- report cards ---------------------------------------------------------------


#: How the card names the rows of :meth:`SingleJudgeResult.judge_quality` (Fiedler's notation).
_QUANTITY_NAMES = {"tpr": "TPR (q1)", "tnr": "TNR (q0)", "youden_j": "Youden's J"}

#: Said when Fiedler's diagnostics (section 7) raise nothing.
_NO_WARNING = "Warnings: the diagnostics raise none."


def add_single_judge(
    report: Report, result: SingleJudgeResult, *, name: str = "the model", level: int = 2
) -> None:
    """Fiedler section 7's checklist for one model judged by one judge, as one section.

    Estimand, task and calibration design as notes; the estimates with the
    randomness each interval covers, and the judge's quality, as tables; the
    warnings that weaken the claim.
    """
    c = result.calibration
    alpha = result.alpha
    percent = f"{1 - alpha:.0%}"
    frame = result.estimators(alpha).reset_index()[
        ["method", "estimate", "low", "high", "se", "covers"]
    ]
    quality = result.judge_quality(alpha).reset_index()
    quality["quantity"] = quality["quantity"].map(_QUANTITY_NAMES)
    notes = [
        "Estimand: theta, the rate at which humans would label the test responses valid. "
        f"Bias-corrected with {result.method} (the reported estimate); the naive judge "
        "valid-rate is shown beside it and estimates the judge's rate, not theta.",
        "Task: single-model estimation. Calibration: model-specific, "
        f"m = {c.m} human-labelled items (m1 = {c.n_pos} valid, m0 = {c.n_neg} invalid; "
        f"{c.n_dropped} dropped); test n = {result.n} judged items ({result.n_dropped} dropped "
        "for a missing judge label).",
    ]
    if not result.warnings:
        notes.append(_NO_WARNING)
    tables = {
        f"Estimates with {percent} intervals and the randomness each covers": frame,
        f"Judge quality on the calibration items ({percent} intervals: Wilson for the rates, "
        "Agresti-Caffo for J)": quality,
    }
    summary = Summary(f"Single-judge estimate: {name}", tables, tuple(notes), result.warnings)
    report.add(summary, level)
    from regression.single_judge.plots import plot_single_judge

    report.figure(
        plot_single_judge(result),
        f"{name}: naive, Rogan-Gladen and PPI++ estimates of theta with {percent} intervals.",
    )


def add_comparison(report: Report, comparison: ModelComparison, *, level: int = 2) -> None:
    """Fiedler section 7's checklist for a comparison of two models, as one section."""
    a, b = comparison.labels
    design = (
        "paired (both models on the same test items)"
        if comparison.paired
        else "independent test sets"
    )
    dj = comparison.delta_j
    dj_low, dj_high = dj.bounds(dj.alpha, dj.alternative)
    notes = [
        f"Task: model comparison, Delta theta = theta[{a}] - theta[{b}]; {design}. "
        f"Calibration: model-specific (m = {comparison.calibration_a.m} for {a}, "
        f"{comparison.calibration_b.m} for {b}) beside shared ({comparison.shared_calibration}, "
        f"m = {comparison.calibration_shared.m}); shared calibration assumes the judge is "
        "equally good on both models.",
        f"Delta J = J[{a}] - J[{b}] = {dj.estimate:+.3f} "
        f"[{dj_low:+.3f}, {dj_high:+.3f}] (bootstrap over calibration items)"
        + (
            "; the interval excludes 0: shared calibration is not defensible."
            if dj.excludes_zero
            else "."
        ),
    ]
    if not comparison.warnings:
        notes.append(_NO_WARNING)
    frame = comparison.to_frame(comparison.alpha).reset_index(drop=True)
    frame["covers"] = [est.covers for est in comparison.estimates]
    tables = {
        "Estimates with bootstrap intervals (Fiedler App. E.4) and delta-method SEs": frame[
            ["method", "estimate", "low", "high", "se_delta", "covers"]
        ]
    }
    summary = Summary(f"Comparison: {a} vs {b}", tables, tuple(notes), comparison.warnings)
    report.add(summary, level)
    from regression.single_judge.plots import plot_comparison

    report.figure(
        plot_comparison(comparison),
        f"Delta theta = theta[{a}] - theta[{b}] by each estimator, with its "
        f"{1 - comparison.alpha:.0%} bootstrap interval (grey line: no difference).",
    )


def add_estimate(
    report: Report,
    summary: Summary,
    *,
    level: int = 2,
    figure: Figure | None = None,
    caption: str = "",
) -> None:
    """The card of any estimate: its :class:`~regression.results.Summary`, as one section,
    and its ``figure`` (with ``caption``) below it.

    ``summary`` is the result's ``summary(...)`` (computed once by the caller,
    so the intervals are not computed again). Its tables come with their index
    as a column (a generator's name stays beside its numbers), never pandas'
    row numbers; an empty table is left out.
    """
    tables = {name: flat_table(t) for name, t in summary.tables.items() if not t.empty}
    report.add(Summary(summary.title, tables, summary.notes, summary.warnings), level)
    if figure is not None:
        report.figure(figure, caption)


def add_fit(
    report: Report,
    summary: Summary,
    result: Any,
    human: pd.DataFrame | None = None,
    *,
    alpha: float = 0.05,
    level: int = 2,
    figure: Figure | None = None,
) -> None:
    """The card of a many-judge fit (``jurycal fit --report``): its summary and its figure.

    ``figure``: the caller's (:func:`fit_figure`, built once for the card and
    ``--plot``); else built here.
    """
    if figure is None:
        figure = fit_figure(summary, result, human, alpha=alpha)
    if summary.tables["precision"]["low"].notna().any():
        caption = (
            f"Precision per generator with its {1 - alpha:.0%} interval, coloured by role; "
            "crosses: the human-labelled precision."
        )
    else:
        caption = (
            "Left: precision per generator (crosses: the human-labelled precision); right: "
            "the validators' fitted TPR against TNR."
        )
    add_estimate(report, summary, level=level, figure=figure, caption=caption)


def fit_figure(
    summary: Summary, result: Any, human: pd.DataFrame | None = None, *, alpha: float = 0.05
) -> Figure:
    """A fit's figure: the intervals it computed (a forest plot), or its estimates without them.

    :func:`~regression.latent.plots.plot_precision_intervals` of the summary's
    ``precision`` table where it has intervals, else
    :func:`~regression.latent.plots.plot_latent_fit`.
    """
    from regression.latent.plots import plot_latent_fit, plot_precision_intervals

    table = summary.tables["precision"]
    if table["low"].notna().any():
        return plot_precision_intervals(
            table, title=f"Precision per generator, {1 - alpha:.0%} intervals ({result.method})"
        )
    return plot_latent_fit(result, human)


def add_leaderboard(
    report: Report,
    board: Leaderboard,
    *,
    generators: Sequence[Any] = (),
    top: int = 20,
    level: int = 2,
    summary: Summary | None = None,
    figure: Figure | None = None,
) -> None:
    """A leaderboard: its summary (:func:`add_estimate`) and its figure.

    The summary shows the top ``top`` generators and the ``generators``
    named, wherever they rank, with the decided pairs between them. The
    figure puts the estimates and intervals in order, best on top, with
    each simultaneous rank set beside its name, and the matrix of the pairs
    decided while it fits (up to ``regression.ranking.plot.MATRIX_MAX``
    generators); a larger board shows the top and the generators named,
    beside every generator's rank set. ``summary`` and ``figure``: those
    already built by the caller (``board.summary(board.alpha, top=top, generators=generators)``
    and :func:`~regression.ranking.plot.plot_board`), not built again.
    """
    if summary is None:
        summary = board.summary(board.alpha, top=top, generators=generators)
    if figure is None:
        from regression.ranking.plot import plot_board

        figure = plot_board(board, generators=generators, top=top)
    add_estimate(
        report, summary, level=level, figure=figure, caption=_board_caption(board, top, generators)
    )


def _board_caption(board: Leaderboard, top: int | None, generators: Sequence[Any] = ()) -> str:
    """What the board's figure (:func:`~regression.ranking.plot.plot_board` with ``top``) shows."""
    from regression.ranking.plot import MATRIX_MAX, plotted_rows

    g = len(board.table)
    drawn = len(plotted_rows(board, top, generators))
    level = f"{1 - board.alpha:.0%}"
    if g <= MATRIX_MAX:
        which = "Estimates" if drawn == g else f"The top {drawn} of {g} generators' estimates"
        return (
            f"{which} with {level} intervals, best on top, rank sets in brackets; right: the "
            f"pairs decided between them ({board.procedure}; row above column in blue, below "
            "in orange)."
        )
    return (
        f"Left: {drawn} of {g} generators, the top"
        + (" and those named (orange)" if len(generators) else "")
        + f", estimates with {level} intervals, rank sets in brackets; right: every "
        "generator's rank set (bar) and rank of its estimate (dot), in order of estimate."
    )


def add_pairwise_leaderboard(
    report: Report,
    result: Any,
    board: Leaderboard | None,
    *,
    alpha: float = 0.05,
    top: int = 20,
    estimand: str = "win_rate",
    level: int = 2,
    summary: Summary | None = None,
    figure: Figure | None = None,
) -> None:
    """A leaderboard from pairwise verdicts (:func:`regression.pairwise.board.pairwise_summary`)
    and the board's figure (:func:`pairwise_plot`).

    ``alpha``: the level without a board (the board's own otherwise).
    ``summary`` and ``figure``: those already built by the caller, not built again.
    """
    from regression.pairwise.board import pairwise_summary

    alpha = board.alpha if board is not None else alpha
    if summary is None:
        summary = pairwise_summary(result, board, alpha, top=top, estimand=estimand)
    if board is None:  # the judges' own win rates: no interval, no rank set to draw
        add_estimate(report, summary, level=level)
        return
    figure = figure if figure is not None else pairwise_plot(board, estimand, top=top)
    add_estimate(report, summary, level=level, figure=figure, caption=_board_caption(board, top))


def pairwise_plot(
    board: Leaderboard, estimand: str = "win_rate", *, top: int | None = None
) -> Figure:
    """The figure of a pairwise leaderboard (:func:`~regression.ranking.plot.plot_board`), its
    axis the estimand, its rows the top ``top`` as the summary shows them."""
    from regression.pairwise.board import quantity_name
    from regression.ranking.plot import plot_board, plotted_rows

    quantity = quantity_name(estimand)
    figure = plot_board(
        board,
        f"Leaderboard from pairwise verdicts: {quantity}s ({board.method})",
        quantity=quantity,
        top=top,
    )
    # an arena has few generators with long names: the matrix's names need the room
    rows = plotted_rows(board, top)
    longest = max(len(str(g)) for g in rows.index)
    width, height = figure.get_size_inches()
    figure.set_size_inches(
        width + 0.06 * longest, max(height, 1.6 + 0.38 * len(rows) + 0.09 * longest)
    )
    figure.tight_layout()
    return figure


def section(
    title: str,
    notes: Sequence[str] = (),
    tables: dict[str, pd.DataFrame] | None = None,
    warnings: Sequence[str] = (),
) -> Summary:
    """A hand-made section (the demo's): a title, notes, named tables, warnings."""
    return Summary(title, dict(tables or {}), tuple(notes), tuple(warnings))
