"""What every ``jurycal`` command shares: options, reading inputs, writing outputs, JSON.

Each command module (``jurycal.cli.<command>``) has ``register(subparsers)``,
which adds its subparser with :func:`command_options` as a parent, and
``run(args) -> int``. The helpers here keep the commands' behaviour the same:

- inputs are read with :func:`read_input` (a one-line error naming the file and
  the line), their name columns (generator, validator, model, task) as text, so
  ``--generator 4`` matches a generator written ``4`` in any format;
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

from jurycal.cli.choices import MAX_N_BOOT, MAX_THREADS, MIN_N_BOOT
from jurycal.cli.commands import add_progress_options
from jurycal.cli.errors import FileError, file_line, in_file

if TYPE_CHECKING:
    import pandas as pd

    from regression.results import Summary

__all__ = [
    "ALPHA_HELP",
    "N_BOOT_HELP",
    "SEED_HELP",
    "TABLE_FILE",
    "add_command",
    "add_files",
    "LABEL_COLUMNS",
    "MAX_RESTARTS",
    "NAME_COLUMNS",
    "alpha_value",
    "check_files",
    "command_options",
    "emit",
    "find_name",
    "in_file",
    "jsonable",
    "n_boot_value",
    "plot_path",
    "positive_int",
    "read_human",
    "read_input",
    "read_judgments",
    "read_votes",
    "refuse_duplicates",
    "restarts_value",
    "same_item_type",
    "save_plot",
    "progress_setting",
    "steps",
    "vote_sources",
    "summary_text",
    "written_line",
]

#: More restarts than this do not move the best loss and cost hours (each is a full fit).
MAX_RESTARTS = 1000

#: Columns that hold names: read as text whatever the file's format made of them.
NAME_COLUMNS = ("generator", "validator", "model", "task")
#: Columns that hold binary labels (1 / 0, bool, valid / invalid; missing allowed).
LABEL_COLUMNS = ("label", "human", "judge")

# How many known names an "unknown name" message lists.
_SHOWN_NAMES = 8


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
    argparse.ArgumentTypeError: '1000000000': a whole number of replicates from 2 to 1,000,000 (fewer than two replicates give no spread, more cost memory for no digits)
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


def _as_text(values: pd.Series) -> pd.Series:
    """Names as text, missing kept missing; a float column of whole numbers reads ``4``, not ``4.0``."""
    import numpy as np
    import pandas as pd

    if pd.api.types.is_float_dtype(values.dtype):
        numbers = values.to_numpy(dtype=float)
        whole = np.isfinite(numbers) & (numbers == np.round(numbers))
        if whole[values.notna().to_numpy()].all():
            text = [str(int(v)) if w else None for v, w in zip(numbers, whole, strict=True)]
            return pd.Series(text, index=values.index, name=values.name, dtype="str")
    if pd.api.types.is_string_dtype(values.dtype) and values.dtype != object:
        return values
    return values.astype("str")


def read_input(
    path: Path, what: str, columns: Iterable[str] = (), *, check_labels: bool = True
) -> pd.DataFrame:
    """Read ``path``, check it has ``columns``, and turn its :data:`NAME_COLUMNS` into text.

    Parameters
    ----------
    path : Path
        A table in one of :data:`jurycal.io.FORMATS`.
    what : str
        What the file is, for messages (``"judgments file"``).
    columns : iterable of str
        The columns the command needs. Those among :data:`LABEL_COLUMNS` are
        checked here (missing labels allowed), so that a label that is not
        binary is named with its file line.
    check_labels : bool
        False: leave the labels to the library, which converts and checks them
        once (:func:`jurycal.cli.errors.in_file` names the file line of its error).

    Returns
    -------
    DataFrame
        Every column of the file, in file order; name columns as text.

    Raises
    ------
    ValueError
        An unreadable file, a missing column, no rows, a label that is not
        binary: each naming the file (and the line where it applies).
    """
    from jurycal.io import read_table
    from regression.checks import coerce_binary, require_columns
    from regression.errors import InputError

    frame = read_table(path)
    columns = list(columns)
    require_columns(frame, columns, f"{what} {str(path)!r}")
    if frame.empty:
        raise FileError(f"{what} {str(path)!r} has no rows.", file=path)
    for column in NAME_COLUMNS:
        if column in frame.columns:
            frame[column] = _as_text(frame[column])
    for column in LABEL_COLUMNS:
        if column in columns:
            frame[column] = _numbers_as_numbers(frame[column])
            if not check_labels:
                continue
            try:
                coerce_binary(column, frame[column], allow_missing=True)
            except InputError as err:
                raise in_file(err, path, what) from None
    return frame


def _numbers_as_numbers(values: pd.Series) -> pd.Series:
    """A text column's entries that are numbers (``"1.0"``) as numbers, the rest kept as text.

    A CSV column of ``1.0`` with one ``yes`` reads as text; as numbers the
    ``1.0`` entries are labels, and the error names ``yes``, the entry at fault.
    """
    import pandas as pd

    if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
        return values
    numbers = pd.to_numeric(values, errors="coerce")
    n_numbers = int(numbers.notna().sum())
    if n_numbers == 0:
        return values
    if n_numbers == int(values.notna().sum()):
        return numbers
    return values.astype(object).where(numbers.isna(), numbers)


def same_item_type(*frames: pd.DataFrame) -> list[pd.DataFrame]:
    """The frames with their ``item`` columns as text when the files disagree on its type.

    One file's items read as numbers and another's as text (``7`` and ``"7"``)
    would never match; as text they do.
    """
    kinds = {str(f["item"].dtype.kind) for f in frames if "item" in f.columns}
    if len(kinds) <= 1:
        return list(frames)
    return [f.assign(item=_as_text(f["item"])) if "item" in f.columns else f for f in frames]


def refuse_duplicates(frame: pd.DataFrame, keys: Sequence[str], path: Path, what: str) -> None:
    """Raise when two rows of ``frame`` (read from ``path``) share ``keys``.

    Raises
    ------
    ValueError
        Naming the file lines (1-based, a CSV header being line 1) of the first
        repeat and of the row it repeats, and the key values.
    """
    import numpy as np

    from regression.checks import plain

    repeated = frame.duplicated(list(keys), keep=False).to_numpy()
    if not repeated.any():
        return
    seen: dict[tuple[Any, ...], int] = {}
    for position in np.flatnonzero(repeated):
        row = frame.iloc[position]
        values = tuple(plain(row[k]) for k in keys)
        if values in seen:
            first, again = seen[values], int(position)
            break
        seen[values] = int(position)
    else:  # keys that pandas calls equal and Python does not (NaN): name the first
        first = again = int(np.flatnonzero(repeated)[0])
        row = frame.iloc[first]
    key = ", ".join(f"{k} {plain(row[k])!r}" for k in keys)
    line = file_line(path, again)
    raise FileError(
        f"{what} {str(path)!r} line {line}: repeats line {file_line(path, first)} "
        f"({key}); keep one row per ({', '.join(keys)}).",
        file=path,
        line=line,
        kind="DuplicateRowError",
    )


def read_judgments(path: Path, *, check: bool = True) -> pd.DataFrame:
    """The judgments table (``generator, item, validator, label``), one row per vote.

    ``check=False``: labels and repeats are left to the library's one check.
    """
    from regression.checks import JUDGMENT_COLUMNS

    judgments = read_input(path, "judgments file", JUDGMENT_COLUMNS, check_labels=check)
    if check:
        refuse_duplicates(judgments, ["generator", "item", "validator"], path, "judgments file")
    return judgments


def read_human(path: Path, *, check: bool = True) -> pd.DataFrame:
    """Human labels (``generator, item, human``), one row per labelled item.

    ``check=False``: labels and repeats are left to the library's one check.
    """
    from regression.checks import HUMAN_COLUMNS

    human = read_input(path, "human-label file", HUMAN_COLUMNS, check_labels=check)
    if check:
        refuse_duplicates(human, ["generator", "item"], path, "human-label file")
    return human


def read_votes(
    judgments: Path, human: Path | None, *, check: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The judgments table and, when given, the human labels, their items of one type."""
    votes = read_judgments(judgments, check=check)
    if human is None:
        return votes, None
    votes, labels = same_item_type(votes, read_human(human, check=check))
    return votes, labels


def vote_sources(judgments: Path, human: Path | None) -> list[tuple[Path, str, tuple[str, ...]]]:
    """The judgments and human-label files with their columns, for :func:`jurycal.cli.errors.located`:
    the human labels first (a library error on ``generator`` or ``item`` is placed there)."""
    sources: list[tuple[Path, str, tuple[str, ...]]] = [
        (judgments, "judgments file", ("label", "validator", "item", "generator"))
    ]
    if human is not None:
        columns = ("human", "inclusion_probability", "item", "generator")
        sources.insert(0, (human, "human-label file", columns))
    return sources


def find_name(name: str, known: Iterable[Any], what: str, where: str) -> str:
    """``name`` if it is among ``known`` (compared as text), else a ``ValueError``.

    The message lists a few known names and points out one that differs only in case.

    Examples
    --------
    >>> find_name("4", [4, 5], "generator", "the judgments file")
    '4'
    >>> find_name("gpt-4O", ["gpt-4o", "claude"], "generator", "the judgments file")
    Traceback (most recent call last):
    ...
    ValueError: generator 'gpt-4O' is not in the judgments file (did you mean 'gpt-4o'?); names there: 'claude', 'gpt-4o'.
    """
    names = sorted({str(k) for k in known})
    if name in names:
        return name
    close = [n for n in names if n.lower() == name.lower()]
    shown = ", ".join(repr(n) for n in names[:_SHOWN_NAMES])
    more = f", ... ({len(names)} in all)" if len(names) > _SHOWN_NAMES else ""
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"{what} {name!r} is not in {where}{hint}; names there: {shown}{more}.")


# --- outputs --------------------------------------------------------------------


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
    outputs = list(outputs)
    if card is not None:
        outputs += _card_outputs(card, seen)
    for path in outputs:
        if path is None:
            continue
        resolved = Path(path).resolve()
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


def summary_text(summary: Summary | str) -> str:
    """A result's summary as text for stdout, without its warnings (:func:`emit` puts those on stderr).

    A :class:`~regression.results.Summary` renders without them; a comparison's
    text summary (:meth:`regression.ModelComparison.summary`) ends in its
    warnings block, which is cut.
    """
    import dataclasses

    if isinstance(summary, str):
        return summary.split("\n\n  warnings:\n")[0]
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
