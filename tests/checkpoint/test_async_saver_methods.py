"""An async run awaits the async methods a saver's own class defines, as LangGraph's does."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import START, StateGraph


class FaultyGet(InMemorySaver):
    async def aget_tuple(self, config: Any) -> Any:
        raise ValueError("Faulty get_tuple")


class FaultyPut(InMemorySaver):
    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        raise ValueError("Faulty put")


class FaultyPutWrites(InMemorySaver):
    async def aput_writes(
        self, config: Any, writes: Any, task_id: str, task_path: str = ""
    ) -> None:
        raise ValueError("Faulty put_writes")


class FaultySqlPut(SqliteSaver):
    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        raise ValueError("Faulty put")


def _graph(saver: Any, *, parallel: bool = False) -> Any:
    builder = StateGraph(Annotated[str, operator.add])
    builder.add_node("agent", lambda s: "a")
    builder.add_edge(START, "agent")
    if parallel:
        builder.add_node("parallel", lambda s: "p")
        builder.add_edge(START, "parallel")
    return builder.compile(checkpointer=saver)


async def _each_way(graph: Any, durability: str) -> list[str]:
    """The error message of ainvoke, astream and astream_events, in that order."""
    messages = []
    for n, how in enumerate(("ainvoke", "astream", "astream_events")):
        config = {"configurable": {"thread_id": f"{how}-{n}"}}
        with pytest.raises(ValueError) as info:
            if how == "ainvoke":
                await graph.ainvoke("", config, durability=durability)
            elif how == "astream":
                async for _ in graph.astream("", config, durability=durability):
                    pass
            else:
                async for _ in graph.astream_events(
                    "", config, version="v2", durability=durability
                ):
                    pass
        messages.append(str(info.value))
    return messages


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
@pytest.mark.parametrize(
    ("saver", "message"),
    [
        (FaultyGet, "Faulty get_tuple"),
        (FaultyPut, "Faulty put"),
        pytest.param(
            lambda: FaultySqlPut(":memory:"),
            "Faulty put",
            marks=pytest.mark.foldgraph_only(
                "LangGraph's SqliteSaver takes a connection and has no async methods at all"
            ),
            id="sqlite-aput",
        ),
    ],
    ids=["aget_tuple", "aput", "sqlite-aput"],
)
def test_a_failing_async_method_fails_the_async_run(
    saver: Any, message: str, durability: str
) -> None:
    graph = _graph(saver())
    assert asyncio.run(_each_way(graph, durability)) == [message] * 3


def test_a_failing_aput_writes_fails_the_async_run() -> None:
    graph = _graph(FaultyPutWrites(), parallel=True)
    assert asyncio.run(_each_way(graph, "async")) == ["Faulty put_writes"] * 3


def test_sync_runs_call_the_sync_methods_and_async_runs_the_async_ones() -> None:
    calls: list[str] = []

    class Recording(InMemorySaver):
        async def aget_tuple(self, config: Any) -> Any:
            calls.append("aget_tuple")
            return await super().aget_tuple(config)

        async def aput(self, *args: Any) -> Any:
            calls.append("aput")
            return await super().aput(*args)

        async def aput_writes(self, *args: Any) -> None:
            calls.append("aput_writes")
            await super().aput_writes(*args)

    saver = Recording()
    graph = _graph(saver, parallel=True)
    config = {"configurable": {"thread_id": "t"}}
    assert asyncio.run(graph.ainvoke("x", config)) == "xap"
    # Read once; the input checkpoint, then per step the tasks' writes and a checkpoint.
    assert calls == [
        "aget_tuple",
        "aput",
        "aput_writes",
        "aput",
        "aput_writes",
        "aput_writes",
        "aput",
    ]
    calls.clear()
    assert graph.invoke("y", config) == "xapyap"
    assert calls == []
    assert graph.get_state(config).values == "xapyap"
    assert asyncio.run(graph.aget_state(config)).values == "xapyap"


class SlowPut(InMemorySaver):
    """An `aput` that takes a while, and says when it started and ended."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        self.log.append("aput started")
        try:
            await asyncio.sleep(0.3)
            return await super().aput(config, checkpoint, metadata, new_versions)
        finally:
            self.log.append("aput ended")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("how", ["ainvoke", "astream", "astream_events"])
def test_a_cancelled_exit_run_lets_the_savers_own_aput_finish(how: str) -> None:
    # Cancelled mid-step under "exit": the step's node is cancelled, the checkpoint the
    # step started from goes to the saver's own `aput`, and that write is awaited to its
    # end before the cancellation reaches the caller (LangGraph 1.2.22 behaves so).
    log: list[str] = []

    async def slow(state: str) -> str:
        log.append("node started")
        try:
            await asyncio.sleep(5)
        finally:
            log.append("node ended")
        return "never"

    builder = StateGraph(Annotated[str, operator.add])
    builder.add_node("slow", slow)
    builder.add_edge(START, "slow")
    saver = SlowPut(log)
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": how}}

    async def consume() -> None:
        if how == "ainvoke":
            await graph.ainvoke("x", config, durability="exit")
        elif how == "astream":
            async for _ in graph.astream("x", config, durability="exit"):
                pass
        else:
            async for _ in graph.astream_events("x", config, durability="exit", version="v2"):
                pass

    async def main() -> list[str]:
        task = asyncio.create_task(consume())
        await asyncio.sleep(0.1)
        assert log == ["node started"]
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return list(log)

    assert asyncio.run(main()) == ["node started", "node ended", "aput started", "aput ended"]
    saved = saver.get_tuple(config)
    assert saved is not None
    assert saved.checkpoint["channel_values"] == {"__root__": "x", "branch:to:slow": None}
    assert (saved.metadata["source"], saved.metadata["step"]) == ("loop", 0)
    # The cancelled node is to run again on resume: its writes were not kept.
    assert graph.get_state(config).next == ("slow",)
