"""The `tools` stream mode and `ToolCallTransformer`, as LangGraph 1.2 shows them.

Expected values were printed by LangGraph 1.2.22 for the same programs.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from foldgraph.graph import START, StateGraph
from foldgraph.graph.message import MessagesState
from foldgraph.prebuilt import ToolCallTransformer, ToolNode, ToolRuntime

pytestmark = pytest.mark.filterwarnings(
    "ignore::langchain_core._api.beta_decorator.LangChainBetaWarning"
)


@tool
def search(q: str, runtime: ToolRuntime) -> str:
    """Search."""
    runtime.emit_output_delta({"partial": q[:2]})
    runtime.emit_output_delta({"partial": q})
    return f"found {q}"


@tool
def broken(q: str) -> str:
    """Broken."""
    raise ValueError("nope")


def graph(name: str, **compile_kw: Any) -> Any:
    def agent(state: MessagesState) -> dict[str, Any]:
        call = {"name": name, "args": {"q": "cats"}, "id": "c1"}
        return {"messages": [AIMessage("", tool_calls=[call], id="ai1")]}

    tools = ToolNode([search, broken], handle_tool_errors=True)
    builder = StateGraph(MessagesState).add_node(agent).add_node("tools", tools)
    return builder.add_edge(START, "agent").add_edge("agent", "tools").compile(**compile_kw)


INPUT = {"messages": [HumanMessage("hi", id="h")]}


def shown(chunk: Any) -> Any:
    output = chunk.get("output") if isinstance(chunk, dict) else None
    if isinstance(output, ToolMessage):
        kept = (type(output).__name__, output.content, output.name, output.tool_call_id)
        return {**chunk, "output": kept}
    return chunk


STARTED = {"event": "tool-started", "tool_call_id": "c1", "tool_name": "search"}
STARTED["input"] = {"q": "cats"}
SEARCH = [
    STARTED,
    {"event": "tool-output-delta", "tool_call_id": "c1", "delta": {"partial": "ca"}},
    {"event": "tool-output-delta", "tool_call_id": "c1", "delta": {"partial": "cats"}},
    {
        "event": "tool-finished",
        "tool_call_id": "c1",
        "output": ("ToolMessage", "found cats", "search", "c1"),
    },
]
BROKEN = [
    {**STARTED, "tool_name": "broken"},
    {"event": "tool-error", "tool_call_id": "c1", "message": "nope"},
]


def test_tools_mode() -> None:
    assert [shown(c) for c in graph("search").stream(INPUT, stream_mode="tools")] == SEARCH
    assert [shown(c) for c in graph("broken").stream(INPUT, stream_mode="tools")] == BROKEN
    parts = graph("search").stream(INPUT, stream_mode=["tools", "updates"], version="v2")
    assert [(p["ns"], shown(p["data"])) for p in parts if p["type"] == "tools"] == [
        ((), c) for c in SEARCH
    ]
    chunks = graph("search").stream(INPUT, stream_mode=["tools"])
    assert [(mode, shown(c)) for mode, c in chunks] == [("tools", c) for c in SEARCH]

    async def collect() -> list[Any]:
        return [shown(c) async for c in graph("search").astream(INPUT, stream_mode="tools")]

    assert asyncio.run(collect()) == SEARCH


def test_partial_outputs_are_dropped_without_the_mode() -> None:
    out = graph("search").invoke(INPUT)
    assert [(m.type, m.content) for m in out["messages"]] == [
        ("human", "hi"),
        ("ai", ""),
        ("tool", "found cats"),
    ]


def test_tool_call_transformer() -> None:
    seen = []
    for name in ("search", "broken"):
        run = graph(name, transformers=[ToolCallTransformer]).stream_events(INPUT, version="v3")
        for call in run.tool_calls:
            seen.append(repr(call))
            seen.append((call.tool_call_id, call.tool_name, call.input, list(call.output_deltas)))
            seen.append((call.output, call.error, call.completed, repr(call)))
    assert seen == [
        "ToolCallStream(tool_call_id='c1', tool_name='search', status=running)",
        ("c1", "search", {"q": "cats"}, [{"partial": "ca"}, {"partial": "cats"}]),
        (
            "found cats",
            None,
            True,
            "ToolCallStream(tool_call_id='c1', tool_name='search', status=completed)",
        ),
        "ToolCallStream(tool_call_id='c1', tool_name='broken', status=running)",
        ("c1", "broken", {"q": "cats"}, []),
        (
            None,
            "nope",
            True,
            "ToolCallStream(tool_call_id='c1', tool_name='broken', status=failed)",
        ),
    ]
    run = graph("broken", transformers=[ToolCallTransformer]).stream_events(INPUT, version="v3")
    events = [(e["method"], e["params"]["data"] if e["method"] == "tools" else None) for e in run]
    assert events == [
        ("values", None),
        ("messages", None),
        ("values", None),
        *[("tools", e) for e in BROKEN],
        ("values", None),
    ]

    async def collect() -> list[Any]:
        compiled = graph("search", transformers=[ToolCallTransformer])
        run = await compiled.astream_events(INPUT, version="v3")
        return [(c.tool_name, [d async for d in c], c.output) async for c in run.tool_calls]

    assert asyncio.run(collect()) == [
        ("search", [{"partial": "ca"}, {"partial": "cats"}], "found cats")
    ]
