"""The classes a graph's schemas name, so a saver's serializer may rebuild them."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Iterable
from typing import Any

import attrs

__all__ = ["schema_types"]


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:
        return dict(getattr(cls, "__annotations__", {}))


def schema_types(schemas: Iterable[Any]) -> set[type]:
    """Every record, model and enum class reachable from `schemas`' type hints.

    A state `TypedDict` with `items: list[Item]` yields `{Item}` (plus what
    `Item`'s own fields name), through unions, `Annotated` and generics.
    """
    found: set[type] = set()
    seen: set[int] = set()
    todo = list(schemas)
    while todo:
        t = todo.pop()
        if t is None or id(t) in seen:
            continue
        seen.add(id(t))
        origin = typing.get_origin(t)
        if origin is not None or isinstance(t, types.UnionType):
            todo.extend(a for a in typing.get_args(t) if not isinstance(a, str | int | float))
            continue
        if not isinstance(t, type):
            continue
        is_record = (
            dataclasses.is_dataclass(t)
            or attrs.has(t)
            or hasattr(t, "model_fields")
            or issubclass(t, enum.Enum)
            or (issubclass(t, tuple) and hasattr(t, "_fields"))
        )
        if is_record:
            found.add(t)
        if is_record or typing.is_typeddict(t):
            todo.extend(_hints(t).values())
    return found
