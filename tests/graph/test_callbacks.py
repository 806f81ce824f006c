"""LangChain callbacks: the graph and each node open chain runs (tracing, astream_events)."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from foldgraph.graph import START, MessagesState, StateGraph


def _graph() -> Any:
    model = GenericFakeChatModel(messages=iter([AIMessage("hi there", id="a1")]))

    async def call(state: MessagesState) -> dict:
        return {"messages": [await model.ainvoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("call", call)
    builder.add_edge(START, "call")
    return builder.compile()


def test_astream_events_shows_graph_node_and_model_runs() -> None:
    async def run() -> list[dict[str, Any]]:
        inputs = {"messages": [HumanMessage("x", id="h")]}
        return [e async for e in _graph().astream_events(inputs, version="v2")]

    events = asyncio.run(run())
    # As LangGraph: the node's own output is streamed (on_chain_stream) before it ends.
    assert [(e["event"], e["name"]) for e in events] == [
        ("on_chain_start", "LangGraph"),
        ("on_chain_start", "call"),
        ("on_chat_model_start", "GenericFakeChatModel"),
        ("on_chat_model_stream", "GenericFakeChatModel"),
        ("on_chat_model_stream", "GenericFakeChatModel"),
        ("on_chat_model_stream", "GenericFakeChatModel"),
        ("on_chat_model_end", "GenericFakeChatModel"),
        ("on_chain_stream", "call"),
        ("on_chain_end", "call"),
        ("on_chain_stream", "LangGraph"),
        ("on_chain_end", "LangGraph"),
    ]
    node_start = events[1]
    assert node_start["metadata"]["langgraph_node"] == "call"
    assert node_start["metadata"]["langgraph_step"] == 1
    assert [m.content for m in events[-1]["data"]["output"]["messages"]] == ["x", "hi there"]
    # nesting: model run inside the node run inside the graph run
    assert len(events[2]["parent_ids"]) == 2 and events[2]["parent_ids"][0] == events[0]["run_id"]


class Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    def on_chain_start(self, serialized: Any, inputs: Any, **kwargs: Any) -> None:
        self.seen.append(("start", kwargs.get("name")))

    def on_chain_end(self, outputs: Any, **kwargs: Any) -> None:
        self.seen.append(("end", outputs))

    def on_chain_error(self, error: BaseException, **kwargs: Any) -> None:
        self.seen.append(("error", type(error).__name__))


def test_sync_callbacks_record_graph_and_node_runs_and_errors() -> None:
    def ok(state: MessagesState) -> dict:
        return {"messages": [AIMessage("done", id="d")]}

    def broken(state: MessagesState) -> dict:
        raise ValueError("nope")

    for node, expected_tail in ((ok, "end"), (broken, "error")):
        builder = StateGraph(MessagesState)
        builder.add_node("n", node)
        builder.add_edge(START, "n")
        recorder = Recorder()
        try:
            builder.compile().invoke({"messages": []}, {"callbacks": [recorder]})
        except ValueError:
            pass
        kinds = [(k, v if k == "start" else None) for k, v in recorder.seen]
        assert kinds[:2] == [("start", "LangGraph"), ("start", "n")]
        assert [k for k, _ in recorder.seen[2:]] == [expected_tail, expected_tail]
