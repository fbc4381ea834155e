"""Reading a command's input files: one error naming the file and its line, names as text.

Inputs are read with :func:`read_input` (a one-line error naming the file and
the line), their name columns (generator, validator, model, task) as text, so
``--generator 4`` matches a generator written ``4`` in any format; the library
errors raised on the frames read here are placed in their file by
:func:`jurycal.cli.errors.located` (:func:`vote_sources` says which files).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jurycal.cli.errors import FileError, in_file

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "LABEL_COLUMNS",
    "NAME_COLUMNS",
    "PAIR_COLUMNS",
    "find_name",
    "is_pairwise",
    "read_human",
    "read_input",
    "read_judgments",
    "read_votes",
    "refuse_duplicates",
    "same_item_type",
    "vote_sources",
]

#: Columns that hold names (a pairwise table's two generators too): read as text whatever the
#: file's format made of them.
NAME_COLUMNS = ("generator", "generator_a", "generator_b", "validator", "model", "task")
#: The columns that make a table pairwise (verdicts or human votes on battles): :func:`is_pairwise`.
PAIR_COLUMNS = ("generator_a", "generator_b")
#: Columns that hold binary labels (1 / 0, bool, valid / invalid; missing allowed).
LABEL_COLUMNS = ("label", "human", "judge")
# How many known names an "unknown name" message lists.
_SHOWN_NAMES = 8


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
    missing = not set(columns) <= set(frame.columns)
    if missing and is_pairwise(frame.columns) and not is_pairwise(columns):
        raise FileError(
            f"{what} {str(path)!r} is a pairwise table (generator_a, generator_b: the judges' "
            "verdicts or human votes on battles), not the columns this command reads "
            f"({', '.join(columns)}); jurycal rank, report, suggest and plan read pairwise "
            "tables (docs/pairwise.md).",
            file=path,
        )
    try:
        require_columns(frame, columns, f"{what} {str(path)!r}")
    except InputError as err:  # the message names the file already
        kind = type(err).__name__
        raise FileError(str(err), file=path, column=err.column, kind=kind) from None
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
    FileError
        The library's one message for a repeated key
        (:func:`regression.checks.duplicate_error`), at the file line of the
        first repeat and naming the line it repeats (1-based, a CSV header
        being line 1).
    """
    from regression.checks import refuse_repeats
    from regression.errors import DuplicateRowError

    try:
        refuse_repeats(frame, keys, "the row", f"keep one row per ({', '.join(keys)})")
    except DuplicateRowError as error:
        raise in_file(error, path, what) from None


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


def is_pairwise(columns: Iterable[str]) -> bool:
    """Whether a table with these columns is pairwise (it has :data:`PAIR_COLUMNS`): the judges'
    verdicts or the human votes on battles, rather than one generator's labels per row.

    The one rule by which ``rank``, ``report``, ``suggest`` and ``plan`` tell their input; the
    two generator columns alone decide, so human votes given where the verdicts belong are read
    as pairwise and named as such (:func:`jurycal.cli.pairwise.read_pairwise`), not reported
    as a judgments table missing its columns.

    Examples
    --------
    >>> is_pairwise(["item", "generator_a", "generator_b", "validator", "verdict"])
    True
    >>> is_pairwise(["item", "generator_a", "generator_b", "human"])  # human votes
    True
    >>> is_pairwise(["generator", "item", "validator", "label"])
    False
    """
    return set(PAIR_COLUMNS) <= set(columns)


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
