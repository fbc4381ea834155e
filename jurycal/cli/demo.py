"""``jurycal demo``: the whole pipeline on the bundled example data."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from jurycal.cli.common import add_command, emit, progress_setting

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``demo`` to the ``jurycal`` subparsers."""
    parser = add_command(
        subparsers,
        "demo",
        description="Repair, voting, generators without human labels, a leaderboard, one "
        "judge and a leaderboard from pairwise verdicts, on the bundled data; writes OUT/report.md (figures report-1.png, ... beside it) "
        "and OUT/report.html, and prints the card's outline with the numbers that matter and a link to the card.",
        examples=["jurycal demo", "jurycal demo --out /tmp/demo --json"],
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("jurycal-demo"),
        metavar="DIR",
        help="directory the report card is written into, made if missing (default jurycal-demo)",
    )
    parser.set_defaults(handler=run)


def _check_out_dir(out: Path) -> None:
    """Refuse an ``--out`` that is a file, or whose nearest existing folder is read-only."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {str(out)!r} is a file; the demo writes into a directory.")
    existing = out
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"--out {str(out)!r}: {str(existing)!r} is a file, not a directory.")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write into {str(existing)!r} (--out {str(out)!r}).")


def run(args: argparse.Namespace) -> int:
    """Run the demo; print the card's outline and where it went (with ``--json``, the card too)."""
    _check_out_dir(args.out)

    from jurycal.demo import run_demo
    from regression.progress import show_progress

    card, written = run_demo(quiet=not show_progress(progress_setting(args)), out_dir=args.out)
    markdown, page = written[0], written[-1]
    lines = [card.title, "(estimates with 95 % intervals [low, high])"]
    for heading in card.outline():
        lines.append(f"  {heading}")
        lines += [f"      {line}" for line in card.highlights.get(heading, [])]
    # an absolute file:// URI: a terminal makes it a link, whatever the current directory
    text = "\n".join(
        [
            *lines,
            "",
            f"the report card: {page.resolve().as_uri()}",
            f"  as Markdown: {markdown.resolve().as_uri()} (figures beside it)",
        ]
    )
    payload = {
        "report": markdown,
        "html": page,
        "written": written,
        "markdown": card.to_markdown(stem=markdown.stem),
        "highlights": card.highlights,
    }
    emit(args, text, payload, written=written)
    return 0
