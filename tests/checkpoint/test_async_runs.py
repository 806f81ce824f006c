"""Async runs: interrupts inside async subgraph nodes stream and resume like sync ones."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any

from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import Command, interrupt


class S(TypedDict):
    log: Annotated[list, operator.add]


def _app() -> Any:
    async def ask(state: S) -> dict:
        return {"log": [interrupt("ok?")]}

    sub = StateGraph(S)
    sub.add_node("ask", ask)
    sub.add_edge(START, "ask")
    builder = StateGraph(S)
    builder.add_node("sub", sub.compile())
    builder.add_node("after", lambda s: {"log": ["after"]})
    builder.add_edge(START, "sub")
    builder.add_edge("sub", "after")
    return builder.compile(checkpointer=InMemorySaver())


def test_async_subgraph_interrupt_streams_and_resumes() -> None:
    app = _app()
    config = {"configurable": {"thread_id": "a"}}

    async def run() -> tuple[list[Any], list[Any], Any]:
        first = [c async for c in app.astream({"log": []}, config, subgraphs=True)]
        second = [c async for c in app.astream(Command(resume="yes"), config, subgraphs=True)]
        return first, second, await app.ainvoke(None, config)

    first, second, final = asyncio.run(run())
    (child_ns, child_chunk), (root_ns, root_chunk) = first
    assert root_ns == () and len(child_ns) == 1 and child_ns[0].startswith("sub:")
    (pending,) = root_chunk["__interrupt__"]
    assert child_chunk == {"__interrupt__": (pending,)} and pending.value == "ok?"
    assert second == [
        (child_ns, {"ask": {"log": ["yes"]}}),
        ((), {"sub": {"log": ["yes"]}}),
        ((), {"after": {"log": ["after"]}}),
    ]
    assert final == {"log": ["yes", "after"]}
