"""The command table and the options of the top-level parser, cheap to import.

``jurycal --help`` and ``jurycal --version`` read only this module: a command's
own module (and the pandas, scipy or torch it needs) is imported when that
command is named on the command line.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "add_progress_options",
    "summary",
]

#: Exit codes: success, bad input or output (the message names the file, line or value),
#: command-line usage (argparse, including an argument value out of bounds), a bug.
EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

#: Command -> (the module that registers and runs it, its one-line help), in the order
#: ``jurycal --help`` lists them. A module's ``register`` takes its help from here.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("jurycal.cli.demo", "run the whole pipeline on the bundled example data"),
    "import": ("jurycal.cli.import_", "read an eval tool's result files into the judgments table"),
    "judge": (
        "jurycal.cli.judge",
        "one judge: naive / Rogan-Gladen / PPI++ side by side with J diagnostics",
    ),
    "compare": (
        "jurycal.cli.compare",
        "two models judged by one judge: shared vs model-specific calibration, Delta J",
    ),
    "report": (
        "jurycal.cli.report",
        "write a report card (Markdown and HTML) following Fiedler's section 7 checklist",
    ),
    "count": (
        "jurycal.cli.count",
        "turn judgments files of any size into generator x validator counts (DuckDB, out of core)",
    ),
    "repair": (
        "jurycal.cli.repair",
        "repair raw validator outputs into the judgments table, accounting for every pair",
    ),
    "fit": (
        "jurycal.cli.latent",
        "latent-trait regression: precision per generator, TPR/TNR per validator, CIs",
    ),
    "estimate": (
        "jurycal.cli.latent",
        "precision of a new generator, unlabelled or partially labelled "
        "(the paper's section 5.1 use)",
    ),
    "rank": (
        "jurycal.cli.latent",
        "leaderboard: differences between generators and simultaneous rank sets",
    ),
    "suggest": (
        "jurycal.cli.suggest",
        "the items to label next (active choice), with their inclusion probabilities",
    ),
    "plan": (
        "jurycal.cli.suggest",
        "the human labels each generator needs for a target interval width",
    ),
    "vote": (
        "jurycal.cli.vote",
        "label items by majority / supermajority / minority veto; precision per generator",
    ),
    "pick-threshold": (
        "jurycal.cli.pick_threshold",
        "choose a rule's threshold on human-labelled generators (leave-one-generator-out)",
    ),
}


def summary(command: str) -> str:
    """The one-line help of ``command``, as ``jurycal --help`` lists it."""
    return COMMANDS[command][1]


def add_progress_options(parser: argparse.ArgumentParser, *, default: Any = False) -> None:
    """``--quiet`` and ``--progress``; by default bars show only when stderr is a terminal."""
    parser.add_argument(
        "--quiet", action="store_true", default=default, help="never show progress bars"
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        default=default,
        help="show progress bars even when stderr is not a terminal",
    )
