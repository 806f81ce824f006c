"""Reading values LangGraph's serializer wrote, without running anything a row names.

LangGraph stores a value as `(type, bytes)`: `"msgpack"` (msgpack whose
extension types carry a `(module, name, args...)` constructor path), `"json"`
(older rows: LangChain's `{"lc": ..., "id": [...], "kwargs": ...}`
envelopes), `"null"`, `"bytes"`, `"bytearray"`, or `"pickle"`. Its own reader
imports the module a row names and calls the constructor. This one never
imports or calls by name: each constructor path is looked up in a fixed
allowlist of builders (langchain-core messages built with `model_construct`,
so no validator runs; LangGraph's `Interrupt` and `Send` as foldgraph's;
standard-library values). Anything else becomes a `Foreign` record holding
the type's name and its data, which the viewer shows as it is. Pickled rows
are never unpickled.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["Foreign", "decode_metadata", "decode_typed"]

EXT_SINGLE_ARG, EXT_POS_ARGS, EXT_KW_ARGS, EXT_METHOD = 0, 1, 2, 3
EXT_PYDANTIC_V1, EXT_PYDANTIC_V2, EXT_NUMPY, EXT_DELTA = 4, 5, 6, 7


@attrs.frozen
class Foreign:
    """A value of a type the reader does not build: its stored name and data, nothing run."""

    type: str
    value: Any


_MESSAGE_NAMES = frozenset(
    {
        "AIMessage",
        "AIMessageChunk",
        "HumanMessage",
        "HumanMessageChunk",
        "SystemMessage",
        "SystemMessageChunk",
        "ToolMessage",
        "ToolMessageChunk",
        "FunctionMessage",
        "FunctionMessageChunk",
        "ChatMessage",
        "ChatMessageChunk",
        "RemoveMessage",
    }
)


def _message(name: str, fields: Any) -> Any:
    from langchain_core import messages

    cls = getattr(messages, name)
    if not isinstance(fields, dict):
        return Foreign(f"langchain_core.messages.{name}", fields)
    # model_construct: the stored fields as they are, no validator or user code runs.
    return cls.model_construct(**{str(k): v for k, v in fields.items()})


def _interrupt(fields: Any) -> Any:
    from foldgraph.types import Interrupt

    if isinstance(fields, dict) and "value" in fields:
        return Interrupt(value=fields["value"], id=str(fields.get("id", "")))
    return Foreign("langgraph.types.Interrupt", fields)


def _send(args: Any) -> Any:
    from foldgraph.types import Send

    if isinstance(args, list | tuple) and len(args) >= 2 and isinstance(args[0], str):
        return Send(args[0], args[1])
    return Foreign("langgraph.types.Send", args)


def _time(fields: Any) -> Any:
    if isinstance(fields, dict):
        kwargs = {k: fields[k] for k in ("hour", "minute", "second", "microsecond") if k in fields}
        tz = fields.get("tzinfo")
        return dt.time(**kwargs, tzinfo=tz if isinstance(tz, dt.tzinfo) else None)
    return Foreign("datetime.time", fields)


def _timezone(args: Any) -> Any:
    if isinstance(args, list | tuple) and args and isinstance(args[0], dt.timedelta):
        return dt.timezone(args[0], *[a for a in args[1:2] if isinstance(a, str)])
    return Foreign("datetime.timezone", args)


# (module, name) -> builder of the stored argument(s). Only these are ever built.
_SINGLE: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("uuid", "UUID"): lambda a: uuid.UUID(hex=a),
    ("decimal", "Decimal"): decimal.Decimal,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("collections", "deque"): deque,
}
_POSITIONAL: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("datetime", "timedelta"): lambda a: dt.timedelta(*a),
    ("datetime", "date"): lambda a: dt.date(*a),
    ("datetime", "timezone"): _timezone,
    ("langgraph.types", "Send"): _send,
}
_KEYWORD: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("langgraph.types", "Interrupt"): _interrupt,
    ("datetime", "time"): _time,
}
_METHODS: dict[tuple[str, str, str], Callable[[Any], Any]] = {
    ("datetime", "datetime", "fromisoformat"): dt.datetime.fromisoformat,
    ("datetime", "date", "fromisoformat"): dt.date.fromisoformat,
    ("datetime", "time", "fromisoformat"): dt.time.fromisoformat,
}


def _dotted(module: Any, name: Any) -> str:
    return f"{module}.{name}"


def _build(code: int, payload: Any) -> Any:
    """One extension value from its decoded payload, through the allowlist only."""
    if code == EXT_DELTA:
        return payload
    if not isinstance(payload, list | tuple) or len(payload) < 3:
        return Foreign(f"msgpack-ext-{code}", payload)
    module, name, arg = payload[0], payload[1], payload[2]
    key = (module, name)
    try:
        if code in (EXT_PYDANTIC_V1, EXT_PYDANTIC_V2, EXT_KW_ARGS) and (
            isinstance(module, str) and module.startswith("langchain_core.messages")
        ):
            if name in _MESSAGE_NAMES:
                return _message(name, arg)
        if code == EXT_SINGLE_ARG and key in _SINGLE:
            return _SINGLE[key](arg)
        if code == EXT_POS_ARGS and key in _POSITIONAL:
            return _POSITIONAL[key](arg)
        if code == EXT_KW_ARGS and key in _KEYWORD:
            return _KEYWORD[key](arg)
        if code == EXT_METHOD and len(payload) > 3:
            method = _METHODS.get((module, name, payload[3]))
            if method is not None:
                return method(arg)
    except (TypeError, ValueError, ArithmeticError):
        pass  # a malformed argument: show it as stored
    if code == EXT_NUMPY:
        return Foreign("numpy.ndarray", {"dtype": payload[0], "shape": payload[1]})
    return Foreign(_dotted(module, name), arg)


def _ext_hook(code: int, data: bytes) -> Any:
    return _build(code, _unpack(data))


def _unpack(data: bytes) -> Any:
    import msgpack

    return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False, use_list=True)


def _revive(obj: dict[str, Any]) -> Any:
    """LangChain's JSON envelopes (`"json"` rows), mapped through the same allowlist."""
    if obj.get("lc") in (1, 2) and obj.get("type") == "constructor" and "id" in obj:
        path = obj["id"]
        if isinstance(path, list) and path:
            name = path[-1]
            kwargs = obj.get("kwargs") or {}
            if name in _MESSAGE_NAMES and "messages" in path:
                return _message(name, kwargs)
            if path[:-1] == ["langgraph", "types"] and name == "Interrupt":
                return _interrupt(kwargs)
            return Foreign(".".join(map(str, path)), obj.get("kwargs", obj.get("args")))
    return obj


def decode_typed(typ: str | None, data: bytes | memoryview | None) -> Any:
    """A value LangGraph stored as `(typ, data)`; unknown types come back as `Foreign`."""
    raw = bytes(data) if data is not None else b""
    if typ in (None, "null", "empty"):
        return None
    if typ == "bytes":
        return raw
    if typ == "bytearray":
        return bytearray(raw)
    if typ == "msgpack":
        return _unpack(raw)
    if typ == "json":
        return json.loads(raw, object_hook=_revive)
    if typ == "pickle":
        return Foreign("pickle", f"<{len(raw)} pickled bytes, not loaded>")
    return Foreign(str(typ), f"<{len(raw)} bytes of an unknown format>")


def decode_metadata(data: Any) -> dict[str, Any]:
    """Checkpoint metadata: JSON text (LangGraph 0.2+), or a msgpack map (older rows)."""
    if data is None:
        return {}
    if isinstance(data, dict):
        return data
    raw = data.encode() if isinstance(data, str) else bytes(data)
    try:
        found = json.loads(raw)
    except ValueError:
        found = _unpack(raw)
    return found if isinstance(found, dict) else {"metadata": found}
