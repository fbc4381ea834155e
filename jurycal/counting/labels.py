"""What counts as a label, and as missing, on both counting routes.

A label is 1 / 0, true / false or valid / invalid (any case, surrounding spaces
ignored) or missing, as :func:`regression.checks.coerce_binary` reads it. Both
routes decode the label column into one small integer column, :data:`CODE`:
the frame route with :func:`label_code` (a narwhals expression), the file route
with the same rules in DuckDB SQL (:mod:`jurycal.counting.files`). The tallies
and checks in :mod:`jurycal.counting.tally` read only that column.
"""

from __future__ import annotations

from typing import Any

import narwhals.stable.v2 as nw

from regression.checks import FALSE_STRINGS, TRUE_STRINGS

__all__ = [
    "BAD",
    "CODE",
    "MISSING",
    "NULL_STRINGS",
    "label_code",
]

#: Text read as a missing value in CSV / TSV files: pandas' ``read_csv`` defaults,
#: so that a file counts the same through DuckDB as through ``pandas.read_csv``.
NULL_STRINGS = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
    "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)  # fmt: skip

#: The column holding the decoded label: 1 valid, 0 invalid, :data:`MISSING`
#: missing, :data:`BAD` not a binary label.
CODE = "_jurycal_code"

#: The code of a missing label, and of a value that is not a binary label.
MISSING, BAD = 2, -1


def label_code(column: str, dtype: Any) -> nw.Expr:
    """The narwhals expression decoding ``column`` into 1 / 0 / MISSING / BAD, by its type.

    Parameters
    ----------
    column : str
        The label column.
    dtype : narwhals dtype
        Its type in the frame's schema: booleans, numbers (1 / 0, NaN
        missing) and text (:data:`TRUE_STRINGS`, :data:`FALSE_STRINGS`) are
        decoded; any other type is missing where null and :data:`BAD`
        elsewhere.

    Returns
    -------
    narwhals.Expr
        An ``Int8`` expression, to be aliased to :data:`CODE`.
    """
    col = nw.col(column)
    code = nw.when(col.is_null()).then(nw.lit(MISSING, nw.Int8))
    if dtype == nw.Boolean:
        return code.otherwise(col.fill_null(False).cast(nw.Int8))
    if dtype.is_numeric():
        if dtype.is_float():
            code = code.when(col.is_nan()).then(nw.lit(MISSING, nw.Int8))
        return (
            code.when(col == 1).then(nw.lit(1, nw.Int8))
            .when(col == 0).then(nw.lit(0, nw.Int8))
            .otherwise(nw.lit(BAD, nw.Int8))
        )  # fmt: skip
    if dtype in (nw.String, nw.Categorical, nw.Enum):
        text = col.cast(nw.String).str.strip_chars().str.to_lowercase()
        return (
            code.when(text.is_in(TRUE_STRINGS)).then(nw.lit(1, nw.Int8))
            .when(text.is_in(FALSE_STRINGS)).then(nw.lit(0, nw.Int8))
            .otherwise(nw.lit(BAD, nw.Int8))
        )  # fmt: skip
    # Any other type (an all-null column has none): missing where null, else not a label.
    return code.otherwise(nw.lit(BAD, nw.Int8))
