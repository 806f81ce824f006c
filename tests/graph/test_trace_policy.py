"""The callback run tree of a graph run, TracePolicy, and Runtime.execution_info.

Expected values come from running the same programs on LangGraph 1.2.22.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypedDict

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers.base import BaseTracer

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.runtime import Runtime, get_runtime
from foldgraph.types import TracePolicy


class S(TypedDict):
    x: int


def a(state: S) -> dict[str, Any]:
    return {"x": state["x"] + 1}


def b(state: S) -> dict[str, Any]:
    return {"x": state["x"] * 10}


class Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.names: dict[Any, str] = {}

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: Any, **kw: Any) -> None:
        self.names[run_id] = kw.get("name", "")
        parent = self.names.get(kw.get("parent_run_id"))
        self.events.append(("start", kw.get("name"), parent, kw.get("tags"), inputs))

    def on_chain_end(self, outputs: Any, *, run_id: Any, **kw: Any) -> None:
        self.events.append(("end", self.names.get(run_id), outputs))


class Tracer(BaseTracer):
    """A tracer keeping the finished run tree."""

    def __init__(self) -> None:
        super().__init__()
        self.roots: list[Any] = []

    def _persist_run(self, run: Any) -> None:
        self.roots.append(run)


def graph(**options: Any) -> Any:
    builder = StateGraph(S)
    builder.add_node("a", a, **options)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile()


def test_a_handler_sees_the_graph_run_with_one_child_per_node() -> None:
    recorder = Recorder()
    assert graph().invoke({"x": 1}, {"callbacks": [recorder]}) == {"x": 20}
    assert recorder.events == [
        ("start", "LangGraph", None, [], {"x": 1}),
        ("start", "a", "LangGraph", ["graph:step:1"], {"x": 1}),
        ("end", "a", {"x": 2}),
        ("start", "b", "LangGraph", ["graph:step:2"], {"x": 2}),
        ("end", "b", {"x": 20}),
        ("end", "LangGraph", {"x": 20}),
    ]


def test_trace_policy_changes_what_tracers_record_only() -> None:
    policy = TracePolicy(
        process_inputs=lambda v: {"redacted": True}, process_outputs=lambda v: {"out": "hidden"}
    )
    tracer, recorder = Tracer(), Recorder()
    assert graph(trace_policy=policy).invoke({"x": 1}, {"callbacks": [tracer, recorder]}) == {
        "x": 20
    }
    (root,) = tracer.roots
    children = [(r.name, r.inputs, r.outputs, r.tags) for r in root.child_runs]
    assert children == [
        ("a", {"redacted": True}, {"out": "hidden"}, ["graph:step:1"]),
        ("b", {"x": 2}, {"x": 20}, ["graph:step:2"]),
    ]
    # Other handlers still see the real values.
    assert ("start", "a", "LangGraph", ["graph:step:1"], {"x": 1}) in recorder.events
    assert ("end", "a", {"x": 2}) in recorder.events


class Tapping(Recorder):
    """A handler defining the stream taps without being langchain-core's streaming
    handler (which `astream_events`' own handler is)."""

    def tap_output_iter(self, run_id: Any, output: Iterator[Any]) -> Iterator[Any]:
        for chunk in output:
            self.events.append(("tap", self.names.get(run_id), chunk))
            yield chunk

    async def tap_output_aiter(self, run_id: Any, output: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for chunk in output:
            self.events.append(("atap", self.names.get(run_id), chunk))
            yield chunk


def test_only_streaming_handlers_get_a_nodes_streamed_output() -> None:
    # LangGraph 1.2.22: a handler with tap methods of its own is not tapped; with a
    # trace policy it sees the real values, and astream_events still streams the node.
    policy = TracePolicy(process_inputs=lambda v: {"in": "hidden"}, process_outputs=lambda v: {})
    for options in ({}, {"trace_policy": policy}):
        expected = [
            ("start", "a", "LangGraph", ["graph:step:1"], {"x": 1}),
            ("end", "a", {"x": 2}),
        ]
        handler = Tapping()
        graph(**options).invoke({"x": 1}, {"callbacks": [handler]})
        assert [e for e in handler.events if e[1] == "a"] == expected
        handler = Tapping()
        asyncio.run(graph(**options).ainvoke({"x": 1}, {"callbacks": [handler]}))
        assert [e for e in handler.events if e[1] == "a"] == expected

        handler = Tapping()

        async def events(compiled: Any, handler: Tapping) -> list[tuple[str, str]]:
            return [
                (e["event"], e["name"])
                async for e in compiled.astream_events(
                    {"x": 1}, {"callbacks": [handler]}, version="v2"
                )
                if e["name"] == "a"
            ]

        assert asyncio.run(events(graph(**options), handler)) == [
            ("on_chain_start", "a"),
            ("on_chain_stream", "a"),
            ("on_chain_end", "a"),
        ]
        assert [e for e in handler.events if e[1] == "a"] == expected


def test_execution_info_inside_a_node() -> None:
    seen: dict[str, Any] = {}

    def node(state: S, runtime: Runtime) -> dict[str, Any]:
        info = runtime.execution_info
        assert info is not None
        seen.update(
            attempt=info.node_attempt,
            ns=info.checkpoint_ns.split(":")[0],
            thread=info.thread_id,
            run_id=info.run_id,
            task=info.task_id == info.checkpoint_ns.split(":")[1],
            first=type(info.node_first_attempt_time).__name__,
            server=runtime.server_info,
            same=get_runtime() is runtime,
        )
        return {"x": 2}

    builder = StateGraph(S)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    run_id = "12345678-1234-5678-1234-567812345678"
    builder.compile().invoke({"x": 0}, {"run_id": run_id})
    assert seen == {
        "attempt": 1,
        "ns": "node",
        "thread": None,
        "run_id": run_id,
        "task": True,
        "first": "float",
        "server": None,
        "same": True,
    }
    saved = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    saved.invoke({"x": 0}, config)
    assert (seen["thread"], seen["run_id"]) == ("t", None)
