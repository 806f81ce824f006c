"""Every saver has a `serde`, and the in-memory saver honours one that is given.

LangGraph 1.2.22's values for the same calls: `InMemorySaver().serde` is a
`JsonPlusSerializer`; a serializer given as `serde=` is what the saver stores
through (a faulty one fails the run with its own error); a subclass's
`put`/`put_writes`/`get_tuple` are called by the runner; and checkpoints read
through the public API have the keys `v, ts, id, channel_versions,
versions_seen, updated_channels, channel_values` and no others.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.checkpoint.serde.encrypted import EncryptedSerializer
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.graph import START, MessagesState, StateGraph

LANGGRAPH_KEYS = {
    "v",
    "ts",
    "id",
    "channel_versions",
    "versions_seen",
    "updated_channels",
    "channel_values",
}


class Log(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _log_graph(saver: Any) -> Any:
    def one(state: Log) -> dict[str, Any]:
        return {"log": ["one"], "n": state["n"] + 1}

    def two(state: Log) -> dict[str, Any]:
        return {"log": ["two"], "n": state["n"] + 1}

    builder = StateGraph(Log)
    builder.add_node("one", one)
    builder.add_node("two", two)
    builder.add_edge(START, "one")
    builder.add_edge("one", "two")
    return builder.compile(checkpointer=saver)


def _cfg(thread: str = "t") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


@pytest.mark.foldgraph_only("LangGraph's serializer reads a stored tuple back as a list")
def test_the_in_memory_saver_has_langgraphs_default_serializer() -> None:
    saver = InMemorySaver()
    assert type(saver.serde) is JsonPlusSerializer
    assert saver.serde is saver.serde
    value = {"messages": [HumanMessage("hi", id="h")], "t": (1, 2)}
    assert saver.serde.loads_typed(saver.serde.dumps_typed(value)) == value


class _CopyCheckingSaver(InMemorySaver):
    """Keeps a serialized copy of each checkpoint it stores and checks, before the next put,
    that the stored checkpoint still equals its copy (the shape of LangGraph's own test
    helper, written here for foldgraph)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.copies: dict[str, tuple[str, bytes]] = {}
        self.puts = 0

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        self.puts += 1
        saved = super().get(config)
        if saved is not None:
            assert self.serde.loads_typed(self.copies[saved["id"]]) == saved
        address = super().put(config, checkpoint, metadata, new_versions)
        self.copies[checkpoint["id"]] = self.serde.dumps_typed(super().get(address))
        return address


@pytest.mark.foldgraph_only("ends with verify_replay, which LangGraph does not have")
@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_a_subclass_put_is_called_and_may_use_self_serde(durability: str) -> None:
    saver = _CopyCheckingSaver()
    graph = _log_graph(saver)
    assert graph.invoke({"log": [], "n": 0}, _cfg(), durability=durability) == {
        "log": ["one", "two"],
        "n": 2,
    }
    assert saver.puts == (1 if durability == "exit" else 4)
    assert graph.invoke({"log": ["again"], "n": 0}, _cfg(), durability=durability)["log"] == [
        "one",
        "two",
        "again",
        "one",
        "two",
    ]
    assert graph.verify_replay(_cfg()).ok


def test_a_subclass_get_tuple_and_put_writes_are_called() -> None:
    calls: list[str] = []

    class Counting(InMemorySaver):
        def get_tuple(self, config: Any) -> Any:
            calls.append("get_tuple")
            return super().get_tuple(config)

        def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
            calls.append("put_writes")
            super().put_writes(config, writes, task_id, task_path)

    saver = Counting()
    graph = _log_graph(saver)
    graph.invoke({"log": [], "n": 0}, _cfg())
    assert calls.count("get_tuple") >= 1
    assert calls.count("put_writes") == 3  # the input, one, two
    assert graph.get_state(_cfg()).values == {"log": ["one", "two"], "n": 2}


def test_a_faulty_serializer_fails_the_run_with_its_own_error() -> None:
    class Faulty(JsonPlusSerializer):
        def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
            raise ValueError("Faulty serializer")

    graph = _log_graph(InMemorySaver(serde=Faulty()))
    with pytest.raises(ValueError, match="Faulty serializer"):
        graph.invoke({"log": [], "n": 0}, _cfg())


class _XorCipher:
    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
        return "xor", bytes(b ^ 0x5A for b in plaintext)

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
        assert ciphername == "xor"
        return bytes(b ^ 0x5A for b in ciphertext)


@pytest.mark.foldgraph_only("reads foldgraph's stored rows; LangGraph's keep other forms")
def test_an_encrypted_serializer_is_what_the_saver_stores_through() -> None:
    saver = InMemorySaver(serde=EncryptedSerializer(_XorCipher()))
    builder = StateGraph(MessagesState)
    builder.add_node("reply", lambda s: {"messages": [AIMessage("secret reply", id="a")]})
    builder.add_edge(START, "reply")
    graph = builder.compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("secret question", id="h")]}, _cfg())

    stored = [v for spaces in saver.storage["t"].values() for v in spaces.values()]
    assert stored
    for entry in stored:
        for encoded in entry.stored()["channel_values"].values.values():
            assert encoded.typ.endswith("+xor")
            assert b"secret" not in encoded.data
    state = graph.get_state(_cfg())
    assert [m.content for m in state.values["messages"]] == ["secret question", "secret reply"]
    history = [s.values.get("messages", []) for s in graph.get_state_history(_cfg())]
    assert [len(h) for h in history] == [2, 1, 0]
    assert graph.verify_replay(_cfg()).ok
    # Resuming the thread reads the encrypted checkpoint back.
    graph.invoke({"messages": [HumanMessage("more", id="h2")]}, _cfg())
    # add_messages replaces the reply with the same id where it was.
    assert [m.id for m in graph.get_state(_cfg()).values["messages"]] == ["h", "a", "h2"]


@pytest.mark.foldgraph_only("foldgraph's SerializationError naming thread and channel")
def test_a_value_the_given_serializer_refuses_names_the_checkpoint_and_channel() -> None:
    from foldgraph.errors import SerializationError

    class Opaque:
        pass

    saver = InMemorySaver(serde=JsonPlusSerializer())

    class State(TypedDict):
        thing: Any

    builder = StateGraph(State)
    builder.add_node("keep", lambda s: {"thing": {"inner": [Opaque()]}})
    builder.add_edge(START, "keep")
    graph = builder.compile(checkpointer=saver)
    with pytest.raises(SerializationError) as failed:
        graph.invoke({"thing": None}, _cfg())
    assert "of thread 't', channel 'thing'" in str(failed.value)
    assert failed.value.path.startswith("thing")


@pytest.mark.foldgraph_only("reads foldgraph's stored forms and opens SqliteSaver from a path")
@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_public_reads_have_langgraphs_checkpoint_keys_only(kind: str, tmp_path: Any) -> None:
    if kind == "memory":
        saver: Any = InMemorySaver()
    else:
        from foldgraph.checkpoint.sqlite import SqliteSaver

        saver = SqliteSaver(str(tmp_path / "t.db"))
    graph = _log_graph(saver)
    graph.invoke({"log": [], "n": 0}, _cfg())
    assert set(saver.get_tuple(_cfg()).checkpoint) == LANGGRAPH_KEYS
    assert set(saver.get(_cfg())) == LANGGRAPH_KEYS
    listed = list(saver.list(_cfg()))
    assert len(listed) == 4
    assert all(set(t.checkpoint) == LANGGRAPH_KEYS for t in listed)
    # The fingerprints are still kept where foldgraph's own reads find them.
    assert "channel_seals" in saver._stored_tuple(_cfg()).checkpoint
    assert graph.verify_replay(_cfg()).ok


class Reply(TypedDict):
    text: str
    counts: dict
    items: list


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_subclasses_of_str_int_dict_and_list_are_stored_as_their_base(
    kind: str, tmp_path: Any
) -> None:
    """A message's `.text` (a `str` subclass), a `defaultdict`, a `Counter`: LangGraph
    stores them as `str`, `dict` and `list` and reads those back."""
    from collections import Counter, defaultdict

    class Tags(list):
        pass

    def answer(state: Reply) -> dict:
        by_letter: defaultdict[str, list] = defaultdict(list)
        by_letter["h"].append(AIMessage("hi").text)
        return {
            "text": AIMessage("hello there").text,
            "counts": {"letters": Counter("aab"), "by_letter": by_letter},
            "items": Tags([AIMessage("x").text]),
        }

    if kind == "memory":
        saver: Any = InMemorySaver()
    else:
        import sqlite3

        from foldgraph.checkpoint.sqlite import SqliteSaver

        # Opened from a connection, as LangGraph's SqliteSaver takes it (not from a path).
        saver = SqliteSaver(sqlite3.connect(str(tmp_path / "t.db"), check_same_thread=False))
    builder = StateGraph(Reply)
    builder.add_node("answer", answer)
    builder.add_edge(START, "answer")
    graph = builder.compile(checkpointer=saver)
    out = graph.invoke({"text": "", "counts": {}, "items": []}, _cfg())
    assert out == {
        "text": "hello there",
        "counts": {"letters": {"a": 2, "b": 1}, "by_letter": {"h": ["hi"]}},
        "items": ["x"],
    }
    saved = graph.get_state(_cfg()).values
    assert saved == out
    if kind == "sqlite":  # read back from its rows (the in-memory saver keeps the objects)
        assert type(saved["text"]) is str
        assert type(saved["counts"]["letters"]) is dict
        assert type(saved["counts"]["by_letter"]) is dict
        assert type(saved["items"]) is list and type(saved["items"][0]) is str
    # The serializer on its own: the same values come back as their base types.
    serde = saver.serde
    back = serde.loads_typed(serde.dumps_typed({"t": AIMessage("a").text, "n": Tags([1])}))
    assert back == {"t": "a", "n": [1]}
    assert (type(back["t"]), type(back["n"])) == (str, list)
