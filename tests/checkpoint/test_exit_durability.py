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


def _two_steps() -> object:
    builder = StateGraph(S)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile(checkpointer=InMemorySaver())


def _parents(app: object, config: dict, source: object) -> list[tuple[int, str | None]]:
    """(step, parent checkpoint id) of each `checkpoints` chunk of a run under "exit"."""
    out = []
    for chunk in app.stream(source, config, stream_mode="checkpoints", durability="exit"):
        parent = chunk["parent_config"]
        out.append((chunk["metadata"]["step"], parent and parent["configurable"]["checkpoint_id"]))
    return out


def test_exit_chunks_of_a_new_thread_have_no_parent() -> None:
    """Only the last checkpoint is saved, with no parent: LangGraph's chunks all say so,
    and the last agrees with the history."""
    app = _two_steps()
    config = {"configurable": {"thread_id": "new"}}
    assert _parents(app, config, {"log": []}) == [(-1, None), (0, None), (1, None), (2, None)]
    (only,) = list(app.get_state_history(config))
    assert only.parent_config is None
    debug = [
        e["payload"]["parent_config"]
        for e in app.stream(
            {"log": []},
            {"configurable": {"thread_id": "d"}},
            stream_mode="debug",
            durability="exit",
        )
        if e["type"] == "checkpoint"
    ]
    assert debug == [None, None, None, None]


def test_exit_chunks_of_a_continued_thread_name_the_parent_of_where_it_started() -> None:
    """As LangGraph: each chunk names the parent of the checkpoint the run started from
    (None after a first run on the thread), though the saved last checkpoint's parent is
    that checkpoint itself."""
    app = _two_steps()
    config = {"configurable": {"thread_id": "again"}}
    app.invoke({"log": []}, config, durability="exit")
    first = app.get_state(config).config
    assert _parents(app, config, {"log": []}) == [(3, None), (4, None), (5, None), (6, None)]
    latest = app.get_state(config)
    assert (
        latest.parent_config["configurable"]["checkpoint_id"]
        == (first["configurable"]["checkpoint_id"])
    )
    # From the latest checkpoint, named: its parent is the first run's checkpoint.
    named = _parents(app, latest.config, {"log": []})
    assert named == [(s, first["configurable"]["checkpoint_id"]) for s in (7, 8, 9, 10)]


def _with_child(saver: InMemorySaver, *, ask: bool = False, own_state: bool = False) -> object:
    from foldgraph.types import interrupt

    def second(state: S) -> dict:
        return {"log": [f"c_two {interrupt('q')}" if ask else "c_two"]}

    child = StateGraph(S)
    child.add_node("c_one", lambda s: {"log": ["c_one"]})
    child.add_node("c_two", second)
    child.add_edge(START, "c_one")
    child.add_edge("c_one", "c_two")
    parent = StateGraph(S)
    parent.add_node("p_one", lambda s: {"log": ["p_one"]})
    parent.add_node("p_two", child.compile(checkpointer=True if own_state else None))
    parent.add_edge(START, "p_one")
    parent.add_edge("p_one", "p_two")
    return parent.compile(checkpointer=saver)


def _saved(saver: InMemorySaver, config: dict) -> list[tuple[str, int]]:
    return sorted(
        (t.config["configurable"]["checkpoint_ns"].split(":")[0], t.metadata["step"])
        for t in saver.list(config)
    )


def test_exit_saves_no_checkpoint_of_a_subgraph_that_ends() -> None:
    saver = InMemorySaver()
    app = _with_child(saver)
    config = {"configurable": {"thread_id": "ends"}}
    assert app.invoke({"log": []}, config, durability="exit") == {
        "log": ["p_one", "p_one", "c_one", "c_two"]
    }
    assert _saved(saver, config) == [("", 2)]


def test_exit_saves_a_subgraph_that_stops_and_resumes_from_it() -> None:
    from foldgraph.types import Command

    saver = InMemorySaver()
    app = _with_child(saver, ask=True)
    config = {"configurable": {"thread_id": "stops"}}
    first = app.invoke({"log": []}, config, durability="exit")
    assert first["log"] == ["p_one"] and [i.value for i in first["__interrupt__"]] == ["q"]
    assert _saved(saver, config) == [("", 1), ("p_two", 1)]
    inner = app.get_state(config, subgraphs=True).tasks[0].state
    assert inner.values == {"log": ["p_one", "c_one"]}
    assert app.invoke(Command(resume="yes"), config, durability="exit") == {
        "log": ["p_one", "p_one", "c_one", "c_two yes"]
    }
    assert _saved(saver, config) == [("", 1), ("", 2), ("p_two", 1)]


def test_exit_saves_a_subgraph_that_keeps_its_own_state() -> None:
    saver = InMemorySaver()
    app = _with_child(saver, own_state=True)
    config = {"configurable": {"thread_id": "own"}}
    app.invoke({"log": []}, config, durability="exit")
    assert _saved(saver, config) == [("", 2), ("p_two", 2)]
