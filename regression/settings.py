"""An estimator's settings, declared once: the keyword-only parameters of its ``__init__``.

scikit-learn's model (``BaseEstimator.get_params``, ``sklearn/base.py``): the
signature is the declaration, ``__init__`` only stores each setting under its
own name, and everything else (the list of settings, ``get_params``, the
refusal of a setting the estimator has not) is read from it. Each estimator
checks its settings' values itself (``check_settings``), where they mean
something.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

__all__ = ["Settings"]


class Settings:
    """Mixin: ``setting_names``, ``get_params`` and ``refuse_unknown`` from the ``__init__`` signature.

    Examples
    --------
    >>> class Demo(Settings):
    ...     def __init__(self, *, width: float = 1.0) -> None:
    ...         self.width = width
    >>> Demo.setting_names(), Demo(width=2.0).get_params()
    (('width',), {'width': 2.0})
    >>> Demo.refuse_unknown({"height": 3}, "demo")
    Traceback (most recent call last):
    ...
    ValueError: the demo estimator has no setting height; its settings are ['width'].
    """

    @classmethod
    def setting_names(cls) -> tuple[str, ...]:
        """The keyword-only parameters of ``__init__``, following ``**settings`` up to the base."""
        names: list[str] = []
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is None:
                continue
            parameters = inspect.signature(init).parameters.values()
            names += [
                p.name for p in parameters if p.kind is p.KEYWORD_ONLY and p.name not in names
            ]
            if not any(p.kind is p.VAR_KEYWORD for p in parameters):
                break
        return tuple(names)

    @classmethod
    def setting_defaults(cls) -> dict[str, Any]:
        """Each setting's default, the nearest ``__init__`` that declares it first."""
        defaults: dict[str, Any] = {}
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is not None:
                for p in inspect.signature(init).parameters.values():
                    if p.kind is p.KEYWORD_ONLY:
                        defaults.setdefault(p.name, p.default)
        return {name: defaults[name] for name in cls.setting_names()}

    def get_params(self) -> dict[str, Any]:
        """Every setting by name, as given."""
        return {name: getattr(self, name) for name in self.setting_names()}

    @classmethod
    def refuse_unknown(
        cls, settings: Mapping[str, Any], name: str, fixed: tuple[str, ...] = ()
    ) -> None:
        """Raise ``ValueError`` naming each of ``settings`` that estimator ``name`` has not.

        ``fixed``: settings the name itself fixes (the registry's ``loss``), refused too.
        """
        known = [s for s in cls.setting_names() if s not in fixed]
        unknown = [key for key in settings if key not in known]
        if unknown:
            raise ValueError(
                f"the {name} estimator has no setting {', '.join(unknown)}; its settings are {known}."
            )
