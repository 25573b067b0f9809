"""The base of the compiled core's dataclasses.

A class compiled by mypyc with an ``__init__`` of its own makes its objects
through that ``__init__`` even where pickle and :mod:`copy` make an empty one
first (``cls.__new__(cls)``), so they would fail. :class:`Record` makes both
go through the constructor, with the fields in order (distaff/core.py says why
the core's dataclasses write their own ``__init__``).
"""

from __future__ import annotations

import dataclasses
from typing import Any


class Record:
    __slots__ = ()

    def __reduce__(self) -> tuple:
        fields: Any = dataclasses.fields  # (of the dataclass a subclass is)
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))
