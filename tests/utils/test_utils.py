"""`foldgraph.utils`: `RunnableCallable` and the config helpers, outputs as LangGraph's."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import pytest

from foldgraph.graph import START, StateGraph
from foldgraph.utils.config import ensure_config, patch_configurable
from foldgraph.utils.runnable import RunnableCallable


class State(TypedDict):
    x: int
    seen: str


def test_runnable_callable_as_a_node_gets_config_and_writer() -> None:
    def f(state, config, writer):  # type: ignore[no-untyped-def]
        writer({"custom": state["x"]})
        return {"seen": config["configurable"].get("thread_id", "none")}

    node = RunnableCallable(f, name="f")
    assert (node.get_name(), RunnableCallable(lambda x: x).get_name()) == ("f", "RunnableCallable")
    builder = StateGraph(State)
    builder.add_node("f", node)
    builder.add_edge(START, "f")
    chunks = list(builder.compile().stream({"x": 1, "seen": ""}, stream_mode=["custom", "updates"]))
    assert chunks == [("custom", {"custom": 1}), ("updates", {"f": {"seen": "none"}})]


def test_runnable_callable_sync_async_recurse_explode() -> None:
    async def triple(x: int) -> int:
        return x * 3

    both = RunnableCallable(lambda x: x * 2, triple)
    assert (both.invoke(2), asyncio.run(both.ainvoke(2))) == (4, 6)
    with pytest.raises(TypeError) as info:
        RunnableCallable(None, triple).invoke(1)
    assert str(info.value) == (
        'No synchronous function provided to "triple".\nEither initialize with a synchronous '
        "function or invoke via the async API (ainvoke, astream, etc.)"
    )
    assert RunnableCallable(lambda x: RunnableCallable(lambda y: y + 100)).invoke(1) == 101
    assert RunnableCallable(lambda a, b=0: a + b, explode_args=True).invoke(((1,), {"b": 5})) == 6
    with pytest.raises(ValueError) as missing:
        RunnableCallable(None)
    assert str(missing.value) == "At least one of func or afunc must be provided."


def test_config_helpers() -> None:
    assert patch_configurable(None, {"a": 1}) == {"configurable": {"a": 1}}
    assert patch_configurable({"tags": []}, {"a": 1}) == {"tags": [], "configurable": {"a": 1}}
    assert patch_configurable({"configurable": {"b": 1}}, {"a": 1}) == {
        "configurable": {"b": 1, "a": 1}
    }
    merged = ensure_config({"configurable": {"a": 1}, "tags": ["x"]}, {"configurable": {"b": 2}})
    assert (
        merged["configurable"],
        merged["tags"],
        merged["callbacks"],
        dict(merged["metadata"]),
    ) == (
        {"a": 1, "b": 2},
        ["x"],
        None,
        {},
    )


def test_a_runnable_callable_node_is_called_as_its_function_sync_or_async() -> None:
    import asyncio
    from typing import TypedDict

    from langchain_core.runnables import RunnableConfig, RunnableLambda

    from foldgraph.graph import START, StateGraph
    from foldgraph.utils.runnable import RunnableCallable

    class S(TypedDict):
        a: int
        how: str

    calls: list[str] = []

    # Annotated as LangGraph's RunnableCallable needs to pass the config (not `Any`).
    def sync(state: S, config: RunnableConfig) -> dict[str, Any]:
        calls.append(f"sync {config['configurable']['thread_id']}")
        return {"a": state["a"] + 1, "how": "sync"}

    async def asynchronous(state: S, config: RunnableConfig) -> dict[str, Any]:
        calls.append(f"async {config['configurable']['thread_id']}")
        return {"a": state["a"] + 1, "how": "async"}

    def returns_runnable(state: S) -> Any:
        return RunnableLambda(lambda s: {"a": s["a"] * 10})

    builder = StateGraph(S)
    builder.add_node("both", RunnableCallable(sync, asynchronous))
    builder.add_node("then", RunnableCallable(returns_runnable))
    builder.add_edge(START, "both")
    builder.add_edge("both", "then")
    graph = builder.compile()
    config = {"configurable": {"thread_id": "x"}}
    assert graph.invoke({"a": 1, "how": ""}, config) == {"a": 20, "how": "sync"}
    assert asyncio.run(graph.ainvoke({"a": 1, "how": ""}, config)) == {"a": 20, "how": "async"}
    assert calls == ["sync x", "async x"]
