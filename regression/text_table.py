"""Tables as fixed-width text, in the manner of statsmodels' ``Summary.as_text``.

One rounding per column, counts as integers, a missing value as ``-``,
numbers right-aligned and names left-aligned, and a sentence where a table
has no rows (never pandas' ``Empty DataFrame`` or ``NaN``). The command line
and :meth:`regression.results.Summary.as_text` print every table with it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["MISSING", "is_count_column", "table_cells", "text_table"]

#: How a missing value is shown.
MISSING = "-"

# Column names that hold identifiers: shown as written, without thousands separators.
_ID_NAMES = ("item", "battle", "id")
# Column names that hold counts even when a missing value made pandas store them as floats.
_COUNT_NAMES = ("n", "m", "m0", "m1", "k", "threshold", "rank", "low_rank", "high_rank")


def is_count_column(name: Any, values: pd.Series) -> bool:
    """Whether a column holds counts: an integer type, or whole numbers under a count's name."""
    if pd.api.types.is_bool_dtype(values.dtype):
        return False
    if pd.api.types.is_integer_dtype(values.dtype):
        return True
    if not pd.api.types.is_float_dtype(values.dtype):
        return False
    text = str(name)
    named = text in _COUNT_NAMES or text.startswith("n_") or text.endswith("_rank")
    finite = values.to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    return named and bool(np.all(finite == np.round(finite)))


def _cell(value: Any, digits: int | None) -> str:
    if value is None or value is pd.NA or value is pd.NaT:
        return MISSING
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return MISSING
        if digits is None:  # a count stored as a float
            return f"{int(value):,}"
        text = f"{value:.{digits}f}"
        # a tiny negative value rounds to "-0.0000", which reads as a sign the number lacks
        if text.startswith("-") and float(text) == 0:  # exact: a rounded zero
            return text[1:]
        return text
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    return str(value)


def table_cells(
    frame: pd.DataFrame, digits: int = 4, *, index: bool | None = None
) -> tuple[list[str], list[list[str]], list[bool]]:
    """The header, the rows as text and which columns are numbers (right-aligned).

    The one place a table's values become text, for the terminal
    (:func:`text_table`), Markdown and HTML (:class:`regression.results.Summary`).
    ``index``: show the index as the first column(s); default: when it is named
    or not the row numbers 0..n-1.
    """
    plain_rows = isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0
    show_index = index if index is not None else not (plain_rows and frame.index.name is None)
    table = frame.reset_index() if show_index else frame
    header = [str(c) for c in table.columns]
    if show_index and frame.index.nlevels == 1 and frame.index.name is None:
        header[0] = ""
    columns: list[list[str]] = []
    right: list[bool] = []
    for name in table.columns:
        values = table[name]
        if str(name) in _ID_NAMES:
            columns.append([MISSING if pd.isna(v) else str(v) for v in values.tolist()])
            right.append(False)
            continue
        numeric = pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(
            values.dtype
        )
        places = None if is_count_column(name, values) else digits
        columns.append([_cell(v, places if numeric else digits) for v in values.tolist()])
        right.append(numeric)
    rows = [list(row) for row in zip(*columns, strict=True)] if columns else []
    return header, rows, right


def text_table(
    frame: pd.DataFrame,
    digits: int = 4,
    *,
    empty: str = "(no rows)",
    index: bool | None = None,
) -> str:
    """``frame`` as fixed-width text.

    Parameters
    ----------
    frame : DataFrame
    digits : int
        Decimals of every non-count number (one rounding per column).
    empty : str
        The sentence printed instead of a table without rows.
    index : bool, optional
        Print the index as the first column(s); default: when it is named or
        not the row numbers 0..n-1.

    Examples
    --------
    >>> frame = pd.DataFrame({"estimate": [0.91234, np.nan], "n": [1012.0, 80.0]},
    ...                      index=pd.Index(["a", "bb"], name="generator"))
    >>> print(text_table(frame))
    generator  estimate      n
    a            0.9123  1,012
    bb                -     80
    >>> print(text_table(frame.iloc[:0], empty="no generator."))
    no generator.
    """
    if len(frame) == 0:
        return empty
    header, rows, right = table_cells(frame, digits, index=index)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            (cell.rjust(width) if is_right else cell.ljust(width))
            for cell, width, is_right in zip(row, widths, right, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
