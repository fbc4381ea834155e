"""Names a package loads on first use (SPEC 1's ``lazy_loader.attach``, without the dependency).

A package's ``__init__`` keeps a mapping of each public name to the module that
defines it and takes its module ``__getattr__`` and ``__dir__`` from
:func:`attach`; importing the package then loads nothing, and ``from package
import name`` loads only ``name``'s module.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["attach"]


def attach(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` that import ``exports[name]`` on first use.

    Examples
    --------
    >>> getter, lister = attach("demo_package", {"sqrt": "math"})
    >>> getter("sqrt")(9.0), "sqrt" in lister()
    (3.0, True)
    """

    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(exports[name]), name)
        module = sys.modules.get(package)
        if module is not None:
            setattr(module, name, value)  # the next lookup is a plain attribute
        return value

    def __dir__() -> list[str]:
        module = sys.modules.get(package)
        present = set(vars(module)) if module is not None else set()
        return sorted(present | set(exports))

    return __getattr__, __dir__
