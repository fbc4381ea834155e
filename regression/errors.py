"""The exceptions and warnings of every stage, in one family each.

Errors a caller must tell apart are classes, subclasses of ``ValueError``,
carrying the offending row, column and value as attributes: nobody parses a
message. Warnings derive from :class:`JurycalWarning`, so that
``warnings.simplefilter("ignore", JurycalWarning)`` silences jurycal alone
(as statsmodels' ``ModelWarning`` does for its own).

Examples
--------
>>> error = InputError("label 'maybe' is not a verdict", row=3, column="label", value="maybe")
>>> isinstance(error, ValueError), error.row, error.column, error.value
(True, 3, 'label', 'maybe')
>>> issubclass(ConvergenceWarning, JurycalWarning)
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "ConvergenceWarning",
    "DuplicateRowError",
    "InputError",
    "LabelError",
    "MissingColumnError",
    "MissingValueError",
    "JurycalWarning",
    "MisfitWarning",
    "SettingsWarning",
    "UnidentifiedWarning",
    "from_table",
]


class InputError(ValueError):
    """Bad input, with where it is.

    Attributes
    ----------
    row : int or None
        The position (0-based) or index label of the first offending row, if any.
    column : str or None
        The offending column or argument name.
    value : object
        The offending value (``None`` when the fault is an absence).
    table : str or None
        The table the row is in, where a check reads several that share
        columns (``"verdicts"`` or ``"human votes"`` of a pairwise fit); set by
        :func:`from_table`.
    """

    def __init__(
        self,
        message: str,
        *,
        row: Any = None,
        column: str | None = None,
        value: Any = None,
        table: str | None = None,
    ) -> None:
        super().__init__(message)
        self.row = row
        self.column = column
        self.value = value
        self.table = table


@contextmanager
def from_table(name: str) -> Iterator[None]:
    """Mark an :class:`InputError` raised inside the block as one of the table ``name``.

    An error already marked (by an inner block) keeps its table, so a check
    marks its whole body with its first table and the part that reads the
    second with that one.

    Examples
    --------
    >>> try:
    ...     with from_table("verdicts"):
    ...         raise InputError("bad", row=2, column="item")
    ... except InputError as error:
    ...     print(error.table, error.row)
    verdicts 2
    """
    try:
        yield
    except InputError as error:
        if error.table is None:
            error.table = name
        raise


class MissingColumnError(InputError):
    """A table lacks a column it needs; ``value`` lists the absent columns."""


class LabelError(InputError):
    """A label that is not binary (1 / 0, bool, 'valid' / 'invalid'); ``value`` is the label."""


class MissingValueError(InputError):
    """A value that may not be missing is (a label, a generator, a validator)."""


class DuplicateRowError(InputError):
    """A key that must be unique repeats; ``value`` is the repeated key, ``row`` its second row.

    ``first_row``: the row it repeats (0-based position, as ``row``), or None.
    """

    def __init__(self, message: str, *, first_row: int | None = None, **where: Any) -> None:
        super().__init__(message, **where)
        self.first_row = first_row


class JurycalWarning(UserWarning):
    """The base of every warning jurycal raises."""


class ConvergenceWarning(JurycalWarning):
    """The optimiser stopped without meeting its convergence test."""


class UnidentifiedWarning(JurycalWarning):
    """The fit is not identified (no anchors, a mirror solution, J <= 0)."""


class MisfitWarning(JurycalWarning):
    """The model does not fit the data (Pearson dispersion far above 1)."""


class SettingsWarning(JurycalWarning):
    """A setting was given that the chosen estimator does not use."""
