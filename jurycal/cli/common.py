"""What every ``jurycal`` command shares: options, reading inputs, writing outputs, JSON.

Each command module (``jurycal.cli.<command>``) has ``register(subparsers)``,
which adds its subparser with :func:`command_options` as a parent, and
``run(args) -> int``. The helpers here keep the commands' behaviour the same:

- inputs are read by :mod:`jurycal.cli.reading`;
- outputs are checked before any work (:func:`check_outputs`: never an input
  file, a writable directory) and written atomically (:mod:`jurycal.io`);
- ``--json`` prints :func:`jsonable` of the payload; ``--plot`` saves a figure;
- option values are checked by the parser with the types of :mod:`jurycal.cli.options`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from jurycal.cli.commands import add_progress_options
from jurycal.cli.errors import FileError, in_file
from jurycal.cli.options import (  # declared there; here for the commands that import them
    ALPHA_HELP,
    MAX_RESTARTS,
    MAX_SEED,
    MEMORY_UNITS,
    N_BOOT_HELP,
    SEED_HELP,
    add_seed,
    alpha_value,
    capped_int,
    fraction_value,
    fuzzy_threshold_value,
    memory_limit_value,
    n_boot_value,
    number_value,
    positive_int,
    restarts_value,
    seed_value,
    threads_value,
    transfer_bias_value,
    width_value,
)

if TYPE_CHECKING:
    from regression.results import Summary

__all__ = [
    "ALPHA_HELP",
    "N_BOOT_HELP",
    "SEED_HELP",
    "TABLE_FILE",
    "add_command",
    "add_files",
    "MAX_RESTARTS",
    "MAX_SEED",
    "MEMORY_UNITS",
    "add_seed",
    "alpha_value",
    "fraction_value",
    "memory_limit_value",
    "number_value",
    "seed_value",
    "width_value",
    "capped_int",
    "check_files",
    "command_options",
    "emit",
    "fuzzy_threshold_value",
    "in_file",
    "jsonable",
    "n_boot_value",
    "plot_path",
    "positive_int",
    "restarts_value",
    "save_plot",
    "progress_setting",
    "steps",
    "summary_text",
    "threads_value",
    "transfer_bias_value",
    "written_line",
]

# --- options ------------------------------------------------------------------


def command_options(*, plot: bool = False) -> argparse.ArgumentParser:
    """The options every command takes after its name: ``--json``, ``--quiet``, ``--progress``
    and, for commands that draw, ``--plot``."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object on stdout instead of tables (errors: one JSON object on stderr)",
    )
    add_progress_options(parent, default=argparse.SUPPRESS)
    if plot:
        parent.add_argument(
            "--plot",
            type=Path,
            metavar="PNG",
            help="also save a figure to this PNG file, or into this directory as <command>.png",
        )
    return parent


#: What a table file may be, for the positionals' help.
TABLE_FILE = "a table file (.csv, .tsv, .parquet, .jsonl; optionally .gz)"


def add_files(parser: argparse.ArgumentParser, *names: str) -> None:
    """The positional file arguments ``names`` (``judgments``, ``human``, ``calibration``,
    ``test``), each with the same help on every command."""
    what = {
        "judgments": "the validators' votes (generator, item, validator, label)",
        "human": "human labels (generator, item, human)",
        "calibration": "human-labelled items judged by the judge (human, judge)",
        "test": "the judge's labels on the test items (judge)",
    }
    for name in names:
        parser.add_argument(
            name, type=Path, metavar=name.upper(), help=f"{what[name]}: {TABLE_FILE}"
        )


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs as written (pre-wrapped; the examples keep their lines)."""


def add_command(
    subparsers: Any,
    name: str,
    *,
    description: str,
    examples: Sequence[str],
    plot: bool = False,
) -> argparse.ArgumentParser:
    """Add command ``name`` with its one-line help, a description and an example per use (epilog)."""
    import textwrap

    from jurycal.cli.commands import summary

    return cast(
        argparse.ArgumentParser,
        subparsers.add_parser(
            name,
            parents=[command_options(plot=plot)],
            help=summary(name),
            description=textwrap.fill(" ".join(description.split()), 79),
            epilog="examples:\n" + "\n".join(f"  {example}" for example in examples),
            formatter_class=_HelpFormatter,
        ),
    )


def progress_setting(args: argparse.Namespace) -> bool | None:
    """The ``progress`` a library call takes: False for ``--quiet``, True for ``--progress``,
    else None (bars only when stderr is a terminal, :func:`regression.progress.show_progress`)."""
    if getattr(args, "quiet", False):
        return False
    return True if getattr(args, "progress", False) else None


@contextmanager
def steps(args: argparse.Namespace, names: Sequence[str]) -> Iterator[Any]:
    """A progress bar over a command's steps; ``advance(name)`` starts the next one.

    For library calls that take seconds and report no progress of their own
    (a fit with restarts, a bootstrap), the bar says which step is running.
    """
    from tqdm.auto import tqdm

    from regression.progress import show_progress

    bar = tqdm(
        total=len(names),
        disable=not show_progress(progress_setting(args)),
        unit="step",
        leave=False,
    )
    started = 0

    def advance(name: str) -> None:
        nonlocal started
        if started:
            bar.update(1)
        started += 1
        bar.set_description(name, refresh=True)

    try:
        yield advance
    finally:
        bar.close()


# --- inputs ---------------------------------------------------------------------


def check_files(
    inputs: Iterable[Path | None],
    outputs: Iterable[Path | None] = (),
    *,
    card: Path | None = None,
) -> None:
    """Refuse, before any work (and before any heavy import), inputs and outputs that cannot be used.

    Parameters
    ----------
    inputs, outputs : iterable of Path or None
        The command's input files and the files it will write (None: not asked for).
    card : Path, optional
        A report card's path: its ``.md``, ``.html`` and figures
        (:func:`jurycal.report.card_files`) are outputs too.

    Raises
    ------
    FileError
        An input that does not exist, is a directory or cannot be read; an
        output that is an input (or another output), a directory, or in a
        directory that does not exist; a card path that is an input, ends in
        another format's ending, or whose figures would replace an input. Paths
        are compared resolved: ``./a.csv`` and ``a.csv`` are one file, and so
        are two names of one file through a link.
    """
    seen = {}
    for path in inputs:
        if path is None:
            continue
        if Path(path).is_dir():
            raise FileError(f"input {str(path)!r} is a directory, not a table file.", file=path)
        if not Path(path).exists():
            raise FileError(f"no such file: {str(path)!r}.", file=path)
        if not os.access(path, os.R_OK):
            raise FileError(f"cannot read {str(path)!r}: permission denied.", file=path)
        seen[Path(path).resolve()] = path
    written: set[Path] = set()
    outputs = list(outputs)
    if card is not None:
        outputs += _card_outputs(card, seen)
    for path in outputs:
        if path is None:
            continue
        resolved = Path(path).resolve()
        if resolved in written:
            raise FileError(
                f"two outputs are one file ({str(seen[resolved])!r} and {str(path)!r}); "
                "give each output its own name.",
                file=path,
            )
        if resolved in seen:
            raise FileError(
                f"output {str(path)!r} is the input file {str(seen[resolved])!r}; "
                "choose another output name (inputs are never overwritten).",
                file=path,
            )
        parent = Path(path).parent
        if Path(path).is_dir():
            raise FileError(f"cannot write {str(path)!r}: it is a directory.", file=path)
        if not parent.is_dir():
            raise FileError(
                f"cannot write {str(path)!r}: no such directory {str(parent)!r}.", file=path
            )
        seen[resolved] = path
        written.add(resolved)


def _card_outputs(card: Path, inputs: dict[Path, Path]) -> list[Path]:
    """A card's two files; refused when the card path is an input or its figures would be."""
    import re

    from jurycal.report import card_files

    if Path(card).resolve() in inputs:
        raise FileError(
            f"report {str(card)!r} is an input file; name the report (e.g. card.md).", file=card
        )
    markdown, page, _ = card_files(card)
    figure = re.compile(re.escape(markdown.stem) + r"-[0-9]+\.png")
    for resolved, given in inputs.items():
        if resolved.parent == markdown.resolve().parent and figure.fullmatch(resolved.name):
            raise FileError(
                f"report {str(card)!r} would write its figures as {markdown.stem}-1.png, ... "
                f"beside it, replacing the input {str(given)!r}; choose another report name.",
                file=card,
            )
    return [markdown, page]


def plot_path(args: argparse.Namespace) -> Path | None:
    """Where ``--plot`` writes: the file given, or ``<dir>/<command>.png`` for a directory."""
    target = getattr(args, "plot", None)
    if target is None:
        return None
    if Path(target).is_dir():
        return Path(target) / f"{args.command}.png"
    return Path(target)


def save_plot(args: argparse.Namespace, figure: Any) -> Path | None:
    """Save ``figure`` where ``--plot`` says (atomically); return the path written."""
    import matplotlib.pyplot as plt

    from jurycal.io import write_atomic

    target = plot_path(args)
    try:
        if target is None:
            return None
        write_atomic(
            target, lambda tmp: figure.savefig(tmp, format="png", dpi=120, bbox_inches="tight")
        )
    finally:
        plt.close(figure)
    return target


def summary_text(summary: Summary) -> str:
    """A result's summary as text for stdout, without its warnings (:func:`emit` puts those on stderr)."""
    import dataclasses

    return dataclasses.replace(summary, warnings=()).as_text()


def written_line(path: Path | str) -> str:
    """The one phrasing for a file written: ``written: PATH``."""
    return f"written: {path}"


def jsonable(value: Any) -> Any:
    """``value`` as JSON types: tables as lists of records, NaN and infinities as null.

    A table's index becomes a column under its name; row numbers (an unnamed
    integer index) are dropped, and another unnamed index is called ``name``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> frame = pd.DataFrame({"p": [0.5, float("nan")]}, index=pd.Index(["a", "b"], name="g"))
    >>> jsonable({"table": frame, "n": np.int64(3)})
    {'table': [{'g': 'a', 'p': 0.5}, {'g': 'b', 'p': None}], 'n': 3}
    """
    import numpy as np
    import pandas as pd

    from regression.checks import plain

    if isinstance(value, pd.DataFrame):
        unnamed = value.index.nlevels == 1 and value.index.name is None
        if unnamed and pd.api.types.is_integer_dtype(value.index.dtype):
            frame = value.reset_index(drop=True)
        else:
            names = [n if n is not None else "name" for n in value.index.names]
            frame = value.rename_axis(names).reset_index()
        return [jsonable(r) for r in frame.to_dict(orient="records")]
    if isinstance(value, pd.Series):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    value = plain(value)
    if value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def emit(
    args: argparse.Namespace,
    text: str,
    payload: dict[str, Any],
    *,
    warnings: Iterable[str] = (),
    written: Iterable[Path | str] = (),
) -> None:
    """Print the result on stdout (``payload`` as JSON with ``--json``, else ``text``), then, on
    stderr, each warning as ``jurycal: warning: ...`` and each file written as
    ``jurycal: written: PATH`` (clig.dev: results on stdout, messages on stderr)."""
    import sys

    if args.json:
        print(json.dumps(jsonable(payload), indent=2))
    else:
        print(text)
    for message in warnings:
        print(f"jurycal: warning: {' '.join(str(message).split())}", file=sys.stderr)
    for path in written:
        print(f"jurycal: {written_line(path)}", file=sys.stderr)
