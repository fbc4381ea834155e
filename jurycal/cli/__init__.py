"""The ``jurycal`` command line: one module per command, registered in :data:`COMMANDS`.

Exit codes (also in ``docs/cli.md``): 0 success; 1 bad input or output (a
one-line ``jurycal: error: ...`` naming the file, line or value); 2 command-line
usage (argparse: an unknown command or option, a value out of bounds such as
``--n-boot 1000000000``); 3 an unexpected error, reported in one line with a
hint (``JURYCAL_DEBUG=1`` shows the traceback). Warnings print as one
``jurycal: warning: ...`` line each.

A command module has ``register(subparsers) -> None``, which adds its
subparser (with :func:`jurycal.cli.common.command_options` as a parent) and
sets ``handler=run``, and ``run(args) -> int``. Adding a command is adding its
module to :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from jurycal import __version__
from jurycal.cli import (
    compare,
    count,
    demo,
    import_,
    judge,
    latent,
    pick_threshold,
    repair,
    report,
    suggest,
    vote,
)
from jurycal.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    add_progress_options,
)

__all__ = ["COMMANDS", "build_parser", "main"]

#: The command modules, in the order ``jurycal --help`` lists them.
COMMANDS: list[ModuleType] = [
    demo,
    import_,
    judge,
    compare,
    report,
    count,
    repair,
    latent,
    suggest,
    vote,
    pick_threshold,
]


def build_parser() -> argparse.ArgumentParser:
    """The ``jurycal`` argument parser, with every command in :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="jurycal",
        description="Trustworthy estimates from noisy LLM judges. "
        "Tables in: CSV, TSV, Parquet or JSON Lines (by file ending, optionally .gz).",
        epilog="Exit codes: 0 success, 1 bad input or output, 2 usage, 3 unexpected error "
        "(JURYCAL_DEBUG=1 shows its traceback).",
    )
    parser.add_argument("--version", action="version", version=f"jurycal {__version__}")
    add_progress_options(parser)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    print(f"jurycal: warning: {_one_line(str(message))}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``jurycal`` with ``argv`` (default: the process's arguments); return the exit code.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name.

    Returns
    -------
    int
        0 success, 1 bad input or output, 3 an unexpected error. Usage errors
        (2) and ``--help`` / ``--version`` (0) leave through ``SystemExit``, as
        argparse does.
    """
    args = build_parser().parse_args(argv)
    debug = os.environ.get("JURYCAL_DEBUG", "") not in ("", "0")
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        try:
            return int(args.handler(args))
        except ValueError as err:
            if debug:
                raise
            print(f"jurycal: error: {_one_line(str(err))}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except OSError as err:
            if debug:
                raise
            where = f" {err.filename!r}" if getattr(err, "filename", None) else ""
            reason = err.strerror or _one_line(str(err))
            print(f"jurycal: error: cannot use{where}: {reason}.", file=sys.stderr)
            return EXIT_BAD_INPUT
        except KeyboardInterrupt:
            print("jurycal: interrupted.", file=sys.stderr)
            return 130
        except MemoryError:
            print(
                "jurycal: error: out of memory; try fewer --n-boot replicates or a smaller input.",
                file=sys.stderr,
            )
            return EXIT_BAD_INPUT
        except Exception as err:  # the last net: one line instead of a traceback
            if debug:
                raise
            print(
                f"jurycal: error: unexpected {type(err).__name__}: {_one_line(str(err))[:300]} "
                "(a bug in jurycal; rerun with JURYCAL_DEBUG=1 for the traceback and report it).",
                file=sys.stderr,
            )
            return EXIT_INTERNAL
