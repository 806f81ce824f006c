"""Streams of nested graphs, as LangGraph shows them, at any depth.

The graphs here nest four levels deep, as nodes and called inside a node's
function, and run side by side. Each expected sequence was produced by running
the same scenario on LangGraph 1.2.22 (only the import root swapped); ids are
numbered by first appearance on both sides (`tools.compat.normalise`), so a
match means the same namespaces, the same chunks, in the same order.
"""

from __future__ import annotations

import asyncio
import importlib
import operator
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.config import get_stream_writer
from foldgraph.graph import START, StateGraph

compat: Any = importlib.import_module("tools.compat")


def normalised(chunks: Any) -> Any:
    return compat.normalise(compat.to_jsonable(chunks))


class Log(TypedDict):
    log: Annotated[list[str], operator.add]


def _leaf(state: Log) -> dict[str, list[str]]:
    get_stream_writer()({"leaf": len(state["log"])})
    return {"log": ["leaf"]}


def _after(state: Log) -> dict[str, list[str]]:
    return {"log": ["after"]}


def _top(state: Log) -> dict[str, list[str]]:
    return {"log": ["top"]}


def four_levels(checkpointer: Any = None) -> Any:
    """root: top -> sub (a graph node); sub: call (a function invoking a graph);
    that graph: deep (a graph node) -> after; deep: leaf (writes a custom chunk)."""
    deepest = StateGraph(Log)
    deepest.add_node("leaf", _leaf)
    deepest.add_edge(START, "leaf")
    level3 = StateGraph(Log)
    level3.add_node("deep", deepest.compile())
    level3.add_node("after", _after)
    level3.add_edge(START, "deep")
    level3.add_edge("deep", "after")
    called = level3.compile()

    def call(state: Log) -> dict[str, list[str]]:
        return {"log": called.invoke({"log": ["called"]})["log"]}

    level2 = StateGraph(Log)
    level2.add_node("call", call)
    level2.add_edge(START, "call")
    root = StateGraph(Log)
    root.add_node("top", _top)
    root.add_node("sub", level2.compile())
    root.add_edge(START, "top")
    root.add_edge("top", "sub")
    return root.compile(checkpointer=checkpointer)


def _modes(spec: str) -> Any:
    modes = spec.split(",")
    return modes[0] if len(modes) == 1 else modes


def stream_four_levels(spec: str, how: str = "sync", saver: str = "", version: str = "v1") -> Any:
    graph = four_levels(InMemorySaver() if saver else None)
    config = {"configurable": {"thread_id": "t"}}
    kwargs = {"stream_mode": _modes(spec), "subgraphs": True, "version": version}
    if how == "async":

        async def collect() -> list[Any]:
            return [c async for c in graph.astream({"log": []}, config, **kwargs)]

        return normalised(asyncio.run(collect()))
    return normalised(list(graph.stream({"log": []}, config, **kwargs)))


def stream_four_levels_flat(spec: str) -> Any:
    """Without subgraphs=True nothing from below the root is seen, custom chunks included."""
    graph = four_levels()
    return normalised(list(graph.stream({"log": []}, stream_mode=_modes(spec))))


def two_side_by_side() -> Any:
    """root: a and b, the same two-level graph, in one step."""
    deepest = StateGraph(Log)
    deepest.add_node("leaf", _leaf)
    deepest.add_edge(START, "leaf")
    level2 = StateGraph(Log)
    level2.add_node("deep", deepest.compile())
    level2.add_node("after", _after)
    level2.add_edge(START, "deep")
    level2.add_edge("deep", "after")
    child = level2.compile()
    root = StateGraph(Log)
    root.add_node("a", child)
    root.add_node("b", child)
    root.add_edge(START, "a")
    root.add_edge(START, "b")
    return root.compile()


def stream_side_by_side(spec: str, how: str = "sync") -> Any:
    """Chunks of each branch in order; the root's own chunks of one step in any order
    (LangGraph gives parallel tasks' chunks in completion order)."""
    graph = two_side_by_side()
    kwargs = {"stream_mode": _modes(spec), "subgraphs": True}
    if how == "async":

        async def collect() -> list[Any]:
            return [c async for c in graph.astream({"log": []}, **kwargs)]

        chunks = asyncio.run(collect())
    else:
        chunks = list(graph.stream({"log": []}, **kwargs))
    return {
        "root": sorted(normalised([c for c in chunks if not c[0]]), key=repr),
        "a": normalised([c for c in chunks if c[0] and c[0][0].startswith("a:")]),
        "b": normalised([c for c in chunks if c[0] and c[0][0].startswith("b:")]),
    }


SCENARIOS: dict[str, Any] = {
    "stream_four_levels": stream_four_levels,
    "stream_four_levels_flat": stream_four_levels_flat,
    "stream_side_by_side": stream_side_by_side,
}


def run_scenario(key: str) -> Any:
    name, *args = key.split(":")
    return SCENARIOS[name](*args)


EXPECTED: dict[str, Any] = {
    "stream_four_levels:updates": [
        [[], {"top": {"log": ["top"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"after": {"log": ["after"]}}],
        [["sub:<id:1>"], {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [[], {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_four_levels:values": [
        [[], {"log": []}],
        [[], {"log": ["top"]}],
        [["sub:<id:1>"], {"log": ["top"]}],
        [["sub:<id:1>", "call:<id:2>"], {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"log": ["called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], {"log": ["called", "called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:1>"], {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:custom": [[["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"leaf": 1}]],
    "stream_four_levels:tasks": [
        [[], {"id": "<id:1>", "input": {"log": []}, "name": "top", "triggers": ["branch:to:top"]}],
        [
            [],
            {
                "error": None,
                "id": "<id:1>",
                "interrupts": [],
                "name": "top",
                "result": {"log": ["top"]},
            },
        ],
        [
            [],
            {
                "id": "<id:2>",
                "input": {"log": ["top"]},
                "name": "sub",
                "triggers": ["branch:to:sub"],
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "id": "<id:3>",
                "input": {"log": ["top"]},
                "name": "call",
                "triggers": ["branch:to:call"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "id": "<id:4>",
                "input": {"log": ["called"]},
                "name": "deep",
                "triggers": ["branch:to:deep"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "id": "<id:5>",
                "input": {"log": ["called"]},
                "name": "leaf",
                "triggers": ["branch:to:leaf"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "error": None,
                "id": "<id:5>",
                "interrupts": [],
                "name": "leaf",
                "result": {"log": ["leaf"]},
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "error": None,
                "id": "<id:4>",
                "interrupts": [],
                "name": "deep",
                "result": {"log": ["called", "leaf"]},
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "id": "<id:6>",
                "input": {"log": ["called", "called", "leaf"]},
                "name": "after",
                "triggers": ["branch:to:after"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "error": None,
                "id": "<id:6>",
                "interrupts": [],
                "name": "after",
                "result": {"log": ["after"]},
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "error": None,
                "id": "<id:3>",
                "interrupts": [],
                "name": "call",
                "result": {"log": ["called", "called", "leaf", "after"]},
            },
        ],
        [
            [],
            {
                "error": None,
                "id": "<id:2>",
                "interrupts": [],
                "name": "sub",
                "result": {"log": ["top", "called", "called", "leaf", "after"]},
            },
        ],
    ],
    "stream_four_levels:debug": [
        [
            [],
            {
                "payload": {
                    "id": "<id:1>",
                    "input": {"log": []},
                    "name": "top",
                    "triggers": ["branch:to:top"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            [],
            {
                "payload": {
                    "error": None,
                    "id": "<id:1>",
                    "interrupts": [],
                    "name": "top",
                    "result": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            [],
            {
                "payload": {
                    "id": "<id:2>",
                    "input": {"log": ["top"]},
                    "name": "sub",
                    "triggers": ["branch:to:sub"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "payload": {
                    "id": "<id:3>",
                    "input": {"log": ["top"]},
                    "name": "call",
                    "triggers": ["branch:to:call"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "id": "<id:4>",
                    "input": {"log": ["called"]},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "payload": {
                    "id": "<id:5>",
                    "input": {"log": ["called"]},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:5>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["called", "leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "id": "<id:6>",
                    "input": {"log": ["called", "called", "leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:6>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "call",
                    "result": {"log": ["called", "called", "leaf", "after"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            [],
            {
                "payload": {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "sub",
                    "result": {"log": ["top", "called", "called", "leaf", "after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
    ],
    "stream_four_levels:updates,values,custom,tasks": [
        [[], "values", {"log": []}],
        [
            [],
            "tasks",
            {"id": "<id:1>", "input": {"log": []}, "name": "top", "triggers": ["branch:to:top"]},
        ],
        [[], "updates", {"top": {"log": ["top"]}}],
        [
            [],
            "tasks",
            {
                "error": None,
                "id": "<id:1>",
                "interrupts": [],
                "name": "top",
                "result": {"log": ["top"]},
            },
        ],
        [[], "values", {"log": ["top"]}],
        [
            [],
            "tasks",
            {
                "id": "<id:2>",
                "input": {"log": ["top"]},
                "name": "sub",
                "triggers": ["branch:to:sub"],
            },
        ],
        [["sub:<id:2>"], "values", {"log": ["top"]}],
        [
            ["sub:<id:2>"],
            "tasks",
            {
                "id": "<id:3>",
                "input": {"log": ["top"]},
                "name": "call",
                "triggers": ["branch:to:call"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "values", {"log": ["called"]}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "id": "<id:4>",
                "input": {"log": ["called"]},
                "name": "deep",
                "triggers": ["branch:to:deep"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "values", {"log": ["called"]}],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            "tasks",
            {
                "id": "<id:5>",
                "input": {"log": ["called"]},
                "name": "leaf",
                "triggers": ["branch:to:leaf"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "custom", {"leaf": 1}],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            "tasks",
            {
                "error": None,
                "id": "<id:5>",
                "interrupts": [],
                "name": "leaf",
                "result": {"log": ["leaf"]},
            },
        ],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "values", {"log": ["called", "leaf"]}],
        [["sub:<id:2>", "call:<id:3>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "error": None,
                "id": "<id:4>",
                "interrupts": [],
                "name": "deep",
                "result": {"log": ["called", "leaf"]},
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "values", {"log": ["called", "called", "leaf"]}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "id": "<id:6>",
                "input": {"log": ["called", "called", "leaf"]},
                "name": "after",
                "triggers": ["branch:to:after"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "updates", {"after": {"log": ["after"]}}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "error": None,
                "id": "<id:6>",
                "interrupts": [],
                "name": "after",
                "result": {"log": ["after"]},
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "values", {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:2>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [
            ["sub:<id:2>"],
            "tasks",
            {
                "error": None,
                "id": "<id:3>",
                "interrupts": [],
                "name": "call",
                "result": {"log": ["called", "called", "leaf", "after"]},
            },
        ],
        [["sub:<id:2>"], "values", {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
        [
            [],
            "tasks",
            {
                "error": None,
                "id": "<id:2>",
                "interrupts": [],
                "name": "sub",
                "result": {"log": ["top", "called", "called", "leaf", "after"]},
            },
        ],
        [[], "values", {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:updates:async": [
        [[], {"top": {"log": ["top"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"after": {"log": ["after"]}}],
        [["sub:<id:1>"], {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [[], {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_four_levels:updates,values,custom:async": [
        [[], "values", {"log": []}],
        [[], "updates", {"top": {"log": ["top"]}}],
        [[], "values", {"log": ["top"]}],
        [["sub:<id:1>"], "values", {"log": ["top"]}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "custom", {"leaf": 1}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"after": {"log": ["after"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:1>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [["sub:<id:1>"], "values", {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
        [[], "values", {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:updates,custom:sync::v2": [
        {"data": {"top": {"log": ["top"]}}, "ns": [], "type": "updates"},
        {"data": {"leaf": 1}, "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "type": "custom"},
        {
            "data": {"leaf": {"log": ["leaf"]}},
            "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "type": "updates",
        },
        {
            "data": {"deep": {"log": ["called", "leaf"]}},
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "updates",
        },
        {
            "data": {"after": {"log": ["after"]}},
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "updates",
        },
        {
            "data": {"call": {"log": ["called", "called", "leaf", "after"]}},
            "ns": ["sub:<id:1>"],
            "type": "updates",
        },
        {
            "data": {"sub": {"log": ["top", "called", "called", "leaf", "after"]}},
            "ns": [],
            "type": "updates",
        },
    ],
    "stream_four_levels:values,custom:async::v2": [
        {"data": {"log": []}, "interrupts": [], "ns": [], "type": "values"},
        {"data": {"log": ["top"]}, "interrupts": [], "ns": [], "type": "values"},
        {"data": {"log": ["top"]}, "interrupts": [], "ns": ["sub:<id:1>"], "type": "values"},
        {
            "data": {"log": ["called"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "values",
        },
        {
            "data": {"log": ["called"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "type": "values",
        },
        {"data": {"leaf": 1}, "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "type": "custom"},
        {
            "data": {"log": ["called", "leaf"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "type": "values",
        },
        {
            "data": {"log": ["called", "called", "leaf"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "values",
        },
        {
            "data": {"log": ["called", "called", "leaf", "after"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "values",
        },
        {
            "data": {"log": ["top", "called", "called", "leaf", "after"]},
            "interrupts": [],
            "ns": ["sub:<id:1>"],
            "type": "values",
        },
        {
            "data": {"log": ["top", "top", "called", "called", "leaf", "after"]},
            "interrupts": [],
            "ns": [],
            "type": "values",
        },
    ],
    "stream_four_levels_flat:updates,custom": [
        ["updates", {"top": {"log": ["top"]}}],
        ["updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_four_levels:updates,values:sync:cp": [
        [[], "values", {"log": []}],
        [[], "updates", {"top": {"log": ["top"]}}],
        [[], "values", {"log": ["top"]}],
        [["sub:<id:1>"], "values", {"log": ["top"]}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"after": {"log": ["after"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:1>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [["sub:<id:1>"], "values", {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
        [[], "values", {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:updates,custom:async:cp": [
        [[], "updates", {"top": {"log": ["top"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "custom", {"leaf": 1}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"after": {"log": ["after"]}}],
        [["sub:<id:1>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_side_by_side:updates,custom": {
        "a": [
            [["a:<id:1>", "deep:<id:2>"], "custom", {"leaf": 0}],
            [["a:<id:1>", "deep:<id:2>"], "updates", {"leaf": {"log": ["leaf"]}}],
            [["a:<id:1>"], "updates", {"deep": {"log": ["leaf"]}}],
            [["a:<id:1>"], "updates", {"after": {"log": ["after"]}}],
        ],
        "b": [
            [["b:<id:1>", "deep:<id:2>"], "custom", {"leaf": 0}],
            [["b:<id:1>", "deep:<id:2>"], "updates", {"leaf": {"log": ["leaf"]}}],
            [["b:<id:1>"], "updates", {"deep": {"log": ["leaf"]}}],
            [["b:<id:1>"], "updates", {"after": {"log": ["after"]}}],
        ],
        "root": [
            [[], "updates", {"a": {"log": ["leaf", "after"]}}],
            [[], "updates", {"b": {"log": ["leaf", "after"]}}],
        ],
    },
    "stream_side_by_side:values,tasks:async": {
        "a": [
            [["a:<id:1>"], "values", {"log": []}],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "id": "<id:2>",
                    "input": {"log": []},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
            ],
            [["a:<id:1>", "deep:<id:2>"], "values", {"log": []}],
            [
                ["a:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "id": "<id:3>",
                    "input": {"log": []},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
            ],
            [
                ["a:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["a:<id:1>", "deep:<id:2>"], "values", {"log": ["leaf"]}],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["a:<id:1>"], "values", {"log": ["leaf"]}],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "id": "<id:4>",
                    "input": {"log": ["leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
            ],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
            ],
            [["a:<id:1>"], "values", {"log": ["leaf", "after"]}],
        ],
        "b": [
            [["b:<id:1>"], "values", {"log": []}],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "id": "<id:2>",
                    "input": {"log": []},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
            ],
            [["b:<id:1>", "deep:<id:2>"], "values", {"log": []}],
            [
                ["b:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "id": "<id:3>",
                    "input": {"log": []},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
            ],
            [
                ["b:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["b:<id:1>", "deep:<id:2>"], "values", {"log": ["leaf"]}],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["b:<id:1>"], "values", {"log": ["leaf"]}],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "id": "<id:4>",
                    "input": {"log": ["leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
            ],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
            ],
            [["b:<id:1>"], "values", {"log": ["leaf", "after"]}],
        ],
        "root": [
            [
                [],
                "tasks",
                {
                    "error": None,
                    "id": "<id:1>",
                    "interrupts": [],
                    "name": "a",
                    "result": {"log": ["leaf", "after"]},
                },
            ],
            [
                [],
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "b",
                    "result": {"log": ["leaf", "after"]},
                },
            ],
            [
                [],
                "tasks",
                {"id": "<id:1>", "input": {"log": []}, "name": "a", "triggers": ["branch:to:a"]},
            ],
            [
                [],
                "tasks",
                {"id": "<id:2>", "input": {"log": []}, "name": "b", "triggers": ["branch:to:b"]},
            ],
            [[], "values", {"log": ["leaf", "after", "leaf", "after"]}],
            [[], "values", {"log": []}],
        ],
    },
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_stream_matches_langgraph(key: str) -> None:
    assert run_scenario(key) == EXPECTED[key]
