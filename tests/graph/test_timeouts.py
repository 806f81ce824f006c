"""Node timeouts, heartbeats, step_timeout, and cancellation, as in LangGraph 1.2.

Short real times: every wait here ends in well under a second in total (a
timed-out attempt is cancelled, not waited for). Expected behaviour checked by
running the same programs on LangGraph 1.2.22.
"""

from __future__ import annotations

import asyncio
import operator
import threading
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import NodeCancelledError, NodeError, NodeTimeoutError
from foldgraph.graph import START, StateGraph
from foldgraph.runtime import Runtime
from foldgraph.types import RetryPolicy, TimeoutPolicy


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def one_node(node: Any, **options: Any) -> Any:
    builder = StateGraph(S)
    builder.add_node("node", node, **options)
    builder.add_edge(START, "node")
    return builder


async def hang(state: S) -> dict[str, Any]:
    await asyncio.sleep(30)  # cancelled by the timeout long before
    return {"log": ["never"]}


@pytest.mark.timeout(10)
def test_run_timeout_raises_node_timeout_error() -> None:
    graph = one_node(hang, timeout=0.05).compile()
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(graph.ainvoke({"log": []}))
    error = caught.value
    assert (error.node, error.kind, error.timeout, error.run_timeout) == ("node", "run", 0.05, 0.05)
    assert str(error).startswith("Node 'node' exceeded its run timeout of 0.050s (elapsed: ")


@pytest.mark.timeout(10)
def test_heartbeats_keep_an_idle_timeout_from_firing() -> None:
    async def beating(state: S, runtime: Runtime) -> dict[str, Any]:
        for _ in range(5):
            await asyncio.sleep(0.02)
            runtime.heartbeat()
        return {"log": ["done"]}

    policy = TimeoutPolicy(idle_timeout=0.06, refresh_on="heartbeat")
    graph = one_node(beating, timeout=policy).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["done"]}

    async def silent(state: S) -> dict[str, Any]:
        await asyncio.sleep(30)
        return {"log": ["never"]}

    graph = one_node(silent, timeout=TimeoutPolicy(idle_timeout=0.05)).compile()
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(graph.ainvoke({"log": []}))
    assert caught.value.kind == "idle"
    assert str(caught.value).startswith(
        "Node 'node' exceeded its idle timeout of 0.050s without making progress"
    )


@pytest.mark.timeout(10)
def test_a_timeout_counts_as_a_failure_for_retries_and_handlers() -> None:
    attempts: list[int] = []

    async def slow_then_fast(state: S, runtime: Runtime) -> dict[str, Any]:
        assert runtime.execution_info is not None
        attempts.append(runtime.execution_info.node_attempt)
        if len(attempts) == 1:
            await asyncio.sleep(30)
        return {"log": [f"attempt {len(attempts)}"]}

    retry = RetryPolicy(max_attempts=2, initial_interval=0.001, jitter=False)
    graph = one_node(slow_then_fast, timeout=0.05, retry_policy=retry).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["attempt 2"]}
    assert attempts == [1, 2]

    def handler(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"{error.node} timed out: {type(error.error).__name__}"]}

    graph = one_node(hang, timeout=0.05, error_handler=handler).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["node timed out: NodeTimeoutError"]}


def test_sync_nodes_cannot_have_a_timeout() -> None:
    def sync_node(state: S) -> dict[str, Any]:
        return {}

    with pytest.raises(ValueError, match="Node 'node' is sync"):
        one_node(sync_node, timeout=1.0).compile()
    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        one_node(hang, timeout=-1.0)


@pytest.mark.timeout(10)
def test_a_node_raising_cancelled_error_fails_with_node_cancelled_error() -> None:
    async def cancels_itself(state: S) -> dict[str, Any]:
        raise asyncio.CancelledError()

    with pytest.raises(NodeCancelledError) as caught:
        asyncio.run(one_node(cancels_itself).compile().ainvoke({"log": []}))
    assert caught.value.node == "node"


@pytest.mark.timeout(10)
def test_a_sync_node_raising_cancelled_error_fails_with_node_cancelled_error() -> None:
    # A plain sync function is called with nothing around it: the error is still
    # LangGraph's, caused by the CancelledError (LangGraph 1.2.22 gives the same).
    def cancels_itself(state: S) -> dict[str, Any]:
        raise asyncio.CancelledError()

    with pytest.raises(NodeCancelledError) as caught:
        one_node(cancels_itself).compile().invoke({"log": []})
    assert caught.value.node == "node"
    assert str(caught.value) == "Node 'node' raised asyncio.CancelledError"
    assert type(caught.value.__cause__) is asyncio.CancelledError


@pytest.mark.timeout(10)
def test_step_timeout_stops_a_slow_step() -> None:
    graph = one_node(hang).compile()
    graph.step_timeout = 0.05
    with pytest.raises(TimeoutError) as caught:
        asyncio.run(graph.ainvoke({"log": []}))
    assert str(caught.value) == ""  # asyncio's bare TimeoutError, as LangGraph raises it

    release = threading.Event()

    def blocked(state: S) -> dict[str, Any]:
        release.wait(5)
        return {"log": ["late"]}

    graph = one_node(blocked).compile()
    graph.step_timeout = 0.05
    try:
        with pytest.raises(TimeoutError, match="Timed out"):
            graph.invoke({"log": []})
    finally:
        release.set()


@pytest.mark.timeout(10)
def test_cancelled_run_keeps_finished_siblings() -> None:
    calls: list[str] = []

    async def main() -> list[str]:
        quick_done = asyncio.Event()

        async def quick(state: S) -> dict[str, Any]:
            calls.append("quick")
            quick_done.set()
            return {"log": ["quick"]}

        async def slow(state: S) -> dict[str, Any]:
            calls.append("slow")
            if calls.count("slow") == 1:
                await asyncio.sleep(30)  # cancelled with the run
            return {"log": ["slow"]}

        builder = StateGraph(S)
        builder.add_node("quick", quick)
        builder.add_node("slow", slow)
        builder.add_edge(START, "quick")
        builder.add_edge(START, "slow")
        graph = builder.compile(checkpointer=InMemorySaver())
        config = {"configurable": {"thread_id": "c"}}
        run = asyncio.ensure_future(graph.ainvoke({"log": []}, config))
        await asyncio.wait_for(quick_done.wait(), 10)
        await asyncio.sleep(0.01)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        out = await graph.ainvoke(None, config)
        return sorted(out["log"])

    assert asyncio.run(main()) == ["quick", "slow"]
    assert calls == ["quick", "slow", "slow"]
