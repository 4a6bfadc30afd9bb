"""Frozen records whose methods are written once, not generated at import.

``@dataclass(frozen=True, slots=True)`` writes the source of a class's ``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` and compiles
it when the module is imported: on Python 3.11 about 2 to 5 million instructions a class,
and ``dataclasses`` imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``) first.
For the fifty-odd classes a lint imports that was more than the whole floor of reading
the scenario with the csv module (issue 20, "instant start").

A class on :class:`Frozen` names its fields in ``__slots__`` and writes its own
``__init__`` (setting each field with ``object.__setattr__``); the rest is shared and
behaves as the dataclass did: equality between instances of the same class by the
fields in order, the hash of the tuple of the fields, the dataclass's ``repr``, no
assignment or deletion after ``__init__``, ``__match_args__`` for ``match``, and
pickling and copying by the fields.

>>> class Point(Frozen):
...     __slots__ = ("x", "y")
...
...     def __init__(self, x: int, y: int = 0):
...         object.__setattr__(self, "x", x)
...         object.__setattr__(self, "y", y)
>>> p = Point(1)
>>> p, p == Point(1, 0), hash(p) == hash((1, 0)), p.__match_args__
(Point(x=1, y=0), True, True, ('x', 'y'))
>>> p.x = 2
Traceback (most recent call last):
...
verdicts.records.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

__all__ = ["Frozen", "FrozenInstanceError"]


class FrozenInstanceError(AttributeError):
    """A field of a frozen record was assigned or deleted (as ``dataclasses``' error)."""


class Frozen:
    """The shared methods of a frozen record (see the module's text)."""

    __slots__: tuple[str, ...] = ()
    #: the fields' values of a record as a tuple (set for each class)
    _values: Any

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__dict__.get("__slots__")
        if not isinstance(names, tuple) or not names or any(not isinstance(n, str) for n in names):
            raise TypeError(f"{cls.__qualname__}: a frozen record names its fields in a tuple __slots__")
        cls.__match_args__ = names  # type: ignore[attr-defined, misc]  # set per class, as dataclasses do
        get = attrgetter(*names)
        cls._values = staticmethod(get if len(names) > 1 else lambda record: (get(record),))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values(self) == self._values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self.__slots__, self._values(self)))
        return f"{type(self).__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return type(self), self._values(self)
