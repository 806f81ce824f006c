"""The `Runtime` a run hands its nodes is made only when a node asks for it.

Whenever it is made, it must be the one an eager run would have made: the
run's context (checked when the run starts, used or not), its `RunControl`
(the caller's, or the one the run itself watches), shared with graphs called
inside a node. Expected values recorded with LangGraph 1.2.22.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import GraphDrained
from foldgraph.graph import START, StateGraph
from foldgraph.runtime import RunControl, Runtime, get_runtime


@dataclasses.dataclass
class Ctx:
    user: str


class Seen(TypedDict):
    seen: Annotated[list[Any], operator.add]


def _nested(given: RunControl) -> Any:
    def inner(state: Seen, runtime: Runtime[Ctx]) -> dict[str, Any]:
        return {
            "seen": [("inner", runtime.context, runtime.control is given, runtime.drain_requested)]
        }

    sub_builder = StateGraph(Seen, context_schema=Ctx)
    sub_builder.add_node("inner", inner)
    sub_builder.add_edge(START, "inner")
    sub = sub_builder.compile()

    def outer(state: Seen, runtime: Runtime[Ctx]) -> dict[str, Any]:
        out = sub.invoke({"seen": []})
        return {"seen": [("outer", runtime.context, runtime.control is given), *out["seen"]]}

    def plain(state: Seen) -> dict[str, Any]:
        runtime = get_runtime()
        return {"seen": [("plain", runtime.context, runtime.control is given, runtime.store)]}

    builder = StateGraph(Seen, context_schema=Ctx)
    builder.add_node("plain", plain)
    builder.add_node("outer", outer)
    builder.add_edge(START, "plain")
    builder.add_edge("plain", "outer")
    return builder.compile()


def test_nodes_and_nested_graphs_see_the_runs_context_and_the_callers_control() -> None:
    given = RunControl()
    graph = _nested(given)
    assert graph.invoke({"seen": []}, context={"user": "ann"}, control=given) == {
        "seen": [
            ("plain", Ctx(user="ann"), True, None),
            ("outer", Ctx(user="ann"), True),
            ("inner", Ctx(user="ann"), True, False),
        ]
    }
    # Without a control of the caller's, the run's own one is not `given`.
    assert graph.invoke({"seen": []}, context=Ctx("bob")) == {
        "seen": [
            ("plain", Ctx(user="bob"), False, None),
            ("outer", Ctx(user="bob"), False),
            ("inner", Ctx(user="bob"), False, False),
        ]
    }


def test_a_drain_asked_through_the_nodes_runtime_stops_its_run() -> None:
    class Count(TypedDict):
        n: Annotated[int, operator.add]

    def stopper(state: Count, runtime: Runtime) -> dict[str, int]:
        assert runtime.control is not None
        runtime.control.request_drain("asked")
        return {"n": 1}

    def after(state: Count) -> dict[str, int]:
        return {"n": 10}

    builder = StateGraph(Count)
    builder.add_node("stopper", stopper)
    builder.add_node("after", after)
    builder.add_edge(START, "stopper")
    builder.add_edge("stopper", "after")
    graph = builder.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t"}}
    with pytest.raises(GraphDrained, match=r"^Graph drained: asked$"):
        graph.invoke({"n": 0}, config)
    assert graph.invoke(None, config) == {"n": 11}


def test_a_bad_context_fails_the_run_before_any_node_though_none_asks_for_it() -> None:
    class State(TypedDict):
        x: int

    ran: list[int] = []

    def node(state: State) -> dict[str, int]:
        ran.append(1)
        return {"x": 1}

    builder = StateGraph(State, context_schema=Ctx)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    graph = builder.compile()
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'nobody'"):
        graph.invoke({"x": 0}, context={"nobody": 1})
    assert ran == []
