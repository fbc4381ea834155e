"""Settings for everything pytest collects here: tests/ and the docstring examples of the packages.

It lives at the root, not in a package, so that it is not installed with the library.
"""

from __future__ import annotations

import os

# The plotting functions' examples draw figures; a test run has no display to show them on, and a
# GUI backend would open windows (or fail where DISPLAY names no server). Set before matplotlib
# loads, which is after this file; a backend already chosen is kept.
os.environ.setdefault("MPLBACKEND", "Agg")
