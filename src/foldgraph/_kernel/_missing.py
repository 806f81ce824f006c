"""The sentinel for "no value", distinct from a stored `None`."""

from __future__ import annotations

from typing import Final


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()
