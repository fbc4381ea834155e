"""Names a package loads on first use, listed once in the package's ``__init__.pyi`` stub.

The stub is what a type checker and an IDE read; :func:`attach_stub` reads the
same file, so the public names are written in one place (SPEC 1's
``lazy_loader.attach_stub``, as scikit-image uses it). We read the stub here
rather than depend on ``lazy_loader``: it is these forty lines, and the stub
keeps lazy_loader's form (relative imports only), so switching is one line.

Importing the package then loads nothing, and ``from package import name``
loads only ``name``'s module.
"""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["attach", "attach_stub", "moved", "read_stub"]


def read_stub(package: str, stub: Path) -> dict[str, str]:
    """Public name -> the module that defines it, from ``stub``'s relative imports.

    ``from .part import name`` (or ``name as name``, a stub's re-export) maps
    ``name`` to ``package.part``; ``from . import part`` maps ``part`` to the
    sub-module ``package.part`` itself.

    Raises
    ------
    ValueError
        A statement other than a relative ``from`` import (naming its line).
    """
    exports: dict[str, str] = {}
    for node in ast.parse(stub.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        renamed = isinstance(node, ast.ImportFrom) and any(
            alias.asname not in (None, alias.name) for alias in node.names
        )
        if not (isinstance(node, ast.ImportFrom) and node.level == 1) or renamed:
            raise ValueError(
                f"{stub} line {node.lineno}: only 'from .module import name' lines, each name as itself."
            )
        for alias in node.names:
            if node.module is None:
                exports[alias.name] = f"{package}.{alias.name}"
            else:
                exports[alias.name] = f"{package}.{node.module}"
    return exports


def attach_stub(
    package: str, init_file: str
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` of ``package`` from its ``__init__.pyi``."""
    exports = read_stub(package, Path(init_file).with_suffix(".pyi"))
    getter, lister = attach(package, exports)
    return getter, lister, sorted(exports)


def attach(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` that import ``exports[name]`` on first use.

    A name that maps to ``package.name`` itself is that sub-module.

    Examples
    --------
    >>> getter, lister = attach("demo_package", {"sqrt": "math"})
    >>> getter("sqrt")(9.0), "sqrt" in lister()
    (3.0, True)
    """

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(exports[name])
        value = module if exports[name] == f"{package}.{name}" else getattr(module, name)
        home = sys.modules.get(package)
        if home is not None:
            setattr(home, name, value)  # the next lookup is a plain attribute
        return value

    def __dir__() -> list[str]:
        module = sys.modules.get(package)
        present = set(vars(module)) if module is not None else set()
        return sorted(present | set(exports))

    return __getattr__, __dir__


def moved(
    module: str, homes: Mapping[str, str], fallback: Callable[[str], Any] | None = None
) -> Callable[[str], Any]:
    """A ``__getattr__`` for ``module`` whose names in ``homes`` moved to ``homes[name]``.

    Each still resolves, with a FutureWarning naming the new home, for one
    release; any other name goes to ``fallback`` (or is an AttributeError).

    Examples
    --------
    >>> import warnings
    >>> getter = moved("old_place", {"sqrt": "math"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     root = getter("sqrt")(9.0)
    >>> root, caught[0].category.__name__
    (3.0, 'FutureWarning')
    """

    def __getattr__(name: str) -> Any:
        if name in homes:
            warnings.warn(
                f"{module}.{name} moved; import it from {homes[name]} (from {homes[name]} "
                f"import {name}). The old path goes in the next release.",
                FutureWarning,
                stacklevel=2,
            )
            return getattr(importlib.import_module(homes[name]), name)
        if fallback is not None:
            return fallback(name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
