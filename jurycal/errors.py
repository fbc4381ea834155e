"""The error of a user's file: which file, which line, which column.

Raised by the readers (:mod:`jurycal.io`), the out-of-core count
(:mod:`jurycal.counting`) and the command line (:mod:`jurycal.cli.errors`
places the library's row-numbered errors in their files), so that every
surface names a fault the same way; ``--json`` prints its fields.

This module imports nothing heavy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from regression.errors import InputError

__all__ = ["FileError"]


class FileError(InputError):
    """An input error placed in a file.

    Attributes
    ----------
    file : str
        The file as the user named it.
    line : int or None
        Its 1-based line (record number for Parquet), when the fault is in a row.
    kind : str
        The class name of the library error it places (``LabelError``, ...), or
        ``FileError`` for a fault of the file itself (missing, a directory).
    row, column, value
        As :class:`~regression.errors.InputError`.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path,
        line: int | None = None,
        column: str | None = None,
        value: Any = None,
        kind: str = "FileError",
    ) -> None:
        super().__init__(message, row=None, column=column, value=value)
        self.file = str(file)
        self.line = line
        self.kind = kind
