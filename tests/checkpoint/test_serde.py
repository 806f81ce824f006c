"""The serializer behind durable savers: exact round trips, an allowlist, no pickle."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import fractions
import gc
import json
import uuid
import weakref
from typing import Any

import attrs
import immutables
import ormsgpack
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from pyrsistent import pmap, pset, pvector

from foldgraph._kernel._vector import vector
from foldgraph._kernel.add_messages import messages_monoid
from foldgraph._kernel.frozen import FrozenDict
from foldgraph.checkpoint.serde.base import SerializerProtocol, maybe_add_typed_methods
from foldgraph.checkpoint.serde.encrypted import EncryptedSerializer
from foldgraph.checkpoint.serde.event_hooks import register_serde_event_listener
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.errors import SerializationError, UnregisteredTypeError
from foldgraph.types import Command, Interrupt, Send

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's serializer (tagged JSON, allowlist, no pickle); LangGraph's differs"
)


class Color(enum.Enum):
    RED = "red"
    BLUE = 2


class Level(enum.IntEnum):
    LOW = 1


@dataclasses.dataclass
class WithDerived:
    a: int
    b: list[int]
    total: int = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        self.total = self.a + sum(self.b)


@attrs.frozen
class Point:
    x: int
    y: tuple[int, int]
    label: str = attrs.field(init=False, default="p")


class Model(pydantic.BaseModel):
    name: str
    tags: set[str] = pydantic.Field(default_factory=set)
    when: dt.datetime | None = None
    nested: list[tuple[int, str]] = []


def roundtrip(value: Any, serde: JsonPlusSerializer | None = None) -> Any:
    serde = serde or JsonPlusSerializer()
    typ, data = serde.dumps_typed(value)
    # A fresh serializer that was only told the types, as a new process would be.
    reader = JsonPlusSerializer(allowed_types=[Color, Level, WithDerived, Point, Model])
    return reader.loads_typed((typ, data))


def test_builtin_values_keep_their_exact_types() -> None:
    value = {
        "list": [1, 2.5, "x", None, True],
        "tuple": (1, (2, 3)),
        "set": {1, 2},
        "frozenset": frozenset({"a"}),
        "bytes": b"\x00\xff",
        "bytearray": bytearray(b"ab"),
        "aware": dt.datetime(2024, 5, 1, 12, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        "naive": dt.datetime(2024, 5, 1, 12, 30),
        "date": dt.date(2024, 1, 2),
        "time": dt.time(3, 4, 5),
        "delta": dt.timedelta(days=1, seconds=3, microseconds=7),
        "uuid": uuid.UUID(int=7),
        "decimal": decimal.Decimal("1.10"),
        "nan_key": {1: "int key", (1, 2): "tuple key"},
        "tagged": {"!": "not a tag"},
        "inf": float("inf"),
    }
    back = roundtrip(value)
    assert back == value
    assert {k: type(v) for k, v in back.items()} == {k: type(v) for k, v in value.items()}
    assert type(back["tuple"][1]) is tuple
    assert back["aware"].utcoffset() == dt.timedelta(hours=2)
    assert back["naive"].tzinfo is None


def test_records_keep_init_false_fields_enums_and_pydantic_defaults() -> None:
    derived = WithDerived(1, [2, 3])
    point = Point(1, (2, 3))
    object.__setattr__(point, "label", "moved")  # a value __init__ would not produce
    model = Model(name="n", when=dt.datetime(2024, 1, 1, tzinfo=dt.UTC))
    back = roundtrip([derived, point, model, Color.BLUE, Level.LOW])
    assert back == [derived, point, model, Color.BLUE, Level.LOW]
    assert back[0].total == 6
    assert back[1].label == "moved"
    assert back[2].model_fields_set == {"name", "when"}
    assert back[2].tags == set() and back[2].nested == []
    assert type(back[4]) is Level


def test_messages_go_through_langchain_core_and_keep_every_field() -> None:
    messages = [
        HumanMessage("hi", id="1", name="ann"),
        AIMessage(
            "",
            id="2",
            tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1", "type": "tool_call"}],
            additional_kwargs={"img": b"\x89PNG", "when": dt.date(2024, 1, 1)},
        ),
        ToolMessage("out", tool_call_id="c1", id="3", artifact={"rows": (1, 2)}),
    ]
    back = roundtrip(messages)
    assert back == messages
    assert [type(m) for m in back] == [HumanMessage, AIMessage, ToolMessage]
    assert back[1].additional_kwargs["img"] == b"\x89PNG"
    assert back[2].artifact == {"rows": (1, 2)}


def test_foldgraph_stored_forms_round_trip() -> None:
    log = messages_monoid().combine_all(
        messages_monoid().empty(),
        [[HumanMessage("a", id="a"), AIMessage("b", id="b")], [HumanMessage("c", id="c")]],
    )
    from langchain_core.messages import RemoveMessage

    with_gone = messages_monoid().combine_all(log, [[RemoveMessage(id="b")]])
    value = {
        "vec": vector([1, [2]]),
        "pv": pvector([1, 2]),
        "pm": pmap({"a": 1}),
        "ps": pset([1]),
        "fd": FrozenDict({"k": (1,)}),
        "im": immutables.Map({"a": 1}),
        "log": with_gone,
        "send": Send("node", {"x": 1}),
        "interrupt": Interrupt(value="ask", id="i1"),
        "command": Command(resume={"a": 1}, goto=["x"]),
    }
    back = roundtrip(value)
    assert back == value
    assert {k: type(v) for k, v in back.items()} == {k: type(v) for k, v in value.items()}
    assert list(back["log"].messages) == list(with_gone.messages)  # tombstones kept in place
    assert (back["log"].gone, back["log"].first_gone) == (with_gone.gone, with_gone.first_gone)
    assert dict(back["log"].index) == dict(with_gone.index)


plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text()
    | st.binary(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=4)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=20,
)


@given(plain)
def test_round_trip_is_the_identity_on_plain_data(value: Any) -> None:
    serde = JsonPlusSerializer()
    assert serde.loads_typed(serde.dumps_typed(value)) == value


def _typed(value: Any) -> Any:
    """`value` with every type spelled out, so that 1 vs 1.0 vs True, a tuple vs a list and
    NaN compare as different (and NaN as equal to itself)."""
    if isinstance(value, float) and value != value:
        return ("float", "nan")
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_typed(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, set | frozenset):
        return (type(value).__name__, sorted(map(repr, value)))
    return (type(value).__name__, repr(value))


atoms_and_traps = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63 - 2, max_value=2**70)
    | st.integers(max_value=-(2**63) + 1)
    | st.floats()  # NaN and infinities, which JSON cannot hold
    | st.text(alphabet='!ab"')
    | st.uuids()
    | st.binary(max_size=3)
    | st.binary(max_size=3).map(bytearray)  # msgpack would pack it as bytes
)
wide = st.recursive(
    atoms_and_traps,
    lambda inner: (
        st.lists(inner, min_size=4, max_size=6)  # long enough to be kept as native JSON
        | st.tuples(inner, inner, inner, inner)
        | st.dictionaries(st.sampled_from(["!", "a", "b", "c", "d", "e"]), inner, min_size=4)
    ),
    max_leaves=30,
)


@given(wide)
def test_round_trip_keeps_every_type_in_containers_kept_as_native_json(value: Any) -> None:
    # Lists and dicts of JSON natives are written by C encoders in one piece: anything
    # those would change (a tuple, a UUID, NaN, an int beyond 64 bits, a "!" key, a
    # bytearray) must come back exactly as it went in, in the packed form written now
    # and in the JSON form earlier releases wrote (and big ints still are written in).
    serde = JsonPlusSerializer()
    assert _typed(serde.loads_typed(serde.dumps_typed(value))) == _typed(value)
    as_json = ("fgjson", serde.codec.dumps(value))
    assert _typed(serde.loads_typed(as_json)) == _typed(value)


def test_values_are_written_packed_and_big_ints_as_json() -> None:
    serde = JsonPlusSerializer()
    value = {"rows": [["hi", True, 1, None, 2.5]] * 4, "t": (1, 2)}
    typ, data = serde.dumps_typed(value)
    assert typ == "fgpack" and data[:2] == b"\x92\x01"  # the frame: [1, tree]
    assert len(data) < len(serde.codec.dumps(value))
    assert serde.loads_typed((typ, data)) == value
    huge = {"n": [2**64, 1, 2, 3]}
    typ, data = serde.dumps_typed(huge)
    assert typ == "fgjson" and serde.loads_typed((typ, data)) == huge


@pytest.mark.parametrize("data", [b"\x00not packed", b"\x93\x01\x02\x03", b"\x92\x02\xc0"])
def test_bytes_that_are_not_a_packed_frame_are_refused(data: bytes) -> None:
    # msgpack reads a prefix: a stray byte would otherwise read as a value (0, here).
    with pytest.raises(SerializationError, match=r"Not a packed value \(a msgpack pair"):
        JsonPlusSerializer().loads_typed(("fgpack", data))


@pytest.mark.parametrize(
    "edge",
    [-(2**63) - 1, -(2**63), 2**63, 2**64 - 1, 2**64, -(10**19), 10**19],
)
def test_ints_at_the_64_bit_edges_come_back_as_ints(edge: int) -> None:
    # orjson reads an int below -2**63 (19 digits after the sign) as a float: such a
    # payload must go to the standard decoder.
    serde = JsonPlusSerializer()
    value = {"": [edge]}
    back = serde.loads_typed(serde.dumps_typed(value))
    assert back == value and type(back[""][0]) is int


def test_unknown_type_is_refused_with_its_name_and_the_fix() -> None:
    @dataclasses.dataclass
    class Secret:
        v: int

    writer = JsonPlusSerializer()
    data = writer.dumps_typed(Secret(1))
    assert writer.loads_typed(data) == Secret(1)  # the writer learned the type it stored
    with pytest.raises(UnregisteredTypeError) as info:
        JsonPlusSerializer().loads_typed(data)
    name = f"{Secret.__module__}.{Secret.__qualname__}"
    assert str(info.value).startswith(f"Refused to deserialize {name}: the type is not on")
    assert "saver.serde.register(YourType)" in str(info.value)
    reader = JsonPlusSerializer()
    reader.register(Secret)
    assert reader.loads_typed(data) == Secret(1)
    assert JsonPlusSerializer().with_msgpack_allowlist([Secret]).loads_typed(data) == Secret(1)


@pytest.mark.parametrize("form", ["fgjson", "fgpack"])
@pytest.mark.parametrize("tag", ["o", "p", "e", "n", "x"])
def test_crafted_payload_naming_a_callable_imports_and_calls_nothing(
    tag: str, form: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The msgpack-ext / pickle exploit shape: a row naming `module:callable` with arguments."""
    import sys

    marker = tmp_path / "ran"
    (tmp_path / "fg_probe_payload.py").write_text(
        "import pathlib\n"
        f"pathlib.Path({str(marker)!r}).write_text('imported')\n"
        "def boom(*a, **k):\n"
        f"    pathlib.Path({str(marker)!r}).write_text('called')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    tree = {
        "!": tag,
        "c": "fg_probe_payload:boom",
        "v": {"cmd": "x"},
        "a": ["x"],
        "r": "r",
        "s": [],
    }
    payload = json.dumps(tree).encode() if form == "fgjson" else ormsgpack.packb([1, tree])
    events: list[Any] = []
    unregister = register_serde_event_listener(events.append)
    result: Any = None
    try:
        if tag == "x":
            # An exception class that is not allowed reads back as its recorded repr.
            result = JsonPlusSerializer().loads_typed((form, payload))
        else:
            with pytest.raises(UnregisteredTypeError, match=r"fg_probe_payload\.boom"):
                JsonPlusSerializer().loads_typed((form, payload))
    finally:
        unregister()
    assert "fg_probe_payload" not in sys.modules
    assert not marker.exists()
    assert result == ("r" if tag == "x" else None)
    assert len(events) == (0 if tag == "x" else 1)


def test_pickle_is_never_read_unless_asked_for() -> None:
    import pickle

    data = ("pickle", pickle.dumps({"a": 1}))
    with pytest.raises(SerializationError, match="only read with pickle_fallback=True"):
        JsonPlusSerializer().loads_typed(data)
    assert JsonPlusSerializer(pickle_fallback=True).loads_typed(data) == {"a": 1}
    with pytest.raises(SerializationError, match="only read with pickle_fallback=True"):
        JsonPlusSerializer(allowed_msgpack_modules=True).loads_typed(data)


@dataclasses.dataclass
class _Unlisted:
    x: int


@pytest.mark.parametrize("option", ["allowed_msgpack_modules", "allowed_json_modules"])
def test_allowing_every_module_is_an_explicit_opt_in(option: str) -> None:
    stored = JsonPlusSerializer().dumps_typed({"v": _Unlisted(1)})
    with pytest.raises(UnregisteredTypeError, match=r"^Refused to deserialize .*_Unlisted"):
        JsonPlusSerializer().loads_typed(stored)
    opted_in = JsonPlusSerializer(**{option: True})
    assert opted_in.loads_typed(stored) == {"v": _Unlisted(1)}
    # A copy with more entries keeps the opt-in.
    assert opted_in.with_msgpack_allowlist([]).loads_typed(stored) == {"v": _Unlisted(1)}


def test_langgraph_json_rows_are_read() -> None:
    row = (
        b'{"lc": 2, "type": "constructor", "id": ["langgraph", "types", "Interrupt"], '
        b'"kwargs": {"value": {"q": [1, 2]}, "id": "abc"}}'
    )
    assert JsonPlusSerializer().loads_typed(("json", row)) == Interrupt({"q": [1, 2]}, "abc")
    unlisted = b'{"lc": 2, "type": "constructor", "id": ["fractions", "Fraction"], "args": [1, 3]}'
    with pytest.raises(UnregisteredTypeError, match=r"fractions\.Fraction"):
        JsonPlusSerializer().loads_typed(("json", unlisted))
    opted_in = JsonPlusSerializer(allowed_json_modules=True)
    assert opted_in.loads_typed(("json", unlisted)) == fractions.Fraction(1, 3)
    failing = b'{"lc": 2, "type": "constructor", "id": ["builtins", "ValueError"], "args": ["x"]}'
    assert JsonPlusSerializer(allowed_json_modules=True).loads_typed(("json", failing)) is None
    message = b'{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", '
    message += b'"HumanMessage"], "kwargs": {"content": "hi", "id": "m1"}}'
    assert JsonPlusSerializer().loads_typed(("json", message)) == HumanMessage("hi", id="m1")


def test_unserializable_value_names_the_path() -> None:
    state = {
        "messages": [
            HumanMessage("a", id="1"),
            AIMessage("b", id="2", additional_kwargs={"img": object()}),
        ]
    }
    with pytest.raises(SerializationError) as info:
        JsonPlusSerializer().codec.dumps(state["messages"], root="messages")
    assert info.value.path == "messages[1].additional_kwargs['img']"
    assert str(info.value) == (
        "Cannot serialize messages[1].additional_kwargs['img']: Object of type builtins.object "
        "is not serializable: store plain data, attrs classes, dataclasses, pydantic models, "
        "enums or langchain-core messages in checkpoints"
    )


def test_encrypted_serializer_wraps_and_still_reads_plain_rows() -> None:
    class Xor:
        def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
            return "xor", bytes(b ^ 7 for b in plaintext)

        def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
            assert ciphername == "xor"
            return bytes(b ^ 7 for b in ciphertext)

    serde = EncryptedSerializer(Xor())
    typ, data = serde.dumps_typed({"a": (1,)})
    assert typ == "fgpack+xor" and b"a" not in data
    assert serde.loads_typed((typ, data)) == {"a": (1,)}
    assert serde.loads_typed(JsonPlusSerializer().dumps_typed([1])) == [1]


def test_untyped_serializers_are_adapted() -> None:
    class Untyped:
        def dumps(self, obj: Any) -> bytes:
            return json.dumps(obj).encode()

        def loads(self, data: bytes) -> Any:
            return json.loads(data)

    adapted: SerializerProtocol = maybe_add_typed_methods(Untyped())
    assert adapted.loads_typed(adapted.dumps_typed([1, "a"])) == [1, "a"]
    serde = JsonPlusSerializer()
    assert maybe_add_typed_methods(serde) is serde


def test_a_message_encoded_again_reuses_its_tree_and_gives_the_same_bytes() -> None:
    serde = JsonPlusSerializer()
    message = AIMessage("hi", id="1", additional_kwargs={"n": (1, 2)})
    first = serde.dumps_typed([message])
    again = serde.dumps_typed([HumanMessage("x", id="2"), message])
    # The same encoding, taken from the memo (after the frame's and the list's headers).
    assert again[1].endswith(first[1][len(b"\x92\x01\x91") :])
    assert serde.loads_typed(again) == [HumanMessage("x", id="2"), message]


def test_a_serializer_keeps_no_message_it_encoded_alive() -> None:
    serde = JsonPlusSerializer()
    message = AIMessage("x" * 100_000, id="big")
    alive = weakref.ref(message)
    serde.dumps_typed([message])
    del message
    gc.collect()
    # A long-lived saver's serializer would otherwise hold up to 20 000 histories' messages.
    assert alive() is None
    assert serde.codec._messages == {}


def test_stored_messages_read_back_as_langchain_core_would_build_them() -> None:
    """Reading sets a stored message's fields back without re-validating it; the result
    is the message langchain-core's own `messages_from_dict` builds from the same data."""
    from langchain_core import messages as m
    from langchain_core.messages import message_to_dict, messages_from_dict

    messages = [
        m.HumanMessage("hi", id="1", name="ann"),
        m.AIMessage(
            "x",
            id="2",
            tool_calls=[{"name": "f", "args": {"a": 1}, "id": "c"}],
            usage_metadata={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3},
        ),
        m.AIMessage(  # tool calls only in the provider's raw form: parsed when made
            "",
            additional_kwargs={
                "tool_calls": [
                    {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}}
                ]
            },
        ),
        m.AIMessage(
            "bad", invalid_tool_calls=[{"name": "f", "args": "{", "id": "x", "error": "e"}]
        ),
        m.ToolMessage("r", tool_call_id="c", artifact={"k": 1}, status="error"),
        m.SystemMessage([{"type": "text", "text": "s"}]),
        m.ChatMessage("c", role="critic"),
        m.FunctionMessage("f", name="n"),
        m.RemoveMessage(id="1"),
        m.AIMessageChunk(
            "p", tool_call_chunks=[{"name": "f", "args": '{"a', "id": "c", "index": 0}]
        ),
        m.HumanMessageChunk("h"),
        m.ToolMessageChunk("t", tool_call_id="c"),
    ]
    serde = JsonPlusSerializer()
    for original in messages:
        typ, data = serde.dumps_typed(original)
        read = serde.loads_typed((typ, data))
        stored = ormsgpack.unpackb(data)[1]  # plain data here: no tagged value inside these
        validated = messages_from_dict([{"type": stored["t"], "data": stored["v"]}])[0]
        assert type(read) is type(validated) is type(original)
        assert read == validated == original
        assert read.__dict__ == validated.__dict__
        assert read.model_fields_set == validated.model_fields_set
        assert message_to_dict(read) == message_to_dict(original)
    back = roundtrip(messages)
    assert back[2].tool_calls == [{"name": "g", "args": {}, "id": "c2", "type": "tool_call"}]


def test_a_stored_message_missing_a_required_field_is_refused() -> None:
    serde = JsonPlusSerializer()
    typ, data = serde.dumps_typed(ToolMessage("r", tool_call_id="c"))
    broken = ormsgpack.unpackb(data)
    broken[1]["v"].pop("tool_call_id")  # as a damaged row would hold it
    with pytest.raises(Exception, match="tool_call_id"):
        serde.loads_typed((typ, ormsgpack.packb(broken)))
