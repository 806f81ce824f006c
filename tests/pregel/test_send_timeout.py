"""`Send(node, arg, timeout=...)` limits that one task in place of the node's own policy
(LangGraph 1.2.22's values and errors)."""

from __future__ import annotations

import asyncio
import operator
from datetime import timedelta
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
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


def test_a_sends_timeout_round_trips_through_the_serializer() -> None:
    from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    serde = JsonPlusSerializer()
    for packet in (
        Send("worker", {"x": 1}, timeout=TimeoutPolicy(run_timeout=1, idle_timeout=2)),
        Send("worker", {"x": 1}, timeout=TimeoutPolicy(idle_timeout=3, refresh_on="heartbeat")),
        Send("worker", {"x": 1}),
    ):
        back = serde.loads_typed(serde.dumps_typed(packet))
        assert back == packet
        assert back.timeout == packet.timeout


class _Out(TypedDict):
    out: Annotated[list[int], operator.add]


@pytest.mark.timeout(10)
def test_a_stored_sends_timeout_still_limits_its_task_on_resume() -> None:
    # The Sends wait in the checkpoint (interrupt_before) and are read back from it:
    # the first one's idle limit fires, the second one's looser limits let it finish
    # (LangGraph 1.2.22: NodeTimeoutError('worker', idle 0.05), then out == [2]).
    async def worker(arg: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(arg["sleep"])
        return {"out": [arg["x"]]}

    def fan(state: _Out) -> list[Send]:
        return [
            Send("worker", {"x": 1, "sleep": 5}, timeout=TimeoutPolicy(idle_timeout=0.05)),
            Send(
                "worker", {"x": 2, "sleep": 0}, timeout=TimeoutPolicy(run_timeout=5, idle_timeout=2)
            ),
        ]

    builder = StateGraph(_Out)
    builder.add_node("start", lambda state: {})
    builder.add_node("worker", worker)
    builder.add_edge(START, "start")
    builder.add_conditional_edges("start", fan)
    graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=["worker"])
    config = {"configurable": {"thread_id": "t"}}

    async def main() -> Any:
        await graph.ainvoke({"out": []}, config)
        assert (await graph.aget_state(config)).next == ("worker", "worker")
        with pytest.raises(NodeTimeoutError) as caught:
            await graph.ainvoke(None, config)
        assert (caught.value.node, caught.value.kind, caught.value.idle_timeout) == (
            "worker",
            "idle",
            0.05,
        )
        return await graph.aget_state(config)

    state = asyncio.run(main())
    assert state.values == {"out": [2]}
    assert [(t.name, t.error is not None) for t in state.tasks] == [
        ("worker", True),
        ("worker", False),
    ]
