"""LangGraph's stored values are read through an allowlist: nothing a row names is run."""

from __future__ import annotations

import datetime as dt
import sys
import uuid

import msgpack
import pytest
from langchain_core.messages import AIMessage

from foldgraph.types import Interrupt, Send
from foldgraph.ui._jsonable import jsonable
from foldgraph.ui._lgserde import Foreign, decode_metadata, decode_typed


def ext(code: int, *payload) -> msgpack.ExtType:
    return msgpack.ExtType(code, msgpack.packb(list(payload), use_bin_type=True))


def packed(value) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def test_a_constructor_path_off_the_allowlist_is_neither_imported_nor_called(monkeypatch):
    import os

    def refuse(*args):
        raise AssertionError("os.system was called")

    monkeypatch.setattr(os, "system", refuse)
    assert "not_a_module_anyone_has" not in sys.modules
    data = packed(
        {
            "a": ext(1, "os", "system", ["echo hacked"]),
            "b": ext(2, "not_a_module_anyone_has", "Thing", {"x": 1}),
            "c": ext(5, "myapp.models", "Order", {"id": 7}, "model_validate_json"),
            "d": ext(3, "os", "system", "echo hacked", "__call__"),
        }
    )
    value = decode_typed("msgpack", data)
    assert value == {
        "a": Foreign("os.system", ["echo hacked"]),
        "b": Foreign("not_a_module_anyone_has.Thing", {"x": 1}),
        "c": Foreign("myapp.models.Order", {"id": 7}),
        "d": Foreign("os.system", "echo hacked"),
    }
    assert "not_a_module_anyone_has" not in sys.modules
    assert "myapp" not in sys.modules
    assert jsonable(value["c"]) == {"$type": "myapp.models.Order", "value": {"id": 7}}


def test_pickled_rows_are_never_unpickled():
    import pickle

    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('unpickled')",))

    value = decode_typed("pickle", pickle.dumps(Boom()))
    assert isinstance(value, Foreign) and value.type == "pickle"
    assert "pickled bytes, not loaded" in value.value


def test_allowlisted_values_are_built():
    stamp = dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    data = packed(
        [
            ext(5, "langchain_core.messages.ai", "AIMessage", {"content": "hi", "id": "m1"}),
            ext(2, "langgraph.types", "Interrupt", {"value": {"q": 1}, "id": "i1"}),
            ext(1, "langgraph.types", "Send", ["node", {"x": 1}]),
            ext(3, "datetime", "datetime", stamp.isoformat(), "fromisoformat"),
            ext(0, "uuid", "UUID", "12345678123456781234567812345678"),
            ext(0, "builtins", "set", [1, 2]),
        ]
    )
    msg, interrupt, send, when, ident, numbers = decode_typed("msgpack", data)
    assert isinstance(msg, AIMessage) and (msg.content, msg.id) == ("hi", "m1")
    assert interrupt == Interrupt(value={"q": 1}, id="i1")
    assert send == Send("node", {"x": 1})
    assert when == stamp
    assert ident == uuid.UUID("12345678123456781234567812345678")
    assert numbers == {1, 2}


@pytest.mark.parametrize(
    ("typ", "data", "value"),
    [("null", b"", None), ("bytes", b"\x00\x01", b"\x00\x01"), ("empty", None, None)],
)
def test_plain_types(typ, data, value):
    assert decode_typed(typ, data) == value


def test_json_rows_use_the_same_allowlist():
    data = (
        b'{"m": {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", '
        b'"HumanMessage"], "kwargs": {"content": "yo"}}, "x": {"lc": 2, "type": "constructor", '
        b'"id": ["os", "system"], "kwargs": {"command": "ls"}}}'
    )
    value = decode_typed("json", data)
    assert value["m"].content == "yo" and value["m"].type == "human"
    assert value["x"] == Foreign("os.system", {"command": "ls"})


def test_metadata_is_json_or_msgpack():
    assert decode_metadata('{"step": 1}') == {"step": 1}
    assert decode_metadata(packed({"step": 2})) == {"step": 2}
    assert decode_metadata(None) == {}
