"""What sealing costs: fingerprints are taken only for checkpoints a saver keeps."""

import operator
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from typing_extensions import TypedDict

from foldgraph._kernel.seal import fingerprint, run_fingerprint
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Send

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's checkpoint seals (fingerprints); LangGraph has none"
)


class Counted:
    """An object that counts how often it is pickled (a fingerprint pickles it)."""

    pickled = 0

    def __init__(self) -> None:
        self.label = "fresh"

    def __reduce__(self) -> Any:
        Counted.pickled += 1
        return (Counted, (), self.__dict__)


class State(TypedDict):
    thing: Any


def _graph(checkpointer: Any = None) -> Any:
    builder = StateGraph(State)
    builder.add_node("keep", lambda state: {"thing": state["thing"]})
    builder.add_edge(START, "keep")
    return builder.compile(checkpointer=checkpointer)


def test_a_run_without_a_saver_takes_no_fingerprint() -> None:
    Counted.pickled = 0
    out = _graph().invoke({"thing": Counted()})
    assert type(out["thing"]) is Counted
    assert Counted.pickled == 0


def test_a_run_with_a_saver_seals_what_it_keeps() -> None:
    Counted.pickled = 0
    app = _graph(InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    app.invoke({"thing": Counted()}, config)
    assert Counted.pickled > 0
    assert app.verify_replay(config).ok


class Items(TypedDict):
    items: Annotated[list, operator.add]


def _send_loop(rounds: int) -> Any:
    """Each round appends one object, then a Send carries the whole list to a worker."""

    def grow(state: Items) -> dict:
        return {"items": [Counted()]}

    def route(state: Items) -> Any:
        if len(state["items"]) >= rounds:
            return END
        return [Send("work", {"items": state["items"]})]

    builder = StateGraph(Items)
    builder.add_node("grow", grow)
    builder.add_node("work", lambda arg: {})
    builder.add_edge(START, "grow")
    builder.add_conditional_edges("grow", route, ["work", END])
    builder.add_edge("work", "grow")
    return builder.compile(checkpointer=InMemorySaver())


def test_a_send_carrying_the_history_reuses_the_seals_of_its_objects() -> None:
    Counted.pickled = 0
    app = _send_loop(6)
    config = {"configurable": {"thread_id": "t"}}
    out = app.invoke({"items": []}, config)
    assert len(out["items"]) == 6
    # Six objects, each in up to five Send payloads: each is pickled once, when appended.
    assert Counted.pickled == 6
    assert app.verify_replay(config).ok


def test_an_object_changed_after_it_rode_in_a_send_is_still_named() -> None:
    app = _send_loop(3)
    config = {"configurable": {"thread_id": "t"}}
    out = app.invoke({"items": []}, config)
    out["items"][0].label = "changed"  # the caller's copy of the list shares the objects
    report = app.verify_replay(config)
    # Named at the first checkpoint holding it: in the list, and in the Send carrying it.
    assert (report.divergence.field, report.divergence.keys) == (
        "seals",
        ("__pregel_tasks", "items"),
    )
    assert report.divergence.step == 1


def test_a_run_fingerprint_equals_a_fresh_one() -> None:
    messages = [HumanMessage("hi", id="1"), AIMessage("yo", id="2")]
    send = Send("tools", {"state": {"messages": messages}, "tool_call": {"id": "c"}})
    run_fp = run_fingerprint()
    assert [run_fp(m) for m in messages] == [fingerprint(m) for m in messages]
    assert run_fp(send) == fingerprint(send) != 0
    messages[0].content = "changed"
    assert fingerprint(send) != run_fp(send)  # the run remembers what it sealed


def test_a_value_the_run_sealed_is_pickled_inline_where_it_is_nested() -> None:
    # The run remembers the fingerprint of each value it sealed, lists and dicts too; a
    # container nested in a later value is still pickled inline (only objects are
    # replaced by their fingerprint), so the fingerprint is the fresh one.
    rows = [{"k": i, "m": HumanMessage(str(i), id=str(i))} for i in range(20)]
    run_fp = run_fingerprint()
    run_fp(rows)
    run_fp(rows[0])
    holder = {"rows": rows, "first": rows[0]}
    assert run_fp(holder) == fingerprint(holder) != 0
    send = Send("tools", {"state": {"messages": [r["m"] for r in rows]}})
    assert run_fp(send) == fingerprint(send)
