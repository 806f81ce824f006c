"""LangGraph's older `"json"` rows, read: JSON whose objects may name a class to build.

Before msgpack, LangGraph stored values as JSON in which an object
`{"lc": 2, "type": "constructor", "id": [*module, "Name"], "kwargs": {...}}`
stands for `Name(**kwargs)`, and `{"lc": 1, ...}` for a langchain-core object.
foldgraph never writes them; it reads them so a thread saved then can be opened.
The class is looked up in the serializer's `TypeRegistry` (foldgraph's own types,
registered ones, or any, after the user's explicit `allowed_json_modules=True`),
and LangGraph's import root `langgraph` is read as `foldgraph`. As in LangGraph, an
exception class, or a constructor that fails, gives None.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from foldgraph.checkpoint.serde._codec import TypeRegistry

__all__ = ["load_legacy_json"]


def load_legacy_json(payload: bytes, registry: TypeRegistry) -> Any:
    """The value a `("json", payload)` row holds."""
    return json.loads(payload, object_hook=functools.partial(_revive, registry))


def _revive(registry: TypeRegistry, obj: dict[str, Any]) -> Any:
    lc = obj.get("lc")
    if lc == 2 and obj.get("type") == "constructor" and isinstance(obj.get("id"), list):
        *module, name = obj["id"]
        if module and module[0] == "langgraph":
            module = ["foldgraph", *module[1:]]
        cls = registry.lookup(f"{'.'.join(module)}:{name}")  # refused unless allowed
        if issubclass(cls, BaseException):
            return None
        args, kwargs = obj.get("args") or (), obj.get("kwargs") or {}
        try:
            return cls(*args, **kwargs)
        except Exception:
            return None
    if lc == 1:
        return _core_reviver()(obj)
    return obj


@functools.cache
def _core_reviver() -> Any:
    """langchain-core's reviver for its own classes only (made once: it is stateless)."""
    from langchain_core.load.load import Reviver

    try:
        return Reviver(allowed_objects="core")
    except TypeError:  # a langchain-core before `allowed_objects`
        return Reviver()
