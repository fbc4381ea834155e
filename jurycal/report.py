"""Report cards in Markdown and HTML.

A report is a list of blocks (headings, paragraphs, tables, warnings, figures)
rendered by two small renderers, so the Markdown and the HTML say the same
thing. Figures are embedded in the HTML as PNG data and written beside the
Markdown file.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from regression.results import flat_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from regression import ModelComparison, SingleJudgeResult
    from regression.ranking import Leaderboard
    from regression.results import Summary

__all__ = [
    "CARD_ENDINGS",
    "Report",
    "card_files",
    "add_comparison",
    "add_estimate",
    "add_single_judge",
]


@dataclass(frozen=True)
class _Heading:
    text: str
    level: int


@dataclass(frozen=True)
class _Paragraph:
    text: str


@dataclass(frozen=True)
class _Warning:
    text: str


@dataclass(frozen=True)
class _Table:
    frame: pd.DataFrame
    digits: int


@dataclass(frozen=True)
class _Figure:
    png: bytes
    caption: str


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (float, np.floating)):
        return "" if pd.isna(value) else f"{value:.{digits}f}"
    return "" if value is None or value is pd.NA else str(value)


@dataclass
class Report:
    """An ordered list of blocks with Markdown and HTML renderers.

    Examples
    --------
    >>> import pandas as pd
    >>> report = Report("Demo")
    >>> report.paragraph("Two numbers.")
    >>> report.table(pd.DataFrame({"x": [0.12345]}), digits=2)
    >>> print(report.to_markdown())
    # Demo
    <BLANKLINE>
    Two numbers.
    <BLANKLINE>
    | x |
    |---|
    | 0.12 |
    <BLANKLINE>
    """

    title: str
    blocks: list[Any] = field(default_factory=list)

    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(_Heading(text, level))

    def paragraph(self, text: str) -> None:
        self.blocks.append(_Paragraph(text))

    def warning(self, text: str) -> None:
        self.blocks.append(_Warning(text))

    def table(self, frame: pd.DataFrame, digits: int = 3) -> None:
        self.blocks.append(_Table(frame, digits))

    def figure(self, figure: Figure, caption: str) -> None:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
        self.blocks.append(_Figure(buffer.getvalue(), caption))

    def outline(self) -> list[str]:
        """The section headings (level 2), in order."""
        return [b.text for b in self.blocks if isinstance(b, _Heading) and b.level == 2]

    def figure_names(self, stem: str) -> list[str]:
        """The file names of the figures for a card named ``stem``: ``stem-1.png``, ``stem-2.png``, ..."""
        n_figures = sum(isinstance(b, _Figure) for b in self.blocks)
        return [f"{stem}-{n}.png" for n in range(1, n_figures + 1)]

    def to_markdown(self, stem: str | None = None) -> str:
        """Markdown text; figures link to :meth:`figure_names` of ``stem`` (left out when None)."""
        lines = [f"# {self.title}", ""]
        names = iter(self.figure_names(stem or ""))
        for block in self.blocks:
            if isinstance(block, _Heading):
                lines += ["#" * block.level + " " + block.text, ""]
            elif isinstance(block, _Paragraph):
                lines += [block.text, ""]
            elif isinstance(block, _Warning):
                lines += [f"> **Warning.** {block.text}", ""]
            elif isinstance(block, _Table):
                frame = block.frame
                header = [str(c) for c in frame.columns]
                lines.append("| " + " | ".join(header) + " |")
                lines.append("|" + "|".join("---" for _ in header) + "|")
                for row in frame.itertuples(index=False):
                    lines.append("| " + " | ".join(_cell(v, block.digits) for v in row) + " |")
                lines.append("")
            elif isinstance(block, _Figure) and stem is not None:
                name = next(names)
                lines += [f"![{block.caption}]({name})", "", f"*{block.caption}*", ""]
        return "\n".join(lines)

    def to_html(self) -> str:
        """A self-contained HTML page (figures embedded as PNG data)."""
        esc = html.escape
        parts = [
            "<!DOCTYPE html>",
            '<html><head><meta charset="utf-8">',
            f"<title>{esc(self.title)}</title>",
            "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
            ".warning{background:#fff3cd;border-left:4px solid #e0a800;padding:.5em}"
            # a figure is drawn wider than the page column; it scales down rather than overflow
            "figure{margin:1em 0}img{max-width:100%;height:auto}</style>",
            "</head><body>",
            f"<h1>{esc(self.title)}</h1>",
        ]
        for block in self.blocks:
            if isinstance(block, _Heading):
                parts.append(f"<h{block.level}>{esc(block.text)}</h{block.level}>")
            elif isinstance(block, _Paragraph):
                parts.append(f"<p>{esc(block.text)}</p>")
            elif isinstance(block, _Warning):
                parts.append(f'<p class="warning"><b>Warning.</b> {esc(block.text)}</p>')
            elif isinstance(block, _Table):
                shown = block.frame.map(lambda v, d=block.digits: _cell(v, d))
                parts.append(shown.to_html(index=False, escape=True, border=0))
            elif isinstance(block, _Figure):
                data = base64.b64encode(block.png).decode("ascii")
                parts.append(
                    f'<figure><img alt="{esc(block.caption)}" src="data:image/png;base64,{data}">'
                    f"<figcaption>{esc(block.caption)}</figcaption></figure>"
                )
        parts.append("</body></html>")
        return "\n".join(parts)

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
        pngs = [b.png for b in self.blocks if isinstance(b, _Figure)]
        for figure, png in zip(figures, pngs, strict=True):
            write_atomic(figure, lambda tmp, png=png: tmp.write_bytes(png))
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


def add_single_judge(report: Report, result: SingleJudgeResult, *, name: str = "the model") -> None:
    """Fiedler section 7, points 1-5 and 7, for one model judged by one judge."""
    c = result.calibration
    level = f"{1 - result.alpha:.0%}"
    report.heading(f"Single-judge estimate: {name}")
    report.paragraph(
        "1. Estimand: theta, the rate at which humans would label the test responses valid. "
        f"Bias-corrected with {result.method} (the reported estimate); the naive judge "
        "valid-rate is shown beside it and estimates the judge's rate, not theta."
    )
    report.paragraph(
        "2. Task: single-model estimation. 3. Calibration: model-specific, "
        f"m = {c.m} human-labelled items (m1 = {c.n_pos} valid, m0 = {c.n_neg} invalid; "
        f"{c.n_dropped} dropped); test n = {result.n} judged items ({result.n_dropped} dropped "
        "for a missing judge label)."
    )
    alpha = result.alpha
    frame = result.to_frame(alpha).reset_index()[
        ["method", "estimate", "low", "high", "se", "covers"]
    ]
    report.paragraph(f"4. Estimates with {level} intervals and the randomness each covers:")
    report.table(frame)
    quality = result.judge_quality(alpha).reset_index()
    quality["quantity"] = quality["quantity"].map(_QUANTITY_NAMES)
    report.paragraph(
        f"5. Judge quality on the calibration items ({level} intervals: Wilson for the rates, "
        "Agresti-Caffo for J):"
    )
    report.table(quality)
    _add_warnings(report, result.warnings)


def add_comparison(report: Report, comparison: ModelComparison) -> None:
    """Fiedler section 7, points 2-4, 6 and 7, for a comparison of two models."""
    a, b = comparison.labels
    report.heading(f"Comparison: {a} vs {b}")
    design = (
        "paired (both models on the same test items)"
        if comparison.paired
        else ("independent test sets")
    )
    report.paragraph(
        f"2. Task: model comparison, Delta theta = theta[{a}] - theta[{b}]; {design}. "
        f"3. Calibration: model-specific (m = {comparison.calibration_a.m} for {a}, "
        f"{comparison.calibration_b.m} for {b}) beside shared ({comparison.shared_calibration}, "
        f"m = {comparison.calibration_shared.m}); shared calibration assumes the judge is "
        "equally good on both models."
    )
    frame = comparison.to_frame().reset_index()
    frame["covers"] = [e.covers for e in comparison.estimates]
    report.paragraph(
        "4. Estimates with bootstrap intervals (Fiedler App. E.4) and delta-method SEs:"
    )
    report.table(frame[["method", "estimate", "ci_low", "ci_high", "se_delta", "covers"]])
    dj = comparison.delta_j
    report.paragraph(
        f"6. Delta J = J[{a}] - J[{b}] = {dj.estimate:+.3f} "
        f"[{dj.ci[0]:+.3f}, {dj.ci[1]:+.3f}] (bootstrap over calibration items)"
        + (
            "; the interval excludes 0: shared calibration is not defensible."
            if dj.excludes_zero
            else "."
        )
    )
    _add_warnings(report, comparison.warnings)


def _add_warnings(report: Report, warnings: Sequence[str]) -> None:
    if not warnings:
        report.paragraph("7. Diagnostics raise no warning.")
        return
    report.paragraph("7. The diagnostics weaken the claim:")
    for text in warnings:
        report.warning(text)


def add_estimate(report: Report, summary: Summary) -> None:
    """The card of any estimate: its :class:`~regression.results.Summary`, rendered.

    ``summary`` is the result's ``summary(...)`` (computed once by the caller,
    so the intervals are not computed again): its title, its notes (what the
    interval covers, the self-check, the fit's diagnostics), each of its tables
    and its warnings.
    """
    report.heading(summary.title)
    for note in summary.notes:
        report.paragraph(note)
    for name, table in summary.tables.items():
        if table.empty:
            continue
        report.paragraph(f"{name[:1].upper()}{name[1:]}:")
        report.table(flat_table(table), digits=4)
    _add_warnings(report, summary.warnings)


def add_leaderboard(report: Report, board: Leaderboard) -> None:
    """A leaderboard: its summary (:func:`add_estimate`) and its figure.

    The figure puts every generator's estimate and interval in order, best
    on top, with its simultaneous rank set beside its name, and the matrix
    of the pairs decided (which generator is above which).
    """
    add_estimate(report, board.summary())
    report.figure(
        board.plot(),
        f"Estimates with {1 - board.alpha:.0%} intervals, best on top, rank sets in brackets; "
        "right: the pairs decided (row above column in blue, below in orange).",
    )
