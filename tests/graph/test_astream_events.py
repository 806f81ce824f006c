"""`astream_events(version="v2")` of a graph with a conditional edge and a subgraph: the
exact event sequence LangGraph 1.2 produces (names, tags, step metadata, data, depth)."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph


class S(TypedDict):
    a: str


def route(state: S) -> Literal["sub", "__end__"]:
    return "sub"


def _graph() -> Any:
    inner = StateGraph(S)
    inner.add_node("x", lambda s: {"a": s["a"] + "x"})
    inner.add_edge(START, "x")
    builder = StateGraph(S)
    builder.add_node("first", lambda s: {"a": s["a"] + "1"})
    builder.add_node("sub", inner.compile(name="inner"))
    builder.add_edge(START, "first")
    builder.add_conditional_edges("first", route)
    return builder.compile()


def _events() -> list[tuple]:
    async def collect() -> list[tuple]:
        out = []
        async for ev in _graph().astream_events({"a": ""}, version="v2"):
            meta = ev.get("metadata", {})
            step = {k: meta[k] for k in ("langgraph_step", "langgraph_node") if k in meta}
            out.append(
                (ev["event"], ev["name"], ev["tags"], step, ev["data"], len(ev["parent_ids"]))
            )
        return out

    return asyncio.run(collect())


def test_event_sequence_matches_langgraph() -> None:
    first = {"langgraph_step": 1, "langgraph_node": "first"}
    sub = {"langgraph_step": 2, "langgraph_node": "sub"}
    x = {"langgraph_step": 1, "langgraph_node": "x"}
    g1, g2, s1, s3 = ["graph:step:1"], ["graph:step:2"], ["seq:step:1"], ["seq:step:3"]
    assert _events() == [
        ("on_chain_start", "LangGraph", [], {}, {"input": {"a": ""}}, 0),
        ("on_chain_start", "first", g1, first, {"input": {"a": ""}}, 1),
        ("on_chain_start", "route", s3, first, {"input": {"a": "1"}}, 2),
        ("on_chain_end", "route", s3, first, {"output": "sub", "input": {"a": "1"}}, 2),
        ("on_chain_stream", "first", g1, first, {"chunk": {"a": "1"}}, 1),
        ("on_chain_end", "first", g1, first, {"output": {"a": "1"}, "input": {"a": ""}}, 1),
        ("on_chain_stream", "LangGraph", [], {}, {"chunk": {"first": {"a": "1"}}}, 0),
        ("on_chain_start", "sub", g2, sub, {"input": {"a": "1"}}, 1),
        ("on_chain_start", "inner", s1, sub, {"input": {"a": "1"}}, 2),
        ("on_chain_start", "x", g1, x, {"input": {"a": "1"}}, 3),
        ("on_chain_stream", "x", g1, x, {"chunk": {"a": "1x"}}, 3),
        ("on_chain_end", "x", g1, x, {"output": {"a": "1x"}, "input": {"a": "1"}}, 3),
        ("on_chain_end", "inner", s1, sub, {"output": {"a": "1x"}, "input": {"a": "1"}}, 2),
        ("on_chain_stream", "sub", g2, sub, {"chunk": {"a": "1x"}}, 1),
        ("on_chain_end", "sub", g2, sub, {"output": {"a": "1x"}, "input": {"a": "1"}}, 1),
        ("on_chain_stream", "LangGraph", [], {}, {"chunk": {"sub": {"a": "1x"}}}, 0),
        ("on_chain_end", "LangGraph", [], {}, {"output": {"a": "1x"}}, 0),
    ]


class _Router:
    def __call__(self, state: S) -> str:
        return "second"


def test_a_routing_call_is_traced_under_its_own_name() -> None:
    """As LangGraph: a function by its name; a lambda or a callable object as
    "Unnamed" (the branch itself is then keyed "condition")."""

    def named(state: S) -> str:
        return "second"

    async def routing_runs(path: Any) -> tuple[list[tuple[str, str]], list[str]]:
        builder = StateGraph(S)
        builder.add_node("first", lambda s: {"a": "1"})
        builder.add_node("second", lambda s: {"a": "2"})
        builder.add_edge(START, "first")
        builder.add_conditional_edges("first", path, ["second"])
        graph = builder.compile()
        runs = [
            (ev["event"], ev["name"])
            async for ev in graph.astream_events({"a": ""}, version="v2")
            if "seq:step:3" in ev.get("tags", [])
        ]
        return runs, list(builder.branches["first"])

    found = [asyncio.run(routing_runs(p)) for p in (named, lambda s: "second", _Router())]
    assert found == [
        ([("on_chain_start", "named"), ("on_chain_end", "named")], ["named"]),
        ([("on_chain_start", "Unnamed"), ("on_chain_end", "Unnamed")], ["condition"]),
        ([("on_chain_start", "Unnamed"), ("on_chain_end", "Unnamed")], ["condition"]),
    ]
