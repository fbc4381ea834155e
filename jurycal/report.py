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
    "add_leaderboard",
    "add_pairwise_leaderboard",
    "add_single_judge",
    "card_files",
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
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
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


def add_estimate(report: Report, summary: Summary, *, level: int = 2) -> None:
    """The card of any estimate: its :class:`~regression.results.Summary`, as one section.

    ``summary`` is the result's ``summary(...)`` (computed once by the caller,
    so the intervals are not computed again). Its tables come with their index
    as a column (a generator's name stays beside its numbers); an empty table
    is left out.
    """
    tables = {name: flat_table(t) for name, t in summary.tables.items() if not t.empty}
    report.add(Summary(summary.title, tables, summary.notes, summary.warnings), level)


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
    add_estimate(report, summary, level=level)
    _board_figure(report, board, generators, figure)


def _board_figure(
    report: Report, board: Leaderboard, generators: Sequence[Any] = (), figure: Any = None
) -> None:
    """The board's figure (``figure``, else :func:`~regression.ranking.plot.plot_board`) with its caption."""
    from regression.ranking.plot import MATRIX_MAX, NAMED_MAX, plot_board

    if len(board.table) <= MATRIX_MAX:
        caption = (
            f"Estimates with {1 - board.alpha:.0%} intervals, best on top, rank sets in "
            f"brackets; right: the pairs decided ({board.procedure}; row above column in "
            "blue, below in orange)."
        )
    else:
        caption = (
            f"Left: the top {NAMED_MAX} of {len(board.table)} generators"
            + (" and those named (orange)" if len(generators) else "")
            + f", estimates with {1 - board.alpha:.0%} intervals, rank sets in brackets; "
            "right: every generator's rank set (bar) and rank of its estimate (dot), in order "
            "of estimate."
        )
    if figure is None:
        figure = plot_board(board, generators=generators)
    report.figure(figure, caption)


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
    add_estimate(report, summary, level=level)
    if board is not None:
        figure = figure if figure is not None else pairwise_plot(board, estimand)
        _board_figure(report, board, figure=figure)


def pairwise_plot(board: Leaderboard, estimand: str = "win_rate") -> Figure:
    """The figure of a pairwise leaderboard (:func:`~regression.ranking.plot.plot_board`), its axis the estimand."""
    from regression.pairwise.board import quantity_name
    from regression.ranking.plot import plot_board

    quantity = quantity_name(estimand)
    figure = plot_board(
        board,
        f"Leaderboard from pairwise verdicts: {quantity}s ({board.method})",
        quantity=quantity,
    )
    # an arena has few generators with long names: the matrix's names need the room
    longest = max(len(str(g)) for g in board.table.index)
    width, height = figure.get_size_inches()
    figure.set_size_inches(
        width + 0.06 * longest, max(height, 1.6 + 0.38 * len(board.table) + 0.09 * longest)
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
