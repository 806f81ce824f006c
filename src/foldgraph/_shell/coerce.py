"""Schemas in and out: field discovery, and conversion between dicts and schema classes."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.schema import (
    _is_pydantic_model,
    is_schema_class,
    object_fields,
    schema_defaults,
    schema_fields,
)

__all__ = [
    "coerce_context",
    "is_schema_class",
    "object_fields",
    "schema_defaults",
    "schema_fields",
    "to_schema",
]


def to_schema(schema: Any, values: Mapping[str, Any]) -> Any:
    """Build what a node declared it takes: the mapping itself, or a schema instance."""
    if schema is None or not isinstance(schema, type) or issubclass(schema, dict):
        return values
    if dataclasses.is_dataclass(schema) or _is_pydantic_model(schema):
        names = schema_fields(schema)
        return schema(**{k: thaw(v) for k, v in values.items() if k in names})
    return values


def coerce_context(schema: Any, context: Any) -> Any:
    """Turn `invoke(context=...)` into an instance of the graph's `context_schema`."""
    if schema is None or context is None:
        return context
    if isinstance(schema, type) and isinstance(context, schema):
        return context
    if isinstance(context, Mapping):
        if dataclasses.is_dataclass(schema) or _is_pydantic_model(schema):
            return schema(**context)
        return dict(context)
    return context
