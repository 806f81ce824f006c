"""Stored history cannot be rewritten by user code, in every durability mode.

Top-level lists, dicts, sets and bytearrays are copied on every read, so changing
them changes no checkpoint. Objects below the top level (a message, a nested
model, a set or bytearray inside a dict) are shared, as in LangGraph; changing one
in place is caught by `verify_replay`, which names the checkpoint and channel.

With a durable saver a checkpoint is bytes once written, so a later change
cannot reach it; what a background write (durability "async") or the final
write ("exit") serialises after a node changed something in place is named by
`verify_replay` the same way (the seals are saved with the checkpoint). Each
test therefore accepts either outcome the guarantee allows: history as it was
written, or the changed checkpoint named.

LangGraph keeps history unchanged only with `durability="sync"` and has no
`verify_replay`, so these tests pin foldgraph's guarantee. They run on every
saver (see conftest).
"""

import operator
from typing import Annotated

import pydantic
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.graph.message import add_messages

pytestmark = [
    pytest.mark.parametrize("durability", ["sync", "async", "exit"]),
    pytest.mark.foldgraph_only(
        "history safe from in-place changes, and verify_replay; LangGraph has neither"
    ),
]


def _cfg(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


def _run(state, first, second, inputs, durability):
    builder = StateGraph(state)
    builder.add_node("first", first)
    builder.add_node("second", second)
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    app = builder.compile(checkpointer=InMemorySaver())
    out = app.invoke(inputs, _cfg(), durability=durability)
    return app, out


def _history(app) -> list[dict]:
    return [s.values for s in app.get_state_history(_cfg())]


def _unchanged_or_named(app, channel: str, as_written) -> None:
    """History holds what was written, or `verify_replay` names the channel that moved."""
    report = app.verify_replay(_cfg())
    if report.ok:
        assert as_written(app.get_state(_cfg()).values[channel])
    else:
        assert (report.divergence.field, report.divergence.keys) == ("seals", (channel,))


class Chat(TypedDict):
    messages: Annotated[list, add_messages]
    tags: set
    blob: bytearray
    meta: dict


def _write_all(state):
    return {
        "messages": [AIMessage("answer", id="a1")],
        "tags": {"t1"},
        "blob": bytearray(b"ab"),
        "meta": {"seen": {"s1"}, "raw": bytearray(b"xy"), "items": [1]},
    }


CHAT_INPUT = {"messages": [HumanMessage("hi", id="h1")]}


def _written_values() -> dict:
    return {
        "messages": [HumanMessage("hi", id="h1"), AIMessage("answer", id="a1")],
        "tags": {"t1"},
        "blob": bytearray(b"ab"),
        "meta": {"seen": {"s1"}, "raw": bytearray(b"xy"), "items": [1]},
    }


def test_changing_top_level_values_read_by_a_node_changes_no_checkpoint(durability, saver_kind):
    def mutate(state):
        state["tags"].add("t2")
        state["blob"].extend(b"cd")
        state["messages"].append(AIMessage("sneaky", id="x"))
        state["meta"]["new"] = 1
        return None

    app, out = _run(Chat, _write_all, mutate, CHAT_INPUT, durability)
    assert out == _written_values()
    assert _history(app)[0] == _written_values()
    assert app.verify_replay(_cfg()).ok


def test_a_message_changed_in_place_by_a_later_node_is_named(durability, saver_kind):
    def rewrite(state):
        state["messages"][-1].content = "rewritten"
        return None

    app, _ = _run(Chat, _write_all, rewrite, CHAT_INPUT, durability)
    report = app.verify_replay(_cfg())
    if saver_kind != "memory" and report.ok:  # serialised before the change: unchanged
        assert app.get_state(_cfg()).values["messages"][-1].content == "answer"
        return
    assert not report.ok
    assert report.divergence.field == "seals"
    assert report.divergence.keys == ("messages",)
    ids = {
        s.metadata["step"]: s.config["configurable"]["checkpoint_id"]
        for s in app.get_state_history(_cfg())
    }
    # The first checkpoint holding the message: after `first` (with "exit", the only one).
    step = 2 if durability == "exit" else 1
    assert (report.divergence.step, report.divergence.checkpoint_id) == (step, ids[step])


@pytest.mark.parametrize(
    ("where", "mutate"),
    [
        ("a set in a dict", lambda state: state["meta"]["seen"].add("s2")),
        ("a bytearray in a dict", lambda state: state["meta"]["raw"].extend(b"z")),
        ("a list in a dict", lambda state: state["meta"]["items"].append(2)),
    ],
)
def test_a_nested_container_changed_in_place_is_named(durability, saver_kind, where, mutate):
    def second(state):
        mutate(state)
        return None

    app, _ = _run(Chat, _write_all, second, CHAT_INPUT, durability)
    written = _written_values()["meta"]
    _unchanged_or_named(app, "meta", lambda meta: meta == written)
    if saver_kind == "memory":  # the checkpoint holds the very object that changed
        assert not app.verify_replay(_cfg()).ok, where


class Profile(pydantic.BaseModel):
    tags: list[str] = []


class Person(pydantic.BaseModel):
    name: str = ""
    profile: Profile = Profile()


def test_a_nested_model_changed_in_place_is_named(durability, saver_kind):
    def first(state: Person):
        return {"profile": Profile(tags=["a"])}

    def second(state: Person):
        state.profile.tags.append("b")
        return None

    app, _ = _run(Person, first, second, {"name": "n"}, durability)
    _unchanged_or_named(app, "profile", lambda profile: profile == Profile(tags=["a"]))
    if saver_kind == "memory":
        assert not app.verify_replay(_cfg()).ok


def test_the_caller_changing_its_input_or_the_output_afterwards_is_named(durability, saver_kind):
    inputs = {"messages": [HumanMessage("hi", id="h1")]}

    def noop(state):
        return None

    app, out = _run(Chat, _write_all, noop, inputs, durability)
    assert app.verify_replay(_cfg()).ok
    out["messages"].append(AIMessage("mine"))  # the caller's own list: nothing stored moves
    out["tags"].add("mine")
    assert app.verify_replay(_cfg()).ok
    assert _history(app)[0] == _written_values()
    out["messages"][1].content = "edited"  # a stored message, changed in place
    _unchanged_or_named(app, "messages", lambda messages: messages[1].content == "answer")
    if saver_kind == "memory":
        assert not app.verify_replay(_cfg()).ok


def test_ids_given_to_the_callers_messages_change_nothing_stored(durability, saver_kind):
    message = HumanMessage("no id yet")

    def noop(state):
        return None

    app, out = _run(Chat, _write_all, noop, {"messages": [message]}, durability)
    assert message.id is not None
    assert out["messages"][0] is message
    assert app.verify_replay(_cfg()).ok


class Items(TypedDict):
    items: Annotated[list, operator.add]


def test_an_item_written_twice_and_changed_in_between_is_named_at_its_first_checkpoint(
    durability, saver_kind
):
    # Each object's fingerprint is taken once per run (the same dict appended again costs
    # a lookup): a change in between is still named, at the first checkpoint holding it.
    def first(state):
        return {"items": [{"k": [1]}]}

    def second(state):
        item = state["items"][0]  # below the top level: the stored dict itself
        item["k"].append(2)
        return {"items": [item]}

    app, out = _run(Items, first, second, {"items": []}, durability)
    assert out == {"items": [{"k": [1, 2]}, {"k": [1, 2]}]}
    report = app.verify_replay(_cfg())
    if saver_kind != "memory" and report.ok:
        return  # serialised before the change
    assert not report.ok
    ids = {
        s.metadata["step"]: s.config["configurable"]["checkpoint_id"]
        for s in app.get_state_history(_cfg())
    }
    step = 2 if durability == "exit" else 1
    if saver_kind == "memory":
        assert (report.divergence.field, report.divergence.keys) == ("seals", ("items",))
        assert (report.divergence.step, report.divergence.checkpoint_id) == (step, ids[step])
