"""What fields a state schema has (TypedDict, dataclass, pydantic): pure introspection.

The builder turns these fields into channels, the runner reads updates out of schema
instances, and `Command` reads its update through `object_fields`.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

__all__ = ["is_schema_class", "object_fields", "schema_defaults", "schema_fields"]


def _is_pydantic_model(t: Any) -> bool:
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic ships with langchain-core
        return False
    return isinstance(t, type) and issubclass(t, BaseModel)


def _is_typeddict(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__annotations__")


def is_schema_class(t: Any) -> bool:
    """True for classes whose annotated fields are state keys (TypedDict, dataclass, pydantic)."""
    return isinstance(t, type) and (
        _is_typeddict(t) or dataclasses.is_dataclass(t) or _is_pydantic_model(t)
    )


@functools.lru_cache(maxsize=512)
def schema_fields(schema: Any) -> dict[str, Any]:
    """Field name -> annotation (with `Annotated` extras kept), in declaration order."""
    try:
        hints = typing.get_type_hints(schema, include_extras=True)
    except Exception as exc:
        # LangGraph raises here too; reading the raw strings instead would silently turn
        # an `Annotated[list, operator.add]` key into a last-value key.
        exc.add_note(
            f"The annotations of {getattr(schema, '__qualname__', schema)!r} cannot be "
            "resolved: import every name they use at the top of its module (a class "
            "defined in a function cannot name that function's locals in a string "
            "annotation)."
        )
        raise
    if _is_pydantic_model(schema):
        names = list(schema.model_fields)
        return {n: hints.get(n, schema.model_fields[n].annotation) for n in names}
    return {
        name: hint
        for name, hint in hints.items()
        if not name.startswith("__") and typing.get_origin(hint) is not typing.ClassVar
    }


def schema_defaults(schema: Any) -> dict[str, Any]:
    """Defaults declared by a dataclass or pydantic schema (TypedDicts have none)."""
    if dataclasses.is_dataclass(schema):
        out = {}
        for f in dataclasses.fields(schema):
            if f.default is not dataclasses.MISSING:
                out[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                out[f.name] = f.default_factory()
        return out
    if _is_pydantic_model(schema):
        from pydantic_core import PydanticUndefined

        return {
            n: f.get_default(call_default_factory=True)
            for n, f in schema.model_fields.items()
            if f.default is not PydanticUndefined or f.default_factory is not None
        }
    return {}


def object_fields(obj: Any) -> dict[str, Any] | None:
    """The update carried by a schema instance a node returned, or None if it is not one.

    A field is written when its value is not None, when its default is not
    None, or (pydantic) when it was set explicitly, so that a partially built
    model does not erase state with its None defaults.
    """
    cls = type(obj)
    if not is_schema_class(cls) or isinstance(obj, dict):
        return None
    names = schema_fields(cls)
    defaults = schema_defaults(cls)
    explicitly_set = getattr(obj, "model_fields_set", None)
    out: dict[str, Any] = {}
    for name in names:
        if not hasattr(obj, name):
            continue
        value = getattr(obj, name)
        if (
            value is not None
            or defaults.get(name, ...) is not None
            or (explicitly_set is not None and name in explicitly_set)
        ):
            out[name] = value
    return out
