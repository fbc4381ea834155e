"""The ``jurycal`` command line.

Exit codes: 0 success, 1 bad input (the message names the value), 2 usage.
Each subcommand is registered in :func:`build_parser` and implemented by a
``_cmd_*`` function that takes the parsed arguments and returns an exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jurycal", description="Trustworthy estimates from noisy LLM judges."
    )
    parser.add_argument("--quiet", action="store_true", help="silence progress bars")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser("demo", help="run the main job on the bundled example data")
    demo.set_defaults(handler=_cmd_demo)
    return parser


def _cmd_demo(args: argparse.Namespace) -> int:
    from jurycal.demo import run_demo

    print(run_demo(quiet=args.quiet))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except ValueError as err:
        print(f"jurycal: error: {err}", file=sys.stderr)
        return 1
