"""``jurycal demo``: the whole pipeline on the bundled example data."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from jurycal.cli.commands import summary
from jurycal.cli.common import command_options, emit, progress_setting
from regression.progress import show_progress

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``demo`` to the ``jurycal`` subparsers."""
    parser = subparsers.add_parser(
        "demo",
        parents=[command_options()],
        help=summary("demo"),
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("jurycal-demo"),
        help="directory the report card is written into (made if missing)",
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
    """Run the demo and print its report card (or, with ``--json``, where it went)."""
    from jurycal.demo import run_demo

    _check_out_dir(args.out)
    text = run_demo(quiet=not show_progress(progress_setting(args)), out_dir=args.out)
    emit(args, text, {"report": str(args.out / "report.md"), "markdown": text})
    return 0
