"""`DeltaChannel` (a reducer over a step's batch of writes) and `push_message`, with the
values LangGraph 1.2 gives for the same programs."""

from __future__ import annotations

from typing import Annotated

import pytest
from langchain_core.messages import AIMessage
from typing_extensions import TypedDict

from foldgraph.channels import DeltaChannel
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import InvalidUpdateError
from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.graph.message import push_message
from foldgraph.types import Overwrite


def extend(state: list, writes: list) -> list:
    out = list(state)
    for w in writes:
        out.extend(w if isinstance(w, list) else [w])
    return out


def merge(state: dict, writes: list) -> dict:
    out = dict(state)
    for w in writes:
        out.update(w)
    return out


class S(TypedDict):
    items: Annotated[list, DeltaChannel(extend)]
    d: Annotated[dict, DeltaChannel(merge)]


def test_delta_channel_folds_a_step_at_once_and_honours_overwrite() -> None:
    b = StateGraph(S)
    b.add_node("a", lambda s: {"items": ["a"], "d": {"a": 1}})
    b.add_node("b", lambda s: {"items": ["b1", "b2"]})
    b.add_node("c", lambda s: {"items": Overwrite(["reset"])})
    b.add_node("r", lambda s: {"d": {"seen": len(s["items"])}})
    b.add_edge(START, "a")
    b.add_edge(START, "b")
    b.add_edge(["a", "b"], "c")
    b.add_edge("c", "r")
    graph = b.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"items": ["x"]}, config) == {"items": ["reset"], "d": {"a": 1, "seen": 1}}
    assert [s.values for s in graph.get_state_history(config)] == [
        {"items": ["reset"], "d": {"a": 1, "seen": 1}},
        {"items": ["reset"], "d": {"a": 1}},
        {"items": ["x", "a", "b1", "b2"], "d": {"a": 1}},
        {"items": ["x"], "d": {}},
        {"items": [], "d": {}},
    ]


def test_delta_channel_checks() -> None:
    with pytest.raises(ValueError) as info:
        DeltaChannel(extend, snapshot_frequency=0)
    assert str(info.value) == "snapshot_frequency must be a positive int, got 0"
    b = StateGraph(S)
    b.add_node("a", lambda s: {"items": Overwrite([1])})
    b.add_node("b", lambda s: {"items": Overwrite([2])})
    b.add_edge(START, "a")
    b.add_edge(START, "b")
    with pytest.raises(InvalidUpdateError) as error:
        b.compile().invoke({"items": []})
    assert str(error.value).splitlines()[0] == (
        "Can receive only one Overwrite value per super-step."
    )


def test_push_message_streams_now_and_writes_first() -> None:
    def node(state: MessagesState) -> dict:
        push_message(AIMessage("pushed", id="p1"))
        return {"messages": [AIMessage("returned", id="r1")]}

    def node2(state: MessagesState) -> None:
        push_message(AIMessage("only", id="o1"), state_key=None)

    b = StateGraph(MessagesState)
    b.add_node("n", node)
    b.add_node("n2", node2)
    b.add_edge(START, "n")
    b.add_edge("n", "n2")
    graph = b.compile()
    seen = []
    for mode, chunk in graph.stream(
        {"messages": [("user", "hi")]}, stream_mode=["messages", "updates"]
    ):
        if mode == "messages":
            seen.append((mode, chunk[0].content, chunk[0].id, chunk[1]["langgraph_node"]))
        else:
            seen.append((mode, chunk))
    assert seen[:2] == [("messages", "pushed", "p1", "n"), ("messages", "returned", "r1", "n")]
    assert seen[2] == (
        "updates",
        {
            "n": [
                {"messages": AIMessage("pushed", id="p1")},
                {"messages": [AIMessage("returned", id="r1")]},
            ]
        },
    )
    assert seen[3:] == [("messages", "only", "o1", "n2"), ("updates", {"n2": None})]
    result = graph.invoke({"messages": [("user", "hi")]})
    assert [m.content for m in result["messages"]] == ["hi", "pushed", "returned"]


def test_push_message_needs_a_node_and_an_id() -> None:
    with pytest.raises(RuntimeError) as outside:
        push_message(AIMessage("x"))
    assert str(outside.value) == "Called get_config outside of a runnable context"

    def bad(state: MessagesState) -> None:
        push_message(AIMessage("noid"))

    b = StateGraph(MessagesState)
    b.add_node("n", bad)
    b.add_edge(START, "n")
    with pytest.raises(ValueError) as info:
        b.compile().invoke({"messages": []})
    assert str(info.value) == "Message ID is required"


def test_two_delta_channels_that_differ_only_in_their_reducer_stay_apart() -> None:
    # `Annotated[...]` is cached by equality of its metadata: a second graph built the
    # same way with another reducer must still fold with its own (as LangGraph).
    def build(reducer: object) -> object:
        State = TypedDict("State", {"items": Annotated[list, DeltaChannel(reducer)]})  # noqa: UP013
        b = StateGraph(State)
        b.add_node("a", lambda s: {"items": ["a"]})
        b.add_edge(START, "a")
        return b.compile()

    def newest_first(state: list, writes: list) -> list:
        return [*reversed(extend([], writes)), *state]

    assert build(extend).invoke({"items": ["x"]}) == {"items": ["x", "a"]}
    assert build(newest_first).invoke({"items": ["x"]}) == {"items": ["a", "x"]}
    assert DeltaChannel(extend) == DeltaChannel(extend)
    assert DeltaChannel(extend) != DeltaChannel(newest_first)


@pytest.mark.foldgraph_only(
    "LangGraph 1.2.22 compares reducers through their attributes: a callable object "
    "without them fails there (AttributeError in channels/binop.py)"
)
def test_a_delta_channel_is_compared_without_asking_its_reducer() -> None:
    # A reducer object that refuses to be compared or hashed (as some callables do)
    # still builds a schema: the channel is compared by which reducer it holds.
    class Strict:
        def __call__(self, state: list, writes: list) -> list:
            return extend(state, writes)

        def __eq__(self, other: object) -> bool:
            raise RuntimeError("not comparable")

        def __hash__(self) -> int:
            raise RuntimeError("not hashable")

    strict = Strict()
    State = TypedDict("State", {"items": Annotated[list, DeltaChannel(strict)]})  # noqa: UP013
    b = StateGraph(State)
    b.add_node("a", lambda s: {"items": ["a"]})
    b.add_edge(START, "a")
    assert b.compile().invoke({"items": ["x"]}) == {"items": ["x", "a"]}
    assert DeltaChannel(strict) == DeltaChannel(strict)
    assert DeltaChannel(strict) != DeltaChannel(extend)
