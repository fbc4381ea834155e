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
name, module and one-line help to :data:`COMMANDS` (in
:mod:`jurycal.cli.commands`); a command's module is imported only when the
command is named, so ``jurycal --help`` starts without pandas, scipy or torch.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from jurycal import __version__
from jurycal.cli.commands import (
    COMMANDS,
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_USAGE,
    add_progress_options,
)
from jurycal.cli.errors import error_record, unrecognized_hint

__all__ = ["COMMANDS", "build_parser", "main"]


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``jurycal`` argument parser.

    Parameters
    ----------
    commands : iterable of str, optional
        The commands whose modules are imported and whose options are
        registered in full; the others appear in ``--help`` with their one-line
        help only. Default: every command in :data:`COMMANDS`.
    """
    names = COMMANDS if commands is None else commands
    wanted = {COMMANDS[name][0] for name in names}
    parser = _Parser(
        prog="jurycal",
        description="Trustworthy estimates from noisy LLM judges. "
        "Tables in: CSV, TSV, Parquet or JSON Lines (by file ending, optionally .gz).",
        epilog="Exit codes: 0 success, 1 bad input or output, 2 usage, 3 unexpected error "
        "(JURYCAL_DEBUG=1 shows its traceback).",
    )
    parser.add_argument("--version", action="version", version=f"jurycal {__version__}")
    add_progress_options(parser)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if name in subparsers.choices:
            continue  # registered with another command of its module
        if module in wanted:  # registers every command of that module
            importlib.import_module(module).register(subparsers)
        else:
            subparsers.add_parser(name, help=help_text, add_help=False)
    return parser


def named_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (the top-level options
    take no value), or None."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _debugging() -> bool:
    return os.environ.get("JURYCAL_DEBUG", "") not in ("", "0")


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """A warning as one ``jurycal: warning:`` line; a library's own words never reach the user.

    jurycal's warnings (:class:`regression.errors.JurycalWarning`) are written for the
    user. A numerical warning (numpy's
    ``invalid value encountered in divide``) means a computation went where it
    should not: it is reported as a bug, its words shown under ``JURYCAL_DEBUG=1``.
    A library's deprecation notice is for jurycal's developers and shows only then.
    """
    text = _one_line(str(message))
    if _debugging():
        text = f"{text} [{category.__name__} at {filename}:{lineno}]"
    elif issubclass(category, (DeprecationWarning, PendingDeprecationWarning, FutureWarning)):
        return
    elif not _is_jurycal_warning(category):
        what = (
            "a numerical step went out of range"
            if issubclass(category, RuntimeWarning)
            else "a library jurycal uses warned about its own workings"
        )
        text = f"{what} (a bug in jurycal; rerun with JURYCAL_DEBUG=1 to see where, and report it)."
    print(f"jurycal: warning: {text}", file=sys.stderr)


def _is_jurycal_warning(category: type[Warning]) -> bool:
    from regression.errors import JurycalWarning

    return issubclass(category, JurycalWarning)


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one JSON object on stderr under ``--json``."""

    json_errors = False
    #: Said after argparse's "unrecognized arguments" for a file given where the command being
    #: parsed takes none.
    unrecognized_hint = ""
    #: The options of the command being parsed: a misspelt one is pointed to its near match.
    command_options: tuple[str, ...] = ()

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments"):
            hint = unrecognized_hint(message, self.command_options, self.unrecognized_hint)
            message = f"{message} ({hint})" if hint else message
        if self.json_errors:
            err = argparse.ArgumentError(None, message)
            print(json.dumps(error_record(err, EXIT_USAGE)), file=sys.stderr)
            self.exit(EXIT_USAGE)
        super().error(message)


def _command_options(parser: argparse.ArgumentParser, command: str | None) -> tuple[str, ...]:
    """The option strings of ``command``'s subparser (none without a command)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return tuple(action.choices[command]._option_string_actions)
    return ()


def _fail(err: BaseException, message: str, code: int, as_json: bool) -> int:
    """Report ``err`` on stderr: ``jurycal: error: message``, or the JSON error object."""
    if as_json:
        record = error_record(err, code)
        record["error"]["message"] = message
        print(json.dumps(record), file=sys.stderr)
    else:
        print(f"jurycal: error: {message}", file=sys.stderr)
    return code


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
        argparse does. Under ``--json`` every error is one JSON object on
        stderr (:func:`jurycal.cli.errors.error_record`), with the same code.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    command = named_command(argv)
    as_json = "--json" in argv
    _Parser.json_errors = as_json
    _Parser.unrecognized_hint = (
        f"{command} takes the human labels held so far as --labels HUMAN"
        if command in ("suggest", "plan")
        else ""
    )
    parser = build_parser([] if command is None else [command])
    _Parser.command_options = _command_options(parser, command)
    args = parser.parse_args(argv)
    debug = _debugging()
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        try:
            return int(args.handler(args))
        except ValueError as err:
            if debug:
                raise
            return _fail(err, _one_line(str(err)), EXIT_BAD_INPUT, as_json)
        except (
            BrokenPipeError
        ):  # the reader left (``jurycal ... | head``): stop quietly, as git does
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return EXIT_BAD_INPUT
        except ModuleNotFoundError as err:  # an optional extra, or a broken install
            if debug:
                raise
            message = _one_line(str(err))
            if "pip install" not in message:
                message = (
                    f"the package {err.name!r} that jurycal needs is not installed; "
                    "reinstall jurycal (pip install jurycal)."
                )
            return _fail(err, message, EXIT_BAD_INPUT, as_json)
        except OSError as err:
            if debug:
                raise
            where = f" {err.filename!r}" if getattr(err, "filename", None) else ""
            reason = err.strerror or _one_line(str(err))
            return _fail(err, f"cannot use{where}: {reason}.", EXIT_BAD_INPUT, as_json)
        except KeyboardInterrupt:
            print("jurycal: interrupted.", file=sys.stderr)
            return 130
        except MemoryError as err:
            message = "out of memory; try fewer --n-boot replicates or a smaller input."
            return _fail(err, message, EXIT_BAD_INPUT, as_json)
        except Exception as err:  # the last net: one line instead of a traceback
            if debug:
                raise
            message = (
                f"unexpected {type(err).__name__}: {_one_line(str(err))[:300]} "
                "(a bug in jurycal; rerun with JURYCAL_DEBUG=1 for the traceback and report it)."
            )
            return _fail(err, message, EXIT_INTERNAL, as_json)
