"""Subgraphs with a checkpointer: namespaces, child state, interrupts, Command.PARENT.

Every expected value below was produced by running the same program on
LangGraph 1.2.22. Task ids and checkpoint ids differ between the two, so
namespaces are checked by shape ("<node>:<task id>") and by relations
(the task id in a namespace is the parent task's id).
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, Interrupt, StateSnapshot, interrupt


class State(TypedDict):
    log: Annotated[list, operator.add]


class Other(TypedDict):
    text: str
    hits: Annotated[list, operator.add]


def _cfg(thread: str = "1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _count(calls: dict[str, int], name: str) -> None:
    calls[name] = calls.get(name, 0) + 1


def _logger(name: str, calls: dict[str, int]) -> Any:
    def node(state: Any) -> dict[str, Any]:
        _count(calls, name)
        return {"log": [name]}

    return node


def _rows(history: Any) -> list[tuple[Any, ...]]:
    return [(s.metadata["source"], s.metadata["step"], s.values, s.next) for s in history]


def _parent(calls: dict[str, int], sub: Any) -> Any:
    """START -> a -> sub -> z -> END, with a checkpointer."""
    builder = StateGraph(State)
    builder.add_node("a", _logger("a", calls))
    builder.add_node("sub", sub)
    builder.add_node("z", _logger("z", calls))
    builder.add_edge(START, "a")
    builder.add_edge("a", "sub")
    builder.add_edge("sub", "z")
    builder.add_edge("z", END)
    return builder.compile(checkpointer=InMemorySaver())


def _plain_sub(calls: dict[str, int]) -> Any:
    builder = StateGraph(State)
    builder.add_node("s1", _logger("s1", calls))
    builder.add_node("s2", _logger("s2", calls))
    builder.add_edge(START, "s1")
    builder.add_edge("s1", "s2")
    builder.add_edge("s2", END)
    return builder.compile()


def _asking_sub(calls: dict[str, int]) -> Any:
    """s1 -> ask (interrupt "sub?") -> s2."""

    def ask(state: State) -> dict[str, Any]:
        _count(calls, "ask")
        answer = interrupt("sub?")
        return {"log": [f"ask:{answer}"]}

    builder = StateGraph(State)
    builder.add_node("s1", _logger("s1", calls))
    builder.add_node("ask", ask)
    builder.add_node("s2", _logger("s2", calls))
    builder.add_edge(START, "s1")
    builder.add_edge("s1", "ask")
    builder.add_edge("ask", "s2")
    builder.add_edge("s2", END)
    return builder.compile()


def _other_schema_sub(calls: dict[str, int], *, asks: bool = False) -> Any:
    """A graph over `Other`: up (upper-cases text) -> ex (adds "!" or asks for a suffix)."""

    def up(state: Other) -> dict[str, Any]:
        _count(calls, "up")
        return {"text": state["text"].upper(), "hits": ["up"]}

    def ex(state: Other) -> dict[str, Any]:
        _count(calls, "ex")
        suffix = interrupt("suffix?") if asks else "!"
        return {"text": state["text"] + suffix, "hits": ["ex"]}

    builder = StateGraph(Other)
    builder.add_node("up", up)
    builder.add_node("ex", ex)
    builder.add_edge(START, "up")
    builder.add_edge("up", "ex")
    builder.add_edge("ex", END)
    return builder.compile()


def _caller(calls: dict[str, int], sub: Any) -> Any:
    """One node that invokes a graph of another schema inside its function."""

    def call(state: State) -> dict[str, Any]:
        _count(calls, "call")
        out = sub.invoke({"text": "hi", "hits": []})
        return {"log": [out["text"], list(out["hits"])]}

    builder = StateGraph(State)
    builder.add_node("call", call)
    builder.add_edge(START, "call")
    builder.add_edge("call", END)
    return builder.compile(checkpointer=InMemorySaver())


def _namespaces(saver: Any, thread: str) -> set[str]:
    return {t.config["configurable"]["checkpoint_ns"] for t in saver.list(_cfg(thread))}


# -- subgraph as a node ------------------------------------------------------------------------


def test_compiled_subgraph_with_the_same_schema_as_a_node() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _plain_sub(calls))
    # the subgraph returns its whole state, which the parent's reducer appends
    assert app.invoke({"log": []}, _cfg()) == {"log": ["a", "a", "s1", "s2", "z"]}
    assert calls == {"a": 1, "s1": 1, "s2": 1, "z": 1}
    assert _rows(app.get_state_history(_cfg())) == [
        ("loop", 3, {"log": ["a", "a", "s1", "s2", "z"]}, ()),
        ("loop", 2, {"log": ["a", "a", "s1", "s2"]}, ("z",)),
        ("loop", 1, {"log": ["a"]}, ("sub",)),
        ("loop", 0, {"log": []}, ("a",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_stream_subgraphs_namespaces() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _plain_sub(calls))
    chunks = list(app.stream({"log": []}, _cfg(), subgraphs=True))
    assert all(isinstance(c, tuple) and len(c) == 2 for c in chunks)
    namespaces = [ns for ns, _ in chunks]
    assert namespaces[0] == ()
    child_ns = namespaces[1]
    assert len(child_ns) == 1
    assert child_ns[0].startswith("sub:")
    assert len(child_ns[0]) > len("sub:")
    assert namespaces == [(), child_ns, child_ns, (), ()]
    assert [c for _, c in chunks] == [
        {"a": {"log": ["a"]}},
        {"s1": {"log": ["s1"]}},
        {"s2": {"log": ["s2"]}},
        {"sub": {"log": ["a", "s1", "s2"]}},
        {"z": {"log": ["z"]}},
    ]
    # the task id in the namespace is the id of the parent's "sub" task
    (sub_task,) = next(s for s in app.get_state_history(_cfg()) if s.next == ("sub",)).tasks
    assert child_ns == (f"sub:{sub_task.id}",)


def test_stream_subgraphs_without_the_flag_hides_child_chunks() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _plain_sub(calls))
    assert list(app.stream({"log": []}, _cfg())) == [
        {"a": {"log": ["a"]}},
        {"sub": {"log": ["a", "s1", "s2"]}},
        {"z": {"log": ["z"]}},
    ]


def test_subgraph_with_another_schema_called_inside_a_node() -> None:
    calls: dict[str, int] = {}
    app = _caller(calls, _other_schema_sub(calls))
    assert app.invoke({"log": []}, _cfg()) == {"log": ["HI!", ["up", "ex"]]}
    assert calls == {"call": 1, "up": 1, "ex": 1}
    assert _rows(app.get_state_history(_cfg())) == [
        ("loop", 1, {"log": ["HI!", ["up", "ex"]]}, ()),
        ("loop", 0, {"log": []}, ("call",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_stream_subgraphs_of_a_graph_called_inside_a_node() -> None:
    calls: dict[str, int] = {}
    app = _caller(calls, _other_schema_sub(calls))
    chunks = list(
        app.stream({"log": []}, _cfg(), subgraphs=True, stream_mode=["updates", "values"])
    )
    assert all(len(c) == 3 for c in chunks)
    child = chunks[1][0]
    assert len(child) == 1
    assert child[0].startswith("call:")
    assert chunks == [
        ((), "values", {"log": []}),
        (child, "values", {"text": "hi", "hits": []}),
        (child, "updates", {"up": {"text": "HI", "hits": ["up"]}}),
        (child, "values", {"text": "HI", "hits": ["up"]}),
        (child, "updates", {"ex": {"text": "HI!", "hits": ["ex"]}}),
        (child, "values", {"text": "HI!", "hits": ["up", "ex"]}),
        ((), "updates", {"call": {"log": ["HI!", ["up", "ex"]]}}),
        ((), "values", {"log": ["HI!", ["up", "ex"]]}),
    ]


def test_graph_called_inside_a_node_checkpoints_in_its_own_namespace() -> None:
    calls: dict[str, int] = {}
    app = _caller(calls, _other_schema_sub(calls))
    app.invoke({"log": []}, _cfg())
    spaces = _namespaces(app.checkpointer, "1")
    assert "" in spaces
    (child,) = spaces - {""}
    assert child.startswith("call:")


# -- interrupts inside subgraphs ---------------------------------------------------------------


def test_interrupt_inside_a_subgraph_streams_and_resumes() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    chunks = list(app.stream({"log": []}, _cfg(), subgraphs=True))
    state = app.get_state(_cfg())
    (pending,) = state.interrupts
    assert pending.value == "sub?"
    (sub_task,) = state.tasks
    child = (f"sub:{sub_task.id}",)
    assert chunks == [
        ((), {"a": {"log": ["a"]}}),
        (child, {"s1": {"log": ["s1"]}}),
        (child, {"__interrupt__": (pending,)}),
        ((), {"__interrupt__": (pending,)}),
    ]
    assert calls == {"a": 1, "s1": 1, "ask": 1}
    resumed = list(app.stream(Command(resume="y"), _cfg(), subgraphs=True))
    assert resumed == [
        (child, {"ask": {"log": ["ask:y"]}}),
        (child, {"s2": {"log": ["s2"]}}),
        ((), {"sub": {"log": ["a", "s1", "ask:y", "s2"]}}),
        ((), {"z": {"log": ["z"]}}),
    ]
    # s1 ran before the interrupt and is not run again
    assert calls == {"a": 1, "s1": 1, "ask": 2, "s2": 1, "z": 1}
    assert app.get_state(_cfg()).values == {"log": ["a", "a", "s1", "ask:y", "s2", "z"]}


def test_interrupt_inside_a_subgraph_invoke_output() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    out = app.invoke({"log": []}, _cfg())
    assert out["log"] == ["a"]
    assert [i.value for i in out["__interrupt__"]] == ["sub?"]
    assert app.invoke(Command(resume="y"), _cfg()) == {"log": ["a", "a", "s1", "ask:y", "s2", "z"]}
    assert calls == {"a": 1, "s1": 1, "ask": 2, "s2": 1, "z": 1}


def test_get_state_of_an_interrupted_subgraph() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    state = app.get_state(_cfg())
    (pending,) = state.interrupts
    assert state.values == {"log": ["a"]}
    assert state.next == ("sub",)
    (task,) = state.tasks
    ns = f"sub:{task.id}"
    assert task.name == "sub"
    assert task.interrupts == (pending,)
    # without subgraphs=True the task's state is the child's address
    assert task.state == {"configurable": {"thread_id": "1", "checkpoint_ns": ns}}


def test_get_state_with_subgraphs_shows_the_child_snapshot() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    state = app.get_state(_cfg(), subgraphs=True)
    (pending,) = state.interrupts
    (task,) = state.tasks
    child = task.state
    assert isinstance(child, StateSnapshot)
    assert child.values == {"log": ["a", "s1"]}
    assert child.next == ("ask",)
    assert child.metadata["source"] == "loop"
    assert child.metadata["step"] == 1
    assert child.config["configurable"]["thread_id"] == "1"
    assert child.config["configurable"]["checkpoint_ns"] == f"sub:{task.id}"
    assert child.parent_config["configurable"]["checkpoint_ns"] == f"sub:{task.id}"
    assert child.interrupts == (pending,)
    assert [(t.name, t.interrupts) for t in child.tasks] == [("ask", (pending,))]
    # the child's history is readable through its namespace
    child_history = list(app.get_state_history(child.config))
    assert (
        child_history[0].config["configurable"]["checkpoint_id"]
        == (child.config["configurable"]["checkpoint_id"])
    )
    assert _rows(app.get_state_history({"configurable": {**child.config["configurable"]}})) == [
        ("loop", 1, {"log": ["a", "s1"]}, ("ask",))
    ]


def test_child_checkpoints_name_their_parent_checkpoint() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    parent = app.get_state(_cfg(), subgraphs=True)
    child = parent.tasks[0].state
    parent_id = parent.config["configurable"]["checkpoint_id"]
    assert child.metadata == {"source": "loop", "step": 1, "parents": {"": parent_id}}


def test_child_snapshot_config_carries_the_checkpoint_map() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    parent = app.get_state(_cfg(), subgraphs=True)
    child = parent.tasks[0].state
    conf = child.config["configurable"]
    assert conf["checkpoint_map"] == {
        "": parent.config["configurable"]["checkpoint_id"],
        conf["checkpoint_ns"]: conf["checkpoint_id"],
    }


def test_child_history_after_resume() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    child_config = app.get_state(_cfg()).tasks[0].state
    app.invoke(Command(resume="y"), _cfg())
    assert _rows(app.get_state_history(child_config)) == [
        ("loop", 3, {"log": ["a", "s1", "ask:y", "s2"]}, ()),
        ("loop", 2, {"log": ["a", "s1", "ask:y"]}, ("s2",)),
        ("loop", 1, {"log": ["a", "s1"]}, ("ask",)),
        ("loop", 0, {"log": ["a"]}, ("s1",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_update_state_of_an_interrupted_child_then_resume() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    child = app.get_state(_cfg(), subgraphs=True).tasks[0].state
    app.update_state(child.config, {"log": ["edited"]}, as_node="s1")
    edited = app.get_state(_cfg(), subgraphs=True).tasks[0].state
    assert edited.values == {"log": ["a", "s1", "edited"]}
    assert edited.next == ("ask",)
    assert edited.metadata["source"] == "update"
    assert app.invoke(Command(resume="k"), _cfg()) == {
        "log": ["a", "a", "s1", "edited", "ask:k", "s2", "z"]
    }
    assert calls == {"a": 1, "s1": 1, "ask": 2, "s2": 1, "z": 1}


def test_interrupt_inside_a_graph_called_from_a_node_resumes() -> None:
    calls: dict[str, int] = {}
    app = _caller(calls, _other_schema_sub(calls, asks=True))
    out = app.invoke({"log": []}, _cfg())
    assert out["log"] == []
    assert [i.value for i in out["__interrupt__"]] == ["suffix?"]
    assert app.get_state(_cfg()).next == ("call",)
    assert app.invoke(Command(resume="?"), _cfg()) == {"log": ["HI?", ["up", "ex"]]}
    # the node and the asking child node run twice; "up" ran before the interrupt, once
    assert calls == {"call": 2, "up": 1, "ex": 2}


def test_get_state_with_subgraphs_sees_a_graph_called_from_a_node() -> None:
    calls: dict[str, int] = {}
    app = _caller(calls, _other_schema_sub(calls, asks=True))
    app.invoke({"log": []}, _cfg())
    state = app.get_state(_cfg(), subgraphs=True)
    (pending,) = state.interrupts
    (task,) = state.tasks
    assert isinstance(task.state, StateSnapshot)
    assert task.state.values == {"text": "HI", "hits": ["up"]}
    assert task.state.next == ("ex",)
    assert task.state.interrupts == (pending,)
    assert task.state.config["configurable"]["checkpoint_ns"] == f"call:{task.id}"


# -- Command.PARENT ----------------------------------------------------------------------------


class Flagged(TypedDict):
    log: Annotated[list, operator.add]
    flag: str


def _parent_command_app(calls: dict[str, int]) -> Any:
    def child_go(state: Flagged) -> Command:
        _count(calls, "child_go")
        return Command(
            graph=Command.PARENT, goto="other", update={"log": ["from-child"], "flag": "set"}
        )

    child_builder = StateGraph(Flagged)
    child_builder.add_node("child_go", child_go)
    child_builder.add_edge(START, "child_go")
    child = child_builder.compile()

    builder = StateGraph(Flagged)
    builder.add_node("child", child)
    builder.add_node("other", _logger("other", calls))
    builder.add_node("normal", _logger("normal", calls))
    builder.add_edge(START, "child")
    builder.add_edge("child", "normal")
    builder.add_edge("normal", END)
    builder.add_edge("other", END)
    return builder.compile(checkpointer=InMemorySaver())


def test_command_parent_from_a_subgraph_node() -> None:
    calls: dict[str, int] = {}
    app = _parent_command_app(calls)
    out = app.invoke({"log": []}, _cfg())
    # the parent applies the update, follows its own edge and the child's goto
    assert out == {"log": ["from-child", "normal", "other"], "flag": "set"}
    assert calls == {"child_go": 1, "normal": 1, "other": 1}
    history = list(app.get_state_history(_cfg()))
    assert [(s.metadata["step"], s.values, sorted(s.next)) for s in history] == [
        (2, {"log": ["from-child", "normal", "other"], "flag": "set"}, []),
        (1, {"log": ["from-child"], "flag": "set"}, ["normal", "other"]),
        (0, {"log": []}, ["child"]),
        (-1, {"log": []}, ["__start__"]),
    ]


def test_command_parent_stream_subgraphs() -> None:
    calls: dict[str, int] = {}
    app = _parent_command_app(calls)
    chunks = list(app.stream({"log": []}, _cfg(), subgraphs=True))
    assert chunks[0] == ((), {"child": {"log": ["from-child"], "flag": "set"}})
    assert sorted(repr(c) for c in chunks[1:]) == sorted(
        [repr(((), {"normal": {"log": ["normal"]}})), repr(((), {"other": {"log": ["other"]}}))]
    )


# -- subgraph with its own checkpointer --------------------------------------------------------


class Memory(TypedDict):
    log: Annotated[list, operator.add]
    seen: Annotated[list, operator.add]


def _remembering(calls: dict[str, int], checkpointer: Any) -> Any:
    def remember(state: Memory) -> dict[str, Any]:
        _count(calls, "remember")
        size = len(state["seen"])
        return {"seen": [size], "log": [f"mem{size}"]}

    sub_builder = StateGraph(Memory)
    sub_builder.add_node("remember", remember)
    sub_builder.add_edge(START, "remember")
    sub_builder.add_edge("remember", END)
    sub = sub_builder.compile(checkpointer=checkpointer)
    builder = StateGraph(State)
    builder.add_node("sub", sub)
    builder.add_edge(START, "sub")
    builder.add_edge("sub", END)
    return builder.compile(checkpointer=InMemorySaver())


def test_subgraph_with_checkpointer_true_keeps_its_state_per_thread() -> None:
    calls: dict[str, int] = {}
    app = _remembering(calls, True)
    assert app.invoke({"log": []}, _cfg()) == {"log": ["mem0"]}
    assert app.invoke({"log": []}, _cfg()) == {"log": ["mem0", "mem0", "mem0", "mem1"]}
    # another thread has its own child memory
    assert app.invoke({"log": ["x"]}, _cfg("2")) == {"log": ["x", "x", "mem0"]}
    assert app.invoke({"log": []}, _cfg()) == {
        "log": [
            "mem0",
            "mem0",
            "mem0",
            "mem1",
            "mem0",
            "mem0",
            "mem1",
            "mem0",
            "mem0",
            "mem0",
            "mem1",
            "mem2",
        ]
    }
    assert calls == {"remember": 4}
    # the child keeps one namespace per thread, named after the node (no task id)
    assert _namespaces(app.checkpointer, "1") == {"", "sub"}
    child = {"configurable": {"thread_id": "1", "checkpoint_ns": "sub"}}
    assert app.get_state(child).values["seen"] == [0, 1, 2]
    assert [(s.metadata["source"], s.metadata["step"]) for s in app.get_state_history(child)] == [
        ("loop", 7),
        ("loop", 6),
        ("input", 5),
        ("loop", 4),
        ("loop", 3),
        ("input", 2),
        ("loop", 1),
        ("loop", 0),
        ("input", -1),
    ]


def test_subgraph_without_its_own_checkpointer_starts_fresh_each_time() -> None:
    calls: dict[str, int] = {}
    app = _remembering(calls, None)
    assert app.invoke({"log": []}, _cfg()) == {"log": ["mem0"]}
    assert app.invoke({"log": []}, _cfg()) == {"log": ["mem0", "mem0", "mem0"]}
    spaces = _namespaces(app.checkpointer, "1")
    # one child namespace per run of the node, each with the task id
    assert len(spaces) == 3
    assert all(ns.startswith("sub:") for ns in spaces - {""})


def test_subgraph_with_checkpointer_false_keeps_nothing() -> None:
    calls: dict[str, int] = {}
    app = _remembering(calls, False)
    assert app.invoke({"log": []}, _cfg()) == {"log": ["mem0"]}
    assert app.invoke({"log": []}, _cfg()) == {"log": ["mem0", "mem0", "mem0"]}
    assert _namespaces(app.checkpointer, "1") == {""}


def test_interrupt_in_subgraph_checkpoint_interrupts_are_shared() -> None:
    calls: dict[str, int] = {}
    app = _parent(calls, _asking_sub(calls))
    app.invoke({"log": []}, _cfg())
    parent = app.get_state(_cfg(), subgraphs=True)
    # the parent and the child report the same interrupt, with one id
    assert parent.interrupts == parent.tasks[0].state.interrupts
    (pending,) = parent.interrupts
    assert isinstance(pending, Interrupt)
    assert len(pending.id) == 32
