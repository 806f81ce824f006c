"""Interrupts (static and `interrupt()`), resuming, and failed supersteps.

Every expected value below was produced by running the same program on
LangGraph 1.2.22. Interrupt ids and task ids differ between the two
implementations, so only their shape and relations are asserted. Tests
marked `foldgraph_only` pin a deliberate difference from LangGraph.
"""

from __future__ import annotations

import asyncio
import operator
import re
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.tools import tool

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import InvalidUpdateError
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, Interrupt, interrupt

HEX32 = re.compile(r"^[0-9a-f]{32}$")


class State(TypedDict):
    log: Annotated[list, operator.add]


class NoteState(TypedDict):
    log: Annotated[list, operator.add]
    note: str


def _cfg(thread: str = "1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _count(calls: dict[str, int], name: str) -> None:
    calls[name] = calls.get(name, 0) + 1


def _logger(name: str, calls: dict[str, int]) -> Any:
    def node(state: Any) -> dict[str, Any]:
        _count(calls, name)
        return {"log": [name]}

    return node


def _asker(name: str, calls: dict[str, int], question: Any = None) -> Any:
    def node(state: Any) -> dict[str, Any]:
        _count(calls, name)
        answer = interrupt(question if question is not None else f"q-{name}")
        return {"log": [f"{name}:{answer}"]}

    return node


def _chain(calls: dict[str, int], schema: type = State, **compile_kw: Any) -> Any:
    """START -> a -> b -> c -> END, each node appending its name."""
    builder = StateGraph(schema)
    for name in "abc":
        builder.add_node(name, _logger(name, calls))
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    builder.add_edge("c", END)
    return builder.compile(checkpointer=InMemorySaver(), **compile_kw)


def _ask_chain(calls: dict[str, int], **compile_kw: Any) -> Any:
    """START -> a -> ask (interrupt) -> c -> END."""
    builder = StateGraph(NoteState)
    builder.add_node("a", _logger("a", calls))
    builder.add_node("ask", _asker("ask", calls, {"q": "ok?"}))
    builder.add_node("c", _logger("c", calls))
    builder.add_edge(START, "a")
    builder.add_edge("a", "ask")
    builder.add_edge("ask", "c")
    builder.add_edge("c", END)
    return builder.compile(checkpointer=InMemorySaver(), **compile_kw)


def _fan(calls: dict[str, int], p: Any, q: Any) -> Any:
    """START -> (p, q) in parallel -> join -> END."""
    builder = StateGraph(State)
    builder.add_node("p", p)
    builder.add_node("q", q)
    builder.add_node("join", _logger("join", calls))
    builder.add_edge(START, "p")
    builder.add_edge(START, "q")
    builder.add_edge(["p", "q"], "join")
    builder.add_edge("join", END)
    return builder.compile(checkpointer=InMemorySaver())


def _unordered(chunks: list[dict[str, Any]]) -> list[str]:
    """Chunks of one superstep, whose order LangGraph does not fix (tasks run in threads)."""
    return sorted(repr(c) for c in chunks)


def _history(app: Any, config: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (s.metadata["source"], s.metadata["step"], s.values, s.next)
        for s in app.get_state_history(config)
    ]


# -- static interrupts -------------------------------------------------------------------------


def test_interrupt_before_at_compile_time() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    assert app.invoke({"log": []}, _cfg()) == {"log": ["a", "b"]}
    assert calls == {"a": 1, "b": 1}
    state = app.get_state(_cfg())
    assert state.values == {"log": ["a", "b"]}
    assert state.next == ("c",)
    assert state.metadata == {"source": "loop", "step": 2, "parents": {}}
    assert [(t.name, t.path, t.error, t.interrupts, t.result) for t in state.tasks] == [
        ("c", ("__pregel_pull", "c"), None, (), None)
    ]
    assert state.interrupts == ()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"]}
    assert calls == {"a": 1, "b": 1, "c": 1}
    assert _history(app, _cfg()) == [
        ("loop", 3, {"log": ["a", "b", "c"]}, ()),
        ("loop", 2, {"log": ["a", "b"]}, ("c",)),
        ("loop", 1, {"log": ["a"]}, ("b",)),
        ("loop", 0, {"log": []}, ("a",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_interrupt_before_stream_updates_and_values() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    assert list(app.stream({"log": []}, _cfg("u"))) == [
        {"a": {"log": ["a"]}},
        {"b": {"log": ["b"]}},
        {"__interrupt__": ()},
    ]
    assert list(app.stream(None, _cfg("u"))) == [{"c": {"log": ["c"]}}]
    assert list(app.stream({"log": []}, _cfg("v"), stream_mode="values")) == [
        {"log": []},
        {"log": ["a"]},
        {"log": ["a", "b"]},
    ]
    assert list(app.stream(None, _cfg("v"), stream_mode="values")) == [
        {"log": ["a", "b"]},
        {"log": ["a", "b", "c"]},
    ]
    assert calls == {"a": 2, "b": 2, "c": 2}


def test_interrupt_after_at_compile_time() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_after=["a"])
    assert list(app.stream({"log": []}, _cfg())) == [
        {"a": {"log": ["a"]}},
        {"__interrupt__": ()},
    ]
    state = app.get_state(_cfg())
    assert state.values == {"log": ["a"]}
    assert state.next == ("b",)
    assert state.metadata == {"source": "loop", "step": 1, "parents": {}}
    assert [t.name for t in state.tasks] == ["b"]
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"]}
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_new_input_on_an_interrupted_thread_starts_over() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_after=["a"])
    app.invoke({"log": []}, _cfg())
    # the pending "b" is dropped: the new input starts from START again
    assert list(app.stream({"log": []}, _cfg(), stream_mode="values")) == [
        {"log": ["a"]},
        {"log": ["a", "a"]},
    ]
    assert app.get_state(_cfg()).next == ("b",)
    assert app.invoke(None, _cfg()) == {"log": ["a", "a", "b", "c"]}
    assert calls == {"a": 2, "b": 1, "c": 1}


def test_interrupts_given_at_invoke_time() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    assert app.invoke({"log": []}, _cfg(), interrupt_before=["b"]) == {"log": ["a"]}
    assert app.get_state(_cfg()).next == ("b",)
    assert app.invoke(None, _cfg(), interrupt_after=["b"]) == {"log": ["a", "b"]}
    assert app.get_state(_cfg()).next == ("c",)
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"]}
    assert app.get_state(_cfg()).next == ()
    # nothing left to run
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"]}
    assert calls == {"a": 1, "b": 1, "c": 1}
    # invoke-time interrupts apply to that call only
    assert app.invoke({"log": []}, _cfg("2")) == {"log": ["a", "b", "c"]}


def test_interrupt_before_star() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before="*")
    outputs = [app.invoke({"log": []}, _cfg())]
    nexts = [app.get_state(_cfg()).next]
    for _ in range(4):
        outputs.append(app.invoke(None, _cfg()))
        nexts.append(app.get_state(_cfg()).next)
    assert outputs == [
        {"log": []},
        {"log": ["a"]},
        {"log": ["a", "b"]},
        {"log": ["a", "b", "c"]},
        {"log": ["a", "b", "c"]},
    ]
    assert nexts == [("a",), ("b",), ("c",), (), ()]
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_interrupt_after_star() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_after="*")
    assert app.invoke({"log": []}, _cfg()) == {"log": ["a"]}
    assert app.invoke(None, _cfg()) == {"log": ["a", "b"]}
    assert list(app.stream(None, _cfg())) == [{"c": {"log": ["c"]}}, {"__interrupt__": ()}]
    assert list(app.stream(None, _cfg())) == []
    assert calls == {"a": 1, "b": 1, "c": 1}


# -- interrupt() -------------------------------------------------------------------------------


def test_interrupt_in_a_node_surfaces_in_the_output_and_state() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    out = app.invoke({"log": []}, _cfg())
    assert set(out) == {"log", "__interrupt__"}
    assert out["log"] == ["a"]
    assert isinstance(out["__interrupt__"], list)
    (found,) = out["__interrupt__"]
    assert isinstance(found, Interrupt)
    assert found.value == {"q": "ok?"}
    assert HEX32.match(found.id)
    state = app.get_state(_cfg())
    assert state.values == {"log": ["a"]}
    assert state.next == ("ask",)
    assert state.metadata == {"source": "loop", "step": 1, "parents": {}}
    assert state.interrupts == (Interrupt(value={"q": "ok?"}, id=found.id),)
    (task,) = state.tasks
    assert task.name == "ask"
    assert task.error is None
    assert task.result is None
    assert task.interrupts == (Interrupt(value={"q": "ok?"}, id=found.id),)
    assert calls == {"a": 1, "ask": 1}


def test_interrupt_in_stream_updates() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    chunks = list(app.stream({"log": []}, _cfg()))
    (pending,) = app.get_state(_cfg()).interrupts
    assert chunks == [{"a": {"log": ["a"]}}, {"__interrupt__": (pending,)}]
    assert isinstance(chunks[1]["__interrupt__"], tuple)
    assert pending.value == {"q": "ok?"}
    assert list(app.stream(Command(resume="no"), _cfg())) == [
        {"ask": {"log": ["ask:no"]}},
        {"c": {"log": ["c"]}},
    ]


def test_interrupt_in_stream_values() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    chunks = list(app.stream({"log": []}, _cfg(), stream_mode="values"))
    (pending,) = app.get_state(_cfg()).interrupts
    # the last values chunk carries the state and the interrupt
    assert chunks == [
        {"log": []},
        {"log": ["a"]},
        {"log": ["a"], "__interrupt__": (pending,)},
    ]


def test_interrupt_in_stream_values_and_updates() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    chunks = list(app.stream({"log": []}, _cfg(), stream_mode=["values", "updates"]))
    (pending,) = app.get_state(_cfg()).interrupts
    assert chunks == [
        ("values", {"log": []}),
        ("updates", {"a": {"log": ["a"]}}),
        ("values", {"log": ["a"]}),
        ("updates", {"__interrupt__": (pending,)}),
        ("values", {"log": ["a"], "__interrupt__": (pending,)}),
    ]


def test_command_resume_continues_the_node() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    app.invoke({"log": []}, _cfg())
    assert app.invoke(Command(resume="yes"), _cfg()) == {"log": ["a", "ask:yes", "c"]}
    # the interrupted node runs again from its start; the one before it does not
    assert calls == {"a": 1, "ask": 2, "c": 1}
    state = app.get_state(_cfg())
    assert state.interrupts == ()
    assert state.next == ()
    assert _history(app, _cfg()) == [
        ("loop", 3, {"log": ["a", "ask:yes", "c"]}, ()),
        ("loop", 2, {"log": ["a", "ask:yes"]}, ("c",)),
        ("loop", 1, {"log": ["a"]}, ("ask",)),
        ("loop", 0, {"log": []}, ("a",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_resume_async() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)

    async def main() -> tuple[Any, Any]:
        first = await app.ainvoke({"log": []}, _cfg())
        return first, await app.ainvoke(Command(resume="ok"), _cfg())

    first, second = asyncio.run(main())
    assert first["log"] == ["a"]
    assert [i.value for i in first["__interrupt__"]] == [{"q": "ok?"}]
    assert second == {"log": ["a", "ask:ok", "c"]}
    assert calls == {"a": 1, "ask": 2, "c": 1}


def test_two_interrupts_in_one_node_resume_in_order() -> None:
    calls: dict[str, int] = {}

    def two(state: State) -> dict[str, Any]:
        _count(calls, "two")
        x = interrupt("first")
        y = interrupt("second")
        return {"log": [f"{x}+{y}"]}

    builder = StateGraph(State)
    builder.add_node("two", two)
    builder.add_edge(START, "two")
    app = builder.compile(checkpointer=InMemorySaver())
    first = app.invoke({"log": []}, _cfg())
    assert first["log"] == []
    assert [i.value for i in first["__interrupt__"]] == ["first"]
    second = app.invoke(Command(resume="X"), _cfg())
    assert second["log"] == []
    assert [i.value for i in second["__interrupt__"]] == ["second"]
    id1, id2 = first["__interrupt__"][0].id, second["__interrupt__"][0].id
    assert HEX32.match(id1) and HEX32.match(id2)
    assert id1 != id2
    state = app.get_state(_cfg())
    assert state.interrupts == (Interrupt(value="second", id=id2),)
    assert state.tasks[0].interrupts == (Interrupt(value="second", id=id2),)
    assert state.next == ("two",)
    assert app.invoke(Command(resume="Y"), _cfg()) == {"log": ["X+Y"]}
    assert calls == {"two": 3}
    assert _history(app, _cfg()) == [
        ("loop", 1, {"log": ["X+Y"]}, ()),
        ("loop", 0, {"log": []}, ("two",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_parallel_interrupts_resumed_by_id_map() -> None:
    calls: dict[str, int] = {}
    app = _fan(calls, _asker("p", calls), _asker("q", calls))
    out = app.invoke({"log": []}, _cfg())
    assert out["log"] == []
    assert [i.value for i in out["__interrupt__"]] == ["q-p", "q-q"]
    ids = {i.value: i.id for i in out["__interrupt__"]}
    assert ids["q-p"] != ids["q-q"]
    assert all(HEX32.match(i) for i in ids.values())
    state = app.get_state(_cfg())
    assert state.next == ("p", "q")
    assert state.interrupts == tuple(out["__interrupt__"])
    assert [(t.name, t.interrupts) for t in state.tasks] == [
        ("p", (Interrupt(value="q-p", id=ids["q-p"]),)),
        ("q", (Interrupt(value="q-q", id=ids["q-q"]),)),
    ]
    resumed = list(app.stream(Command(resume={ids["q-p"]: 1, ids["q-q"]: 2}), _cfg()))
    assert _unordered(resumed[:2]) == _unordered([{"p": {"log": ["p:1"]}}, {"q": {"log": ["q:2"]}}])
    assert resumed[2:] == [{"join": {"log": ["join"]}}]
    assert calls == {"p": 2, "q": 2, "join": 1}
    assert _history(app, _cfg()) == [
        ("loop", 2, {"log": ["p:1", "q:2", "join"]}, ()),
        ("loop", 1, {"log": ["p:1", "q:2"]}, ("join",)),
        ("loop", 0, {"log": []}, ("p", "q")),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_parallel_interrupts_resumed_one_at_a_time() -> None:
    calls: dict[str, int] = {}
    app = _fan(calls, _asker("p", calls), _asker("q", calls))
    out = app.invoke({"log": []}, _cfg())
    ids = {i.value: i.id for i in out["__interrupt__"]}
    partial = app.invoke(Command(resume={ids["q-p"]: 1}), _cfg())
    # p finished: its write shows, q is still waiting
    assert partial == {"log": ["p:1"], "__interrupt__": [Interrupt(value="q-q", id=ids["q-q"])]}
    state = app.get_state(_cfg())
    assert state.values == {"log": ["p:1"]}
    assert state.next == ("q",)
    assert state.interrupts == (Interrupt(value="q-q", id=ids["q-q"]),)
    assert [(t.name, t.interrupts, t.result) for t in state.tasks] == [
        ("p", (), {"log": ["p:1"]}),
        ("q", (Interrupt(value="q-q", id=ids["q-q"]),), None),
    ]
    final = app.invoke(Command(resume={ids["q-q"]: 2}), _cfg())
    assert final == {"log": ["p:1", "q:2", "join"]}
    assert calls == {"p": 2, "q": 3, "join": 1}


def test_one_parallel_node_interrupts_the_other_finishes() -> None:
    calls: dict[str, int] = {}
    app = _fan(calls, _logger("p", calls), _asker("q", calls))
    out = app.invoke({"log": []}, _cfg())
    (pending,) = out["__interrupt__"]
    assert out == {"log": ["p"], "__interrupt__": [pending]}
    state = app.get_state(_cfg())
    assert state.values == {"log": ["p"]}
    assert state.next == ("q",)
    assert state.interrupts == (pending,)
    assert [(t.name, t.interrupts, t.result) for t in state.tasks] == [
        ("p", (), {"log": ["p"]}),
        ("q", (pending,), None),
    ]
    assert app.invoke(Command(resume=1), _cfg()) == {"log": ["p", "q:1", "join"]}
    assert calls == {"p": 1, "q": 2, "join": 1}


def test_one_parallel_node_interrupts_stream_values() -> None:
    calls: dict[str, int] = {}
    app = _fan(calls, _logger("p", calls), _asker("q", calls))
    chunks = list(app.stream({"log": []}, _cfg(), stream_mode=["updates", "values"]))
    (pending,) = app.get_state(_cfg()).interrupts
    assert chunks == [
        ("values", {"log": []}),
        ("updates", {"p": {"log": ["p"]}}),
        ("updates", {"__interrupt__": (pending,)}),
        ("values", {"log": [], "__interrupt__": (pending,)}),
        ("values", {"log": ["p"]}),
    ]


@pytest.mark.foldgraph_only("LangGraph streams a step's updates in completion order")
def test_parallel_resume_updates_come_in_task_order() -> None:
    # LangGraph streams a superstep's updates in completion order; foldgraph in task order.
    calls: dict[str, int] = {}
    app = _fan(calls, _asker("p", calls), _asker("q", calls))
    out = app.invoke({"log": []}, _cfg())
    ids = {i.value: i.id for i in out["__interrupt__"]}
    assert list(app.stream(Command(resume={ids["q-q"]: 2, ids["q-p"]: 1}), _cfg())) == [
        {"p": {"log": ["p:1"]}},
        {"q": {"log": ["q:2"]}},
        {"join": {"log": ["join"]}},
    ]


def test_resume_streams_the_kept_writes_as_cached() -> None:
    calls: dict[str, int] = {}
    app = _fan(calls, _logger("p", calls), _asker("q", calls))
    app.invoke({"log": []}, _cfg())
    chunks = list(app.stream(Command(resume=1), _cfg(), stream_mode=["updates", "values"]))
    assert chunks == [
        ("values", {"log": []}),
        ("updates", {"p": {"log": ["p"]}, "__metadata__": {"cached": True}}),
        ("updates", {"q": {"log": ["q:1"]}}),
        ("values", {"log": ["p", "q:1"]}),
        ("updates", {"join": {"log": ["join"]}}),
        ("values", {"log": ["p", "q:1", "join"]}),
    ]
    assert calls == {"p": 1, "q": 2, "join": 1}


def test_resume_without_id_with_several_pending_interrupts_raises() -> None:
    calls: dict[str, int] = {}
    app = _fan(calls, _asker("p", calls), _asker("q", calls))
    app.invoke({"log": []}, _cfg())
    with pytest.raises(RuntimeError):
        app.invoke(Command(resume="v"), _cfg())
    # nothing ran and the thread still waits on both
    assert calls == {"p": 1, "q": 1}
    assert app.get_state(_cfg()).next == ("p", "q")
    assert len(app.get_state(_cfg()).interrupts) == 2


@pytest.mark.foldgraph_only("LangGraph's message points to the docs instead of the ids")
def test_resume_without_id_error_message_says_to_resume_by_id() -> None:
    # LangGraph: "When there are multiple pending interrupts, you must specify the
    # interrupt id when resuming. ..."; foldgraph says how to build the id map.
    calls: dict[str, int] = {}
    app = _fan(calls, _asker("p", calls), _asker("q", calls))
    app.invoke({"log": []}, _cfg())
    with pytest.raises(RuntimeError, match=r"resume each by id with Command\(resume=\{"):
        app.invoke(Command(resume="v"), _cfg())


def test_human_approval_through_a_tool() -> None:
    calls: dict[str, int] = {}

    @tool
    def send_email(to: str) -> str:
        """Send an email to someone, after a human approves it."""
        decision = interrupt({"tool": "send_email", "to": to})
        return f"sent to {to}" if decision == "approve" else "cancelled"

    def agent(state: State) -> dict[str, Any]:
        _count(calls, "agent")
        return {"log": [send_email.invoke({"to": "bob"})]}

    builder = StateGraph(State)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    app = builder.compile(checkpointer=InMemorySaver())
    out = app.invoke({"log": []}, _cfg())
    assert out["log"] == []
    assert [i.value for i in out["__interrupt__"]] == [{"tool": "send_email", "to": "bob"}]
    assert app.get_state(_cfg()).next == ("agent",)
    assert app.invoke(Command(resume="approve"), _cfg()) == {"log": ["sent to bob"]}
    app.invoke({"log": []}, _cfg("2"))
    assert app.invoke(Command(resume="reject"), _cfg("2")) == {"log": ["cancelled"]}
    assert calls == {"agent": 4}


def _ask_after_a(calls: dict[str, int]) -> Any:
    """START -> a -> ask (interrupt), compiled without a checkpointer."""
    builder = StateGraph(State)
    builder.add_node("a", _logger("a", calls))
    builder.add_node("ask", _asker("ask", calls))
    builder.add_edge(START, "a")
    builder.add_edge("a", "ask")
    return builder.compile()


def test_interrupt_without_checkpointer_is_returned_in_the_output() -> None:
    calls: dict[str, int] = {}
    app = _ask_after_a(calls)
    out = app.invoke({"log": []})
    (pending,) = out.pop("__interrupt__")
    assert out == {"log": ["a"]}
    assert pending.value == "q-ask"
    assert HEX32.match(pending.id)
    # nothing was saved: a second invoke is a new run from its input
    again = app.invoke({"log": ["x"]})
    assert again["log"] == ["x", "a"]
    assert [i.value for i in again["__interrupt__"]] == ["q-ask"]
    assert calls == {"a": 2, "ask": 2}
    with pytest.raises(RuntimeError, match=re.escape("Cannot use Command(resume=...) without")):
        app.invoke(Command(resume="yes"))
    assert calls == {"a": 2, "ask": 2}


def test_interrupt_without_checkpointer_streams() -> None:
    app = _ask_after_a({})
    values = list(app.stream({"log": []}, stream_mode="values"))
    (pending,) = values[-1]["__interrupt__"]
    assert values == [{"log": []}, {"log": ["a"]}, {"log": ["a"], "__interrupt__": (pending,)}]
    assert pending.value == "q-ask"
    # each run is new (LangGraph's ids are random without a checkpointer)
    updates = list(app.stream({"log": []}, stream_mode="updates"))
    (pending,) = updates[-1]["__interrupt__"]
    assert updates == [{"a": {"log": ["a"]}}, {"__interrupt__": (pending,)}]
    assert pending.value == "q-ask"
    assert list(app.stream({"log": []}, stream_mode="checkpoints")) == []


def test_interrupt_without_checkpointer_in_a_subgraph_and_async() -> None:
    inner = StateGraph(State)
    inner.add_node("deep", _asker("deep", {}))
    inner.add_edge(START, "deep")
    outer = StateGraph(State)
    outer.add_node("sub", inner.compile())
    outer.add_edge(START, "sub")
    app = outer.compile()
    out = app.invoke({"log": ["x"]})
    assert out["log"] == ["x"]
    assert [i.value for i in out["__interrupt__"]] == ["q-deep"]
    out = asyncio.run(_ask_after_a({}).ainvoke({"log": []}))
    assert out["log"] == ["a"]
    assert [i.value for i in out["__interrupt__"]] == ["q-ask"]


def test_static_breakpoint_without_checkpointer_stops_the_run() -> None:
    calls: dict[str, int] = {}
    builder = StateGraph(State)
    builder.add_node("a", _logger("a", calls))
    builder.add_edge(START, "a")
    assert builder.compile(interrupt_before=["a"]).invoke({"log": []}) == {"log": []}
    assert calls == {}


# -- Command as input --------------------------------------------------------------------------


def test_command_input_with_an_unknown_key_is_ignored_with_a_log(caplog: Any) -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, NoteState)
    app.invoke({"log": []}, _cfg())
    with caplog.at_level("WARNING"):
        out = app.invoke(Command(update={"note": "n", "zz": 1}), _cfg())
    assert out == {"log": ["a", "b", "c"], "note": "n"}
    assert [r.getMessage() for r in caplog.records] == [
        "Task __input__ with path () wrote to unknown channel zz, ignoring it."
    ]


@pytest.mark.foldgraph_only("opt-in compile(strict_updates=True); LangGraph has no such option")
def test_command_input_with_an_unknown_key_raises_with_strict_updates() -> None:
    app = _chain({}, NoteState, strict_updates=True)
    app.invoke({"log": []}, _cfg())
    with pytest.raises(InvalidUpdateError, match=re.escape("unknown state key(s) ['zz']")):
        app.invoke(Command(update={"note": "n", "zz": 1}), _cfg())


def test_command_update_and_goto_on_a_new_thread() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, NoteState)
    chunks = list(app.stream(Command(update={"note": "hi"}, goto="c"), _cfg()))
    # START's own edge still fires: a and c run together first (in any order on LangGraph)
    assert _unordered(chunks[:2]) == _unordered([{"a": {"log": ["a"]}}, {"c": {"log": ["c"]}}])
    assert chunks[2:] == [{"b": {"log": ["b"]}}, {"c": {"log": ["c"]}}]
    assert calls == {"a": 1, "b": 1, "c": 2}
    assert _history(app, _cfg()) == [
        ("loop", 3, {"log": ["a", "c", "b", "c"], "note": "hi"}, ()),
        ("loop", 2, {"log": ["a", "c", "b"], "note": "hi"}, ("c",)),
        ("loop", 1, {"log": ["a", "c"], "note": "hi"}, ("b",)),
        ("loop", 0, {"log": [], "note": "hi"}, ("a", "c")),
        ("input", -1, {"log": [], "note": "hi"}, ("__start__",)),
    ]


def test_command_update_only_on_a_new_thread_runs_the_graph() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, NoteState)
    assert app.invoke(Command(update={"note": "only"}), _cfg()) == {
        "log": ["a", "b", "c"],
        "note": "only",
    }
    assert len(list(app.get_state_history(_cfg()))) == 5


def test_command_update_and_goto_on_a_finished_thread() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, NoteState)
    app.invoke({"log": []}, _cfg())
    out = app.invoke(Command(update={"note": "x", "log": ["u"]}, goto=["b", "c"]), _cfg())
    assert out == {"log": ["a", "b", "c", "u", "b", "c", "c"], "note": "x"}
    assert calls == {"a": 1, "b": 2, "c": 3}


def test_command_update_and_goto_on_an_interrupted_thread() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, NoteState, interrupt_before=["b"])
    assert app.invoke({"log": []}, _cfg()) == {"log": ["a"]}
    chunks = list(app.stream(Command(update={"note": "skip"}, goto="c"), _cfg()))
    # the pending b runs together with the goto'd c, then b's edge runs c again
    assert _unordered(chunks[:2]) == _unordered([{"b": {"log": ["b"]}}, {"c": {"log": ["c"]}}])
    assert chunks[2:] == [{"c": {"log": ["c"]}}]
    assert calls == {"a": 1, "b": 1, "c": 2}
    assert _history(app, _cfg()) == [
        ("loop", 3, {"log": ["a", "b", "c", "c"], "note": "skip"}, ()),
        ("loop", 2, {"log": ["a", "b", "c"], "note": "skip"}, ("c",)),
        ("loop", 1, {"log": ["a"], "note": "skip"}, ("b",)),
        ("loop", 0, {"log": []}, ("a",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_command_resume_with_update() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    app.invoke({"log": []}, _cfg())
    chunks = list(app.stream(Command(resume="y", update={"note": "n"}), _cfg()))
    assert chunks == [{"ask": {"log": ["ask:y"]}}, {"c": {"log": ["c"]}}]
    assert calls == {"a": 1, "ask": 2, "c": 1}
    assert _history(app, _cfg()) == [
        ("loop", 3, {"log": ["a", "ask:y", "c"], "note": "n"}, ()),
        ("loop", 2, {"log": ["a", "ask:y"], "note": "n"}, ("c",)),
        ("loop", 1, {"log": ["a"], "note": "n"}, ("ask",)),
        ("loop", 0, {"log": []}, ("a",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_each_resume_with_update_of_one_checkpoint_applies_its_update_once(
    durability: str,
) -> None:
    # A node that asks three times stays on one checkpoint: the update of each resume
    # is kept there with those of the resumes before it, none lost, none twice.
    def ask_three_times(state: State) -> dict[str, Any]:
        return {"log": ["a:" + "".join(interrupt(str(q)) for q in range(1, 4))]}

    app = (
        StateGraph(State)
        .add_node("a", ask_three_times)
        .add_edge(START, "a")
        .compile(checkpointer=InMemorySaver())
    )
    app.invoke({"log": []}, _cfg(), durability=durability)
    seen = []
    for i in range(1, 4):
        out = app.invoke(
            Command(resume=str(i), update={"log": [f"u{i}"]}), _cfg(), durability=durability
        )
        seen.append((out["log"], app.get_state(_cfg()).values["log"]))
    assert seen == [
        (["u1"], ["u1"]),
        (["u1", "u2"], ["u1", "u2"]),
        (["u1", "u2", "u3", "a:123"], ["u1", "u2", "u3", "a:123"]),
    ]


# -- failures ----------------------------------------------------------------------------------


def _failing_fan(calls: dict[str, int], flag: dict[str, bool]) -> Any:
    def q(state: State) -> dict[str, Any]:
        _count(calls, "q")
        if flag["fail"]:
            raise ValueError("q broke")
        return {"log": ["q"]}

    return _fan(calls, _logger("p", calls), q)


def test_failed_parallel_node_keeps_the_other_nodes_writes() -> None:
    calls: dict[str, int] = {}
    flag = {"fail": True}
    app = _failing_fan(calls, flag)
    with pytest.raises(ValueError) as info:
        app.invoke({"log": []}, _cfg())
    assert info.value.args == ("q broke",)
    state = app.get_state(_cfg())
    assert state.values == {"log": ["p"]}
    assert state.next == ("q",)
    assert state.metadata == {"source": "loop", "step": 0, "parents": {}}
    assert state.interrupts == ()
    (p_task, q_task) = state.tasks
    assert (p_task.name, p_task.error, p_task.result) == ("p", None, {"log": ["p"]})
    assert (q_task.name, q_task.result, q_task.interrupts) == ("q", None, ())
    assert q_task.error is not None
    assert "ValueError" in str(q_task.error)
    assert "q broke" in str(q_task.error)
    assert _history(app, _cfg()) == [
        ("loop", 0, {"log": []}, ("p", "q")),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def test_failed_task_error_text_in_state() -> None:
    calls: dict[str, int] = {}
    app = _failing_fan(calls, {"fail": True})
    with pytest.raises(ValueError):
        app.invoke({"log": []}, _cfg())
    assert str(app.get_state(_cfg()).tasks[1].error) == "ValueError('q broke')"


def test_only_the_failed_node_reruns_after_a_fix() -> None:
    calls: dict[str, int] = {}
    flag = {"fail": True}
    app = _failing_fan(calls, flag)
    with pytest.raises(ValueError):
        app.invoke({"log": []}, _cfg())
    with pytest.raises(ValueError) as info:
        app.invoke(None, _cfg())
    assert info.value.args == ("q broke",)
    assert calls == {"p": 1, "q": 2}
    flag["fail"] = False
    # p's kept writes are streamed again, marked as cached; p itself does not run
    assert list(app.stream(None, _cfg())) == [
        {"p": {"log": ["p"]}, "__metadata__": {"cached": True}},
        {"q": {"log": ["q"]}},
        {"join": {"log": ["join"]}},
    ]
    assert calls == {"p": 1, "q": 3, "join": 1}
    assert app.get_state(_cfg()).values == {"log": ["p", "q", "join"]}
    assert _history(app, _cfg()) == [
        ("loop", 2, {"log": ["p", "q", "join"]}, ()),
        ("loop", 1, {"log": ["p", "q"]}, ("join",)),
        ("loop", 0, {"log": []}, ("p", "q")),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


def _parallel_asks() -> Any:
    from foldgraph.config import get_config
    from foldgraph.types import Send

    class Fan(TypedDict):
        items: list[str]
        out: Annotated[list, operator.add]

    def ask(state: dict) -> dict:
        answer = interrupt(f"approve {state['item']}?")
        return {"out": [(state["item"], answer, get_config()["metadata"]["langgraph_path"])]}

    return (
        StateGraph(Fan)
        .add_node("ask", ask)
        .add_conditional_edges(START, lambda s: [Send("ask", {"item": i}) for i in s["items"]])
        .compile(checkpointer=InMemorySaver())
    )


def test_send_tasks_have_langgraphs_three_part_push_path() -> None:
    # (PUSH, index, False), in the snapshot's tasks and in the task's metadata.
    graph = _parallel_asks()
    config = {"configurable": {"thread_id": "p"}}
    graph.invoke({"items": ["a", "b"], "out": []}, config)
    state = graph.get_state(config)
    assert [t.path for t in state.tasks] == [
        ("__pregel_push", 0, False),
        ("__pregel_push", 1, False),
    ]
    done = graph.invoke(Command(resume={i.id: "ok" for i in state.interrupts}), config)
    assert done["out"] == [
        ("a", "ok", ("__pregel_push", 0, False)),
        ("b", "ok", ("__pregel_push", 1, False)),
    ]


def test_resuming_through_the_checkpoints_own_config_keeps_earlier_answers() -> None:
    """A node asking twice, resumed each time with the config `get_state` gives (it
    names the checkpoint): the second answer joins the first. Replaying the checkpoint
    before the node (no resume) asks the first question again."""

    def ask(state: State) -> dict:
        first = interrupt("First question?")
        second = interrupt("Second question?")
        return {"log": [f"a1:{first}", f"a2:{second}"]}

    builder = StateGraph(State)
    builder.add_node("ask", ask)
    builder.add_node("after", lambda s: {"log": ["done"]})
    builder.add_edge(START, "ask")
    builder.add_edge("ask", "after")
    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "1"}}
    assert [i.value for i in graph.invoke({"log": []}, config)["__interrupt__"]] == [
        "First question?"
    ]
    out = graph.invoke(Command(resume="ans1"), graph.get_state(config).config)
    assert [i.value for i in out["__interrupt__"]] == ["Second question?"]
    out = graph.invoke(Command(resume="ans2"), graph.get_state(config).config)
    assert out == {"log": ["a1:ans1", "a2:ans2", "done"]}
    before = [s for s in graph.get_state_history(config) if s.next == ("ask",)][-1]
    again = graph.invoke(None, before.config)
    assert [i.value for i in again["__interrupt__"]] == ["First question?"]
