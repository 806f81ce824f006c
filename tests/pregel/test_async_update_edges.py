"""`aupdate_state`/`abulk_update_state` route through a node's conditional edges with
their async functions, `update_state` with their sync ones (values checked on
LangGraph 1.2.22)."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any

import pytest
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import StateUpdate

pytestmark = pytest.mark.timeout(60)


class State(BaseModel):
    x: int
    log: Annotated[list[str], operator.add] = []


def _graph(edge: Any) -> Any:
    def a(state: State) -> dict:
        return {"x": state.x + 1, "log": ["a"]}

    def b(state: State) -> dict:
        return {"x": state.x * 10, "log": ["b"]}

    return (
        StateGraph(State)
        .add_node("a", a)
        .add_node("b", b)
        .add_edge(START, "a")
        .add_conditional_edges("a", edge, ["b"])
        .compile(checkpointer=InMemorySaver(), interrupt_after=["a"])
    )


def _edges(seen: list[Any]) -> tuple[Any, Any]:
    async def decide(state: State) -> str:
        seen.append(("async", type(state).__name__, state.x))
        return "b"

    def decide_sync(state: State) -> str:
        seen.append(("sync", type(state).__name__, state.x))
        return "b"

    return decide, RunnableLambda(decide_sync, afunc=decide)


async def _update_twice_and_resume(graph: Any) -> tuple[Any, Any, Any]:
    config = {"configurable": {"thread_id": "1"}}
    await graph.ainvoke({"x": 1}, config)
    await graph.abulk_update_state(
        config,
        [[StateUpdate({"x": 5, "log": ["u1"]}, "a")], [StateUpdate({"x": 6, "log": ["u2"]}, "a")]],
    )
    state = await graph.aget_state(config)
    return state.values, state.next, await graph.ainvoke(None, config)


@pytest.mark.parametrize("both", [False, True], ids=["async_only", "sync_and_async"])
def test_an_async_bulk_update_runs_the_edges_async_function(both: bool) -> None:
    seen: list[Any] = []
    only_async, with_sync = _edges(seen)
    graph = _graph(with_sync if both else only_async)

    values, next_nodes, resumed = asyncio.run(_update_twice_and_resume(graph))

    assert values == {"x": 6, "log": ["a", "u1", "u2"]}
    assert next_nodes == ("b",)
    assert resumed == {"x": 60, "log": ["a", "u1", "u2", "b"]}
    assert seen == [("async", "State", 2), ("async", "State", 5), ("async", "State", 6)]


def test_an_async_update_routes_with_an_async_only_edge() -> None:
    seen: list[Any] = []
    graph = _graph(_edges(seen)[0])
    config = {"configurable": {"thread_id": "1"}}

    async def main() -> tuple[Any, Any]:
        await graph.ainvoke({"x": 1}, config)
        await graph.aupdate_state(config, {"x": 5}, as_node="a")
        state = await graph.aget_state(config)
        return (state.values, state.next), await graph.ainvoke(None, config)

    assert asyncio.run(main()) == (({"x": 5, "log": ["a"]}, ("b",)), {"x": 50, "log": ["a", "b"]})
    assert seen == [("async", "State", 2), ("async", "State", 5)]


def test_a_sync_update_uses_the_edges_sync_function_and_refuses_an_async_only_one() -> None:
    seen: list[Any] = []
    only_async, with_sync = _edges(seen)
    config = {"configurable": {"thread_id": "1"}}

    graph = _graph(with_sync)
    graph.invoke({"x": 1}, config)
    graph.update_state(config, {"x": 7}, as_node="a")
    assert graph.get_state(config).next == ("b",)
    assert seen == [("sync", "State", 2), ("sync", "State", 7)]

    graph = _graph(only_async)
    asyncio.run(graph.ainvoke({"x": 1}, config))
    with pytest.raises(TypeError, match='No synchronous function provided to "decide"'):
        graph.update_state(config, {"x": 7}, as_node="a")
    # Nothing was written: the thread still ends where the run left it.
    assert graph.get_state(config).values == {"x": 2, "log": ["a"]}
