"""The command line's option values, each checked by the parser: one argparse type per kind.

A value the option cannot take (a negative seed, ``nan``, a width of 8, a memory
limit of ``lots``) is a usage error naming the option (exit 2), before any file
is read; the commands declare their numeric options with these types and no
option is typed ``int`` or ``float`` bare (``tests/jurycal/test_cli_leaks.py``).
This module imports nothing heavy: ``jurycal CMD --help`` loads it.
"""

from __future__ import annotations

import argparse
import math

from jurycal.counting.limits import MAX_THREADS
from regression.registry import MAX_N_BOOT, MIN_N_BOOT

__all__ = [
    "ALPHA_HELP",
    "MAX_RESTARTS",
    "MAX_SEED",
    "MEMORY_UNITS",
    "N_BOOT_HELP",
    "SEED_HELP",
    "add_seed",
    "alpha_value",
    "capped_int",
    "fraction_value",
    "fuzzy_threshold_value",
    "memory_limit_value",
    "n_boot_value",
    "number_value",
    "positive_int",
    "restarts_value",
    "seed_value",
    "threads_value",
    "transfer_bias_value",
    "width_value",
]

#: More restarts than this do not move the best loss and cost hours (each is a full fit).
MAX_RESTARTS = 1000

#: ``--alpha``'s help, the same on every command.
ALPHA_HELP = "1 - confidence level, a fraction in (0, 1) (default 0.05: 95%% intervals)"
#: ``--seed``'s help, the same on every command.
SEED_HELP = "seed of the random draws, a whole number (default 0; the same seed, the same numbers)"
#: ``--n-boot``'s unit and bounds.
N_BOOT_HELP = f"bootstrap replicates, a whole number from {MIN_N_BOOT} to {MAX_N_BOOT:,}"


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
