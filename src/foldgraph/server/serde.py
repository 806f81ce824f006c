"""JSON as the server speaks it: graph values, snapshots and errors in LangGraph's shapes.

Values are encoded with orjson; what it cannot encode itself goes through
`_default` (pydantic models such as langchain-core messages by `model_dump`,
sets as lists, graph records by their fields), so a state streams as LangGraph's
server streams it.
"""

from __future__ import annotations

import base64
import dataclasses
import decimal
import enum
from collections.abc import Mapping
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY


def dumps(value: Any) -> bytes:
    """`value` as JSON bytes."""
    return orjson.dumps(value, default=_default, option=_OPTIONS)


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)


def to_plain(value: Any) -> Any:
    """`value` as plain JSON data (dicts, lists, strings, numbers)."""
    return orjson.loads(dumps(value))


def _default(obj: Any) -> Any:
    dump = getattr(obj, "model_dump", None)
    if dump is not None and not isinstance(obj, type):
        return dump()
    if isinstance(obj, set | frozenset):
        return list(obj)
    if isinstance(obj, Mapping):
        return dict(obj)
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, decimal.Decimal):
        return str(obj)
    if isinstance(obj, bytes | bytearray):
        return base64.b64encode(obj).decode()
    if isinstance(obj, BaseException):
        return {"error": type(obj).__name__, "message": str(obj)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if hasattr(obj, "_asdict"):
        return obj._asdict()
    if type(obj).__name__ == "Send" and hasattr(obj, "node"):
        return {"node": obj.node, "arg": obj.arg}
    if hasattr(obj, "__attrs_attrs__"):
        return {a.name: getattr(obj, a.name) for a in obj.__attrs_attrs__}
    legacy = getattr(obj, "dict", None)
    if callable(legacy) and not isinstance(obj, type):
        return legacy()
    if hasattr(obj, "__iter__") and not isinstance(obj, str):
        return list(obj)
    return str(obj)


def error_json(err: BaseException) -> dict[str, str]:
    """An error as LangGraph's server reports it (`{"error": "ValueError", "message": ...}`)."""
    return {"error": type(err).__name__, "message": str(err)}


def checkpoint_json(config: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The `checkpoint` object of a state: id, thread and namespace of a config."""
    if not config:
        return None
    conf = config.get("configurable", {})
    out = {
        "checkpoint_id": conf.get("checkpoint_id"),
        "thread_id": conf.get("thread_id"),
        "checkpoint_ns": conf.get("checkpoint_ns", ""),
    }
    if conf.get("checkpoint_map"):
        out["checkpoint_map"] = conf["checkpoint_map"]
    return out


def interrupt_json(interrupt: Any) -> dict[str, Any]:
    return {"id": interrupt.id, "value": interrupt.value}


def state_json(snapshot: Any) -> dict[str, Any]:
    """A `StateSnapshot` as the API's `ThreadState`."""
    checkpoint = checkpoint_json(snapshot.config)
    parent = checkpoint_json(snapshot.parent_config)
    return {
        "values": snapshot.values,
        "next": list(snapshot.next),
        "tasks": [_task_json(t) for t in snapshot.tasks],
        "metadata": snapshot.metadata,
        "created_at": snapshot.created_at,
        "checkpoint": checkpoint,
        "parent_checkpoint": parent,
        "interrupts": [interrupt_json(i) for i in snapshot.interrupts],
        "checkpoint_id": checkpoint["checkpoint_id"] if checkpoint else None,
        "parent_checkpoint_id": parent["checkpoint_id"] if parent else None,
    }


def _task_json(task: Any) -> dict[str, Any]:
    state = task.state
    sub_state = None
    sub_checkpoint = None
    if state is not None and hasattr(state, "values") and hasattr(state, "next"):
        sub_state = state_json(state)
    elif isinstance(state, Mapping) and "configurable" in state:
        sub_checkpoint = checkpoint_json(state)
    return {
        "id": task.id,
        "name": task.name,
        "path": list(task.path),
        "error": _error_text(task.error),
        "interrupts": [interrupt_json(i) for i in task.interrupts],
        "checkpoint": sub_checkpoint,
        "state": sub_state,
        "result": task.result,
    }


def _error_text(error: Any) -> str | None:
    """A task's error as LangGraph's server shows it: the exception's repr."""
    if error is None or isinstance(error, str):
        return error
    return repr(error)


def empty_state_json(checkpoint_id: str | None = None, thread_id: str | None = None) -> dict:
    """The state of a thread that has no checkpoint yet (what LangGraph's server answers)."""
    checkpoint = {"checkpoint_id": checkpoint_id, "thread_id": thread_id} if checkpoint_id else None
    return {
        "values": {},
        "next": [],
        "tasks": [],
        "metadata": None,
        "created_at": None,
        "checkpoint": checkpoint,
        "parent_checkpoint": None,
        "interrupts": [],
        "checkpoint_id": checkpoint_id,
        "parent_checkpoint_id": None,
    }
