"""A workflow's task calls as an async stream and as `astream_events` see them: each
call's result streams when the call ends, before the workflow goes on, and each call
run streams its output (LangGraph 1.2.22's values and order)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.func import entrypoint, task

pytestmark = pytest.mark.timeout(30)


@task()
async def double(number: int) -> int:
    await asyncio.sleep(0.01)
    return number * 2


@task()
async def fails(number: int) -> int:
    await asyncio.sleep(0.01)
    raise ValueError("no")


def test_a_calls_result_streams_when_the_call_ends() -> None:
    @task()
    async def stamp() -> float:
        await asyncio.sleep(0.05)
        return asyncio.get_running_loop().time()

    @entrypoint()
    async def workflow(inputs: dict[str, Any]) -> list[float]:
        return [await stamp(), await stamp()]

    async def main() -> list[tuple[float, float]]:
        loop = asyncio.get_running_loop()
        return [
            (chunk["stamp"], loop.time())
            async for chunk in workflow.astream({})
            if "stamp" in chunk
        ]

    (first, first_seen), (second, _) = asyncio.run(main())
    assert first <= first_seen < second  # seen before the second call ended


def test_astream_events_of_a_workflow_whose_call_fails() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    async def workflow(number: int) -> str:
        await double(number)
        try:
            await fails(number)
        except ValueError:
            pass
        await double(number)
        return "done"

    config = {"configurable": {"thread_id": "1"}}

    async def main() -> list[Any]:
        return [e async for e in workflow.astream_events(1, config, version="v2")]

    events = asyncio.run(main())
    assert [(e["event"], e["name"]) for e in events] == [
        ("on_chain_start", "LangGraph"),
        ("on_chain_start", "workflow"),
        ("on_chain_start", "double"),
        ("on_chain_stream", "double"),
        ("on_chain_end", "double"),
        ("on_chain_stream", "LangGraph"),
        ("on_chain_start", "fails"),
        ("on_chain_start", "double"),
        ("on_chain_stream", "double"),
        ("on_chain_end", "double"),
        ("on_chain_stream", "workflow"),
        ("on_chain_stream", "LangGraph"),
        ("on_chain_end", "workflow"),
        ("on_chain_stream", "LangGraph"),
        ("on_chain_end", "LangGraph"),
    ]
    assert [e["data"] for e in events if e["event"] == "on_chain_stream"] == [
        {"chunk": 2},
        {"chunk": {"double": 2}},
        {"chunk": 2},
        {"chunk": "done"},
        {"chunk": {"double": 2}},
        {"chunk": {"workflow": "done"}},
    ]
    # Every run carries LangGraph's integration key, the graph's own run included.
    assert {e["metadata"].get("ls_integration") for e in events} == {"langgraph"}
    failed = next(e for e in events if e["name"] == "fails")
    assert (failed["data"], failed["tags"], len(failed["parent_ids"])) == (
        {"input": {"number": 1}},
        ["seq:step:1"],
        2,
    )
