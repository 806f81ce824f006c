"""`Send(node, arg, timeout=...)` limits that one task in place of the node's own policy
(LangGraph 1.2.22's values and errors)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from typing_extensions import TypedDict

from foldgraph.errors import NodeTimeoutError
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Send, TimeoutPolicy


class State(TypedDict):
    x: int


def test_a_sends_timeout_is_a_policy_in_seconds() -> None:
    assert Send("n", 1, timeout=2).timeout == TimeoutPolicy(run_timeout=2.0)
    assert Send("n", 1, timeout=timedelta(milliseconds=250)).timeout == TimeoutPolicy(
        run_timeout=0.25
    )
    assert Send("n", 1, timeout=TimeoutPolicy(idle_timeout=0.05)).timeout == TimeoutPolicy(
        idle_timeout=0.05
    )
    assert repr(Send("n", 1, timeout=2)) == (
        "Send(node='n', arg=1, timeout=TimeoutPolicy(run_timeout=2.0, idle_timeout=None, "
        "refresh_on='auto'))"
    )
    assert repr(Send("n", 1)) == "Send(node='n', arg=1)"
    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        Send("slow", {}, timeout=0)


def _graph(timeout: Any) -> Any:
    async def slow(state: State) -> State:
        await asyncio.sleep(0.2)
        return {"x": state["x"] + 1}

    builder = StateGraph(State)
    builder.add_node("slow", slow, timeout=TimeoutPolicy(idle_timeout=1.0))
    builder.add_conditional_edges(START, lambda s: [Send("slow", s, timeout=timeout)])
    builder.add_edge("slow", END)
    return builder.compile()


def test_a_sends_timeout_overrides_the_nodes() -> None:
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(_graph(TimeoutPolicy(idle_timeout=0.05)).ainvoke({"x": 1}))
    assert (caught.value.node, caught.value.kind, caught.value.idle_timeout) == (
        "slow",
        "idle",
        0.05,
    )


def test_without_one_or_with_a_looser_one_the_task_finishes() -> None:
    assert asyncio.run(_graph(None).ainvoke({"x": 1})) == {"x": 2}
    assert asyncio.run(_graph(5).ainvoke({"x": 1})) == {"x": 2}
