"""An estimator's settings, declared once: the keyword-only parameters of its ``__init__``.

scikit-learn's model (``BaseEstimator.get_params``, ``sklearn/base.py``): the
signature is the declaration, ``__init__`` only stores each setting under its
own name, and everything else (the list of settings, ``get_params``,
``set_params``, ``__repr__``, the refusal of a setting the estimator has not)
is read from it. The values allowed are declared beside it, as scikit-learn's
``_parameter_constraints`` (``sklearn/utils/_param_validation.py``): each
setting a list of :class:`Interval`, :class:`Options`, a type or ``None``, and
one helper, :func:`check_params`, checks them all with one message and one
error (:class:`~regression.errors.InputError`, naming the setting and value).
This module imports nothing heavy: the registry and the CLI read it.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from regression.errors import InputError

__all__ = ["Constraint", "Interval", "Options", "Settings", "check_params"]


class Interval(NamedTuple):
    """A number of ``kind`` between ``low`` and ``high`` (None: unbounded), ends as ``closed`` says.

    Examples
    --------
    >>> str(Interval(numbers.Real, 0, 1)), 0.5 in Interval(numbers.Real, 0, 1)
    ('a number in [0, 1]', True)
    >>> True in Interval(numbers.Integral, 0, None)  # a bool is not a count
    False
    >>> float("nan") in Interval(numbers.Real, 0, None)
    False
    """

    kind: type
    low: float | None
    high: float | None
    closed: str = "both"  # "both", "left", "right" or "neither"

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, self.kind):
            return False
        number = float(value)  # type: ignore[arg-type]  # a numbers.Real
        if number != number:  # NaN lies in no interval (every comparison with it is False)
            return False
        if self.low is not None and (
            number < self.low or (number == self.low and self.closed in ("right", "neither"))
        ):
            return False
        return self.high is None or not (
            number > self.high or (number == self.high and self.closed in ("left", "neither"))
        )

    def __str__(self) -> str:
        kind = "an integer" if issubclass(self.kind, numbers.Integral) else "a number"
        left = "[" if self.closed in ("both", "left") else "("
        right = "]" if self.closed in ("both", "right") else ")"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return f"{kind} in {left}{low}, {high}{right}"


class Options(NamedTuple):
    """One of ``values`` (compared by equality)."""

    values: tuple[Any, ...]

    def __contains__(self, value: object) -> bool:
        try:
            return value in self.values
        except TypeError:  # an unhashable value against a frozenset, say
            return False

    def __str__(self) -> str:
        if len(self.values) == 1:
            return repr(self.values[0])
        return f"one of {', '.join(map(repr, self.values))}"


#: What a setting may be: an :class:`Interval`, :class:`Options`, a type, or ``None`` (the value None).
Constraint = Interval | Options | type | None


def _holds(constraint: Constraint, value: object) -> bool:
    if constraint is None:
        return value is None
    if isinstance(constraint, type):
        return isinstance(value, constraint)
    return value in constraint


def _describe(constraint: Constraint) -> str:
    if constraint is None:
        return "None"
    if isinstance(constraint, type):
        return f"a {constraint.__name__}"
    return str(constraint)


def check_params(
    owner: str, params: Mapping[str, Any], constraints: Mapping[str, Sequence[Constraint]]
) -> None:
    """Raise :class:`~regression.errors.InputError` on the first setting outside its constraints.

    The one message, the house's: ``"{name} ({value!r}) not recognized; must be
    {what each constraint allows, joined by 'or'} ({owner})."``; the error's
    ``column`` is the setting and its ``value`` the value.

    Examples
    --------
    >>> check_params("Demo", {"width": -1}, {"width": [Interval(numbers.Real, 0, None)]})
    Traceback (most recent call last):
    ...
    regression.errors.InputError: width (-1) not recognized; must be a number in [0, inf] (Demo).
    """
    for name, value in params.items():
        allowed = constraints.get(name)
        if allowed is None or any(_holds(c, value) for c in allowed):
            continue
        raise InputError(
            f"{name} ({value!r}) not recognized; must be "
            f"{' or '.join(_describe(c) for c in allowed)} ({owner}).",
            column=name,
            value=value,
        )


class Settings:
    """Mixin: ``setting_names``, ``get_params``, ``set_params``, ``__repr__``, ``refuse_unknown``
    from the ``__init__`` signature, and ``check_settings`` from :attr:`parameter_constraints`.

    Examples
    --------
    >>> class Demo(Settings):
    ...     def __init__(self, *, width: float = 1.0) -> None:
    ...         self.width = width
    >>> Demo.setting_names(), Demo(width=2.0).get_params()
    (('width',), {'width': 2.0})
    >>> Demo(width=2.0)
    Demo(width=2.0)
    >>> Demo.refuse_unknown({"height": 3}, "demo")
    Traceback (most recent call last):
    ...
    ValueError: the demo estimator has no setting height; its settings are ['width'].
    """

    #: Setting -> the constraints one of which its value must meet (:func:`check_params`);
    #: a setting not named here is checked by the estimator where it is used.
    parameter_constraints: ClassVar[Mapping[str, Sequence[Constraint]]] = {}

    def __repr__(self) -> str:
        settings = ", ".join(f"{name}={value!r}" for name, value in self.get_params().items())
        return f"{type(self).__name__}({settings})"

    def check_settings(self) -> None:
        """Raise :class:`~regression.errors.InputError` on a setting outside :attr:`parameter_constraints`."""
        check_params(type(self).__name__, self.get_params(), self.parameter_constraints)

    def set_params(self, **params: Any) -> Settings:
        """Set settings by name (refusing one the estimator has not); returns ``self``."""
        self.refuse_unknown(params, type(self).__name__)
        for name, value in params.items():
            setattr(self, name, value)
        return self

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
