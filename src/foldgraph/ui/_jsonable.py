"""Any stored value as plain JSON data, the one form the viewer, the CLI and diffs use.

Values read from a database are messages, interrupts, sends, dataclasses,
pydantic models, datetimes, foreign records... Showing, printing and
comparing them all go through this conversion, so a message looks the same
whether foldgraph's or LangGraph's saver wrote it: a dict with its `type`
(`human`, `ai`, `tool`...), `content`, `id` and the fields that are set.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
import decimal
import enum
import math
import uuid
from collections import deque
from collections.abc import Mapping
from typing import Any

__all__ = ["jsonable"]

_MESSAGE_SKIP = frozenset({"example"})


def _message(msg: Any) -> dict[str, Any]:
    data = msg.model_dump() if hasattr(msg, "model_dump") else dict(vars(msg))
    out: dict[str, Any] = {"type": data.get("type", getattr(msg, "type", "message"))}
    for key, value in data.items():
        if key in _MESSAGE_SKIP or key == "type":
            continue
        if value in (None, {}, []) and key not in ("content", "id"):
            continue
        out[key] = jsonable(value)
    return out


def _is_message(value: Any) -> bool:
    cls = type(value)
    return cls.__module__.startswith("langchain_core.messages") and hasattr(value, "content")


def jsonable(value: Any) -> Any:
    """`value` as JSON-ready data (dicts with string keys, lists, strings, numbers)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, Mapping):
        return {_key(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | deque):
        return [jsonable(v) for v in value]
    if isinstance(value, set | frozenset):
        items = [jsonable(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=repr)
    if _is_message(value):
        return _message(value)
    from foldgraph.ui._lgserde import Foreign

    if isinstance(value, Foreign):
        return {"$type": value.type, "value": jsonable(value.value)}
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID | decimal.Decimal):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, BaseException):
        return {"$type": type(value).__name__, "value": str(value)}
    return _record(value)


def _record(value: Any) -> Any:
    name = type(value).__name__
    if name == "Interrupt" and hasattr(value, "value"):
        return {"$type": "Interrupt", "value": jsonable(value.value), "id": value.id}
    if name == "Send" and hasattr(value, "node"):
        return {"$type": "Send", "node": value.node, "arg": jsonable(value.arg)}
    if hasattr(value, "model_dump"):
        return {"$type": name, **jsonable(value.model_dump())}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return {"$type": name, **jsonable(fields)}
    import attrs

    if attrs.has(type(value)):
        return {"$type": name, **jsonable(attrs.asdict(value, recurse=False))}
    if hasattr(value, "_asdict"):
        return {"$type": name, **jsonable(value._asdict())}
    if hasattr(value, "to_list"):  # foldgraph's persistent stored forms
        return jsonable(value.to_list())
    return {"$type": name, "value": repr(value)}


def _key(key: Any) -> str:
    return key if isinstance(key, str) else str(jsonable(key))
