"""Input, output and context schemas of a graph, as pydantic models and JSON schemas.

LangGraph derives them from the declared schema classes when there is one (a
pydantic model or a TypedDict as itself), and otherwise builds a pydantic model
named `<graph>Input` / `<graph>Output` from the channels' types.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import typing_extensions
from pydantic import BaseModel, TypeAdapter, create_model

__all__ = ["channels_model", "context_jsonschema", "schema_jsonschema"]


def _is_pydantic(schema: Any) -> bool:
    return isinstance(schema, type) and issubclass(schema, BaseModel)


def _bare(hint: Any) -> Any:
    """The type inside `Annotated[...]` (reducers and managed markers dropped)."""
    while typing.get_origin(hint) in (typing.Annotated, typing_extensions.Annotated):
        hint = typing.get_args(hint)[0]
    return hint


def channels_model(name: str, channels: Mapping[str, Any], keys: Sequence[str], value: bool) -> Any:
    """A pydantic model with one optional field per channel (LangGraph's low-level form)."""
    return create_model(
        name,
        **{k: ((channels[k].ValueType if value else channels[k].UpdateType), None) for k in keys},
    )


def _field_default(schema: Any, key: str, hint: Any = Any) -> Any:
    """A field's default in the schema's model: its own, else None when its type allows
    None (as LangGraph: such a field is not required), else required (`...`)."""
    if dataclasses.is_dataclass(schema):
        for field in dataclasses.fields(schema):
            if field.name == key:
                if field.default is not dataclasses.MISSING:
                    return field.default
                if field.default_factory is not dataclasses.MISSING:
                    return field.default_factory()
    return None if _allows_none(_bare(hint)) else ...


def _allows_none(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in (
        typing.get_args(hint)
    )


def schema_jsonschema(schema: Any, keys: Sequence[str], name: str) -> dict[str, Any]:
    """The JSON schema of a state, input or output schema of a `StateGraph`."""
    if _is_pydantic(schema):
        return schema.model_json_schema()
    if typing_extensions.is_typeddict(schema):
        return TypeAdapter(schema).json_schema()
    if list(keys) == ["__root__"]:
        return create_model(name, root=(_bare(schema), None)).model_json_schema()
    hints = typing.get_type_hints(schema, include_extras=True)
    fields = {
        k: (_bare(hints.get(k, Any)), _field_default(schema, k, hints.get(k, Any))) for k in keys
    }
    return create_model(name, **fields).model_json_schema()  # type: ignore[call-overload]


def schema_model(schema: Any, keys: Sequence[str], name: str) -> Any:
    """A pydantic model of a `StateGraph` schema (the schema itself when it is one)."""
    if _is_pydantic(schema):
        return schema
    if list(keys) == ["__root__"]:
        return create_model(name, root=(_bare(schema), None))
    try:
        hints = typing.get_type_hints(schema, include_extras=True)
    except Exception:
        hints = {}
    fields = {
        k: (_bare(hints.get(k, Any)), _field_default(schema, k, hints.get(k, Any))) for k in keys
    }
    return create_model(name, **fields)  # type: ignore[call-overload]


def context_jsonschema(schema: Any) -> dict[str, Any] | None:
    """The JSON schema of `context_schema`, or None without one."""
    if schema is None:
        return None
    if _is_pydantic(schema):
        return schema.model_json_schema()
    return TypeAdapter(schema).json_schema()
