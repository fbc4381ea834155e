"""Whether long work draws a progress bar: one rule for the library and the command line.

Every function that takes ``progress`` reads it the same way: ``True`` draws
bars, ``False`` never does, ``None`` (the default) draws them only when standard
error is a terminal, so logs and CI output stay clean.
"""

from __future__ import annotations

import sys

__all__ = ["show_progress"]


def show_progress(progress: bool | None) -> bool:
    """``progress`` itself, or for None whether stderr is a terminal.

    Examples
    --------
    >>> show_progress(True), show_progress(False)
    (True, False)
    """
    if progress is None:
        return bool(getattr(sys.stderr, "isatty", lambda: False)())
    return bool(progress)
