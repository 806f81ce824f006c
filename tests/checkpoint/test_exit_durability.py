"""durability="exit": a run that fails mid-step still saves where it stopped (as LangGraph)."""

from __future__ import annotations

import operator
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph


class S(TypedDict):
    log: Annotated[list, operator.add]


def test_exit_durability_keeps_the_finished_sibling_after_a_failure() -> None:
    calls = {"ok": 0, "flaky": 0}
    broken = {"on": True}

    def ok(state: S) -> dict:
        calls["ok"] += 1
        return {"log": ["ok"]}

    def flaky(state: S) -> dict:
        calls["flaky"] += 1
        if broken["on"]:
            raise ValueError("down")
        return {"log": ["flaky"]}

    builder = StateGraph(S)
    builder.add_node("ok", ok)
    builder.add_node("flaky", flaky)
    builder.add_edge(START, "ok")
    builder.add_edge(START, "flaky")
    app = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    with pytest.raises(ValueError, match="down"):
        app.invoke({"log": []}, config, durability="exit")
    state = app.get_state(config)
    assert state.next == ("flaky",)
    assert state.values == {"log": ["ok"]}
    broken["on"] = False
    assert app.invoke(None, config, durability="exit") == {"log": ["flaky", "ok"]}
    assert calls == {"ok": 1, "flaky": 2}


class AB(TypedDict, total=False):
    a: str
    b: str


def test_the_one_checkpoint_of_an_exit_run_lists_every_channel_changed_in_the_run() -> None:
    # A saver that stores only `new_versions` (as LangGraph's savers do) must be told
    # of the channels the earlier steps changed too, or it loses their values.
    puts: list[tuple[int, list[str]]] = []

    from foldgraph.checkpoint.memory import InMemorySaver as Memory  # not swapped

    class Recording(Memory):
        def put(self, config, checkpoint, metadata, new_versions):  # type: ignore[no-untyped-def]
            puts.append((metadata["step"], sorted(new_versions)))
            return super().put(config, checkpoint, metadata, new_versions)

    app = (
        StateGraph(AB)
        .add_node("x", lambda s: {"a": "x"})
        .add_node("y", lambda s: {"b": "y"})
        .add_edge(START, "x")
        .add_edge("x", "y")
        .compile(checkpointer=Recording())
    )
    config = {"configurable": {"thread_id": "1"}}
    app.invoke({"a": "in"}, config, durability="exit")
    app.invoke({"a": "in2"}, config, durability="exit")
    every = ["__start__", "a", "b", "branch:to:x", "branch:to:y"]
    assert puts == [(2, every), (6, every)]
    assert app.get_state(config).values == {"a": "x", "b": "y"}


def test_an_exit_run_that_stops_where_it_loaded_keeps_that_checkpoint_readable() -> None:
    # (Run with each saver: the SQL ones lost the checkpoint's values when it was put again.)
    from foldgraph.types import Command, interrupt

    def ask(state: S) -> dict:
        return {"log": [interrupt("one") + interrupt("two")]}

    saver = InMemorySaver()
    app = StateGraph(S).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "1"}}
    app.invoke({"log": ["in"]}, config, durability="exit")
    app.invoke(Command(resume="a", update={"log": ["u"]}), config, durability="exit")
    state = app.get_state(config)
    assert (state.values, state.next) == ({"log": ["in", "u"]}, ("ask",))
    assert app.invoke(Command(resume="b"), config, durability="exit") == {"log": ["in", "u", "ab"]}
    assert [(s.metadata["step"], s.values) for s in app.get_state_history(config)] == [
        (1, {"log": ["in", "u", "ab"]}),
        (0, {"log": ["in", "u"]}),
    ]


def test_an_exit_run_answering_one_of_three_interrupts_saves_each_answer_once() -> None:
    from foldgraph.types import Command, interrupt

    builder = StateGraph(S)
    for name in "abc":
        builder.add_node(name, lambda s, n=name: {"log": [f"{n}:{interrupt(n.upper())}"]})
        builder.add_edge(START, name)
    app = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    out = app.invoke({"log": []}, config, durability="exit")
    while pending := out.get("__interrupt__"):
        out = app.invoke(Command(resume={pending[0].id: "yes"}), config, durability="exit")
    assert out == {"log": ["a:yes", "b:yes", "c:yes"]}
