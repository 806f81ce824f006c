"""Schemas in and out: field discovery, and conversion between dicts and schema classes."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from foldgraph._kernel.schema import (
    _is_pydantic_model,
    is_schema_class,
    object_fields,
    schema_defaults,
    schema_fields,
)

__all__ = [
    "coerce_context",
    "input_builder",
    "is_schema_class",
    "object_fields",
    "schema_defaults",
    "schema_fields",
    "to_schema",
]


@functools.lru_cache(maxsize=512)
def _builder(schema: Any) -> Any:
    """How to build `schema` from a dict of state values, decided once per schema.

    None when the dict itself is what user code gets (TypedDict, dict, no schema).
    """
    if not isinstance(schema, type) or issubclass(schema, dict):
        return None
    if dataclasses.is_dataclass(schema) or _is_pydantic_model(schema):
        names = frozenset(schema_fields(schema))

        def build(values: Mapping[str, Any]) -> Any:
            if names.issuperset(values):
                return schema(**values)
            return schema(**{k: v for k, v in values.items() if k in names})

        return build
    return None


def input_builder(schema: Any) -> Any:
    """What `to_schema(schema, values)` calls on the values (None: they are passed as is)."""
    return None if schema is None else _builder(schema)


def to_schema(schema: Any, values: Mapping[str, Any]) -> Any:
    """What user code declared it takes: the mapping itself, or a schema instance.

    `values` are already private plain copies (see `foldgraph._kernel.frozen`), so
    they are passed on as they are.
    """
    if schema is None:
        return values
    build = _builder(schema)
    return values if build is None else build(values)


def coerce_context(schema: Any, context: Any) -> Any:
    """Turn `invoke(context=...)` into an instance of the graph's `context_schema`."""
    if schema is None or context is None:
        return context
    # Only dataclasses and pydantic models are built from a mapping; any other schema
    # (a TypedDict, which refuses isinstance checks, or a plain type) is passed as given.
    if dataclasses.is_dataclass(schema) or _is_pydantic_model(schema):
        if isinstance(context, Mapping):
            return schema(**context)
    return context
