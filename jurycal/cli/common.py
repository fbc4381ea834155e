"""What every ``jurycal`` command shares: options, reading inputs, writing outputs, JSON.

Each command module (``jurycal.cli.<command>``) has ``register(subparsers)``,
which adds its subparser with :func:`command_options` as a parent, and
``run(args) -> int``. The helpers here keep the commands' behaviour the same:

- inputs are read by :mod:`jurycal.cli.reading`;
- outputs are checked before any work (:func:`check_outputs`: never an input
  file, a writable directory) and written atomically (:mod:`jurycal.io`);
- ``--json`` prints :func:`jsonable` of the payload; ``--plot`` saves a figure.
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
from jurycal.counting.limits import MAX_THREADS
from regression.registry import MAX_N_BOOT, MIN_N_BOOT

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

#: More restarts than this do not move the best loss and cost hours (each is a full fit).
MAX_RESTARTS = 1000


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


#: ``--alpha``'s help, the same on every command.
ALPHA_HELP = "1 - confidence level, a fraction in (0, 1) (default 0.05: 95%% intervals)"
#: ``--seed``'s help, the same on every command.
SEED_HELP = "seed of the random draws, a whole number (default 0; the same seed, the same numbers)"
#: ``--n-boot``'s unit and bounds.
N_BOOT_HELP = f"bootstrap replicates, a whole number from {MIN_N_BOOT} to {MAX_N_BOOT:,}"
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


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def n_boot_value(text: str) -> int:
    """An argparse type: a bootstrap count in ``MIN_N_BOOT..MAX_N_BOOT``, checked up front.

    A count beyond :data:`regression.checks.MAX_N_BOOT` would allocate the
    replicates before failing; refused here, it is a usage error (exit 2).

    Raises
    ------
    argparse.ArgumentTypeError
        Not a whole number, or outside the bounds (both named).

    Examples
    --------
    >>> n_boot_value("200")
    200
    >>> n_boot_value("1000000000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1000000000': a whole number of replicates from 2 to 1,000,000 (more cost memory for no digits)
    >>> n_boot_value("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1': a whole number of replicates from 2 to 1,000,000 (fewer than two replicates give no spread)
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < MIN_N_BOOT:
        why = "fewer than two replicates give no spread"
    elif value > MAX_N_BOOT:
        why = "more cost memory for no digits"
    else:
        return value
    raise argparse.ArgumentTypeError(
        f"{text!r}: a whole number of replicates from {MIN_N_BOOT} to {MAX_N_BOOT:,} ({why})"
    )


def capped_int(text: str, most: int, what: str, why: str) -> int:
    """A whole number in ``1..most`` (:func:`positive_int`); above ``most``, an error saying ``why``."""
    value = positive_int(text)
    if value > most:
        raise argparse.ArgumentTypeError(f"{value:,} {what}: at most {most:,} ({why})")
    return value


def threads_value(text: str) -> int:
    """An argparse type: DuckDB threads in ``1..MAX_THREADS`` (:mod:`jurycal.counting.files`)."""
    why = "DuckDB starts them all at once; more than the cores gain nothing"
    return capped_int(text, MAX_THREADS, "threads", why)


def restarts_value(text: str) -> int:
    """An argparse type: a number of restarts in ``1..MAX_RESTARTS``."""
    why = "each is a full fit; more do not move the best loss"
    return capped_int(text, MAX_RESTARTS, "restarts", why)


#: The largest ``--seed``: every random source jurycal seeds (numpy's generators, torch) takes it.
MAX_SEED = 2**32 - 1


def seed_value(text: str) -> int:
    """An argparse type: a seed, a whole number from 0 to :data:`MAX_SEED`.

    Examples
    --------
    >>> seed_value("7")
    7
    >>> seed_value("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-1': a seed is a whole number from 0 to 4,294,967,295
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a seed is a whole number from 0 to {MAX_SEED:,}"
        )
    return value


def add_seed(parser: argparse.ArgumentParser) -> None:
    """``--seed``, the same on every command that draws at random."""
    parser.add_argument("--seed", type=seed_value, default=0, help=SEED_HELP)


def fraction_value(text: str, what: str, example: str, *, closed: bool = False) -> float:
    """A number in (0, 1) (``closed``: (0, 1]); else an error naming ``what`` and an ``example``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if 0 < value < 1 or (closed and value == 1):
        return value
    interval = "(0, 1]" if closed else "(0, 1)"
    hint = "; for a percent, divide by 100" if 1 < value <= 100 else ""
    raise argparse.ArgumentTypeError(
        f"{text!r}: {what} is a fraction in {interval} ({example}){hint}"
    )


def width_value(text: str) -> float:
    """An argparse type: an interval width, a fraction in (0, 1)."""
    return fraction_value(text, "a width", "0.08 = 8 points")


def fuzzy_threshold_value(text: str) -> float:
    """An argparse type: a similarity threshold, a fraction in (0, 1].

    Examples
    --------
    >>> fuzzy_threshold_value("0.85")
    0.85
    >>> fuzzy_threshold_value("85")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '85': the threshold is a fraction in (0, 1] (0.85 = 85 % similar); for a percent, divide by 100
    """
    return fraction_value(text, "the threshold", "0.85 = 85 % similar", closed=True)


def transfer_bias_value(text: str) -> float | str | None:
    """An argparse type: ``none``, ``held-out`` or a bias bound as a fraction in [0, 1]."""
    if text in ("none", "held-out"):
        return None if text == "none" else text
    try:
        bound = float(text)
    except ValueError:
        bound = float("nan")
    if not 0.0 <= bound <= 1.0:
        raise argparse.ArgumentTypeError(
            f"{text!r} must be none, held-out or a fraction in [0, 1] (0.05 is 5 points)"
        )
    return bound


def number_value(text: str) -> float:
    """An argparse type: a finite number (not nan, not inf).

    Examples
    --------
    >>> number_value("8")
    8.0
    >>> number_value("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'nan' is not a finite number
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


#: ``--memory-limit``'s units, as DuckDB reads them (powers of 1000 and of 1024).
MEMORY_UNITS = ("B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB")


def memory_limit_value(text: str) -> str | None:
    """An argparse type: a memory size with a unit (``500MB``, ``4GB``), or ``none`` (None).

    Checked here so that DuckDB never sees, nor answers, a size it cannot read.

    Examples
    --------
    >>> memory_limit_value("4GB"), memory_limit_value("none")
    ('4GB', None)
    >>> memory_limit_value("lots")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'lots': a size is a positive number with a unit (500MB, 4GB; units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), or none
    """
    import re

    if text.strip().lower() == "none":
        return None
    units = "|".join(MEMORY_UNITS)
    found = re.fullmatch(rf"\s*([0-9]+(?:\.[0-9]+)?)\s*({units})\s*", text, flags=re.IGNORECASE)
    if found is None or float(found.group(1)) <= 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a size is a positive number with a unit (500MB, 4GB; units "
            f"{', '.join(MEMORY_UNITS)}), or none"
        )
    return f"{found.group(1)}{found.group(2)}"


def alpha_value(text: str) -> float:
    """An argparse type: a level strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a number strictly between 0 and 1")
    return value


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
