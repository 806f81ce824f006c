"""`GraphCallbackHandler`: told when a run pauses (interrupt or breakpoint) and when it
resumes, with the statuses LangGraph 1.2 reports for the same program."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from foldgraph.callbacks import (
    GraphCallbackHandler,
    GraphInterruptEvent,
    GraphResumeEvent,
    get_sync_graph_callback_manager_for_config,
)
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import Command, interrupt


class S(TypedDict):
    a: str


class Recorder(GraphCallbackHandler):
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def on_interrupt(self, event: GraphInterruptEvent) -> None:
        values = [i.value for i in event.interrupts]
        self.seen.append(("interrupt", event.status, event.checkpoint_ns, values))
        assert event.run_id is not None and len(event.checkpoint_id) == 36

    def on_resume(self, event: GraphResumeEvent) -> None:
        self.seen.append(("resume", event.status, event.checkpoint_ns))
        assert len(event.checkpoint_id) == 36


def _builder() -> StateGraph:
    b = StateGraph(S)
    b.add_node("ask", lambda s: {"a": interrupt("q?")})
    b.add_node("after", lambda s: {})
    b.add_edge(START, "ask")
    b.add_edge("ask", "after")
    return b


def test_interrupt_then_resume() -> None:
    graph = _builder().compile(checkpointer=InMemorySaver())
    handler = Recorder()
    config: Any = {"configurable": {"thread_id": "1"}, "callbacks": [handler]}
    graph.invoke({"a": ""}, config)
    graph.invoke(Command(resume="yes"), config)
    assert handler.seen == [("interrupt", "pending", (), ["q?"]), ("resume", "pending", ())]


def test_breakpoints_report_their_kind() -> None:
    graph = _builder().compile(checkpointer=InMemorySaver(), interrupt_before=["after"])
    handler = Recorder()
    config: Any = {"configurable": {"thread_id": "2"}, "callbacks": [handler]}
    graph.invoke({"a": ""}, config)
    graph.invoke(Command(resume="yes"), config)
    graph.invoke(None, config)
    assert handler.seen == [
        ("interrupt", "pending", (), ["q?"]),
        ("resume", "pending", ()),
        ("interrupt", "interrupt_before", (), []),
        ("resume", "pending", ()),
    ]


def test_manager_keeps_only_graph_handlers() -> None:
    from langchain_core.callbacks import BaseCallbackHandler

    handler = Recorder()
    manager = get_sync_graph_callback_manager_for_config(
        {"callbacks": [handler, BaseCallbackHandler()]}
    )
    assert manager.handlers == [handler]
    manager.on_resume(GraphResumeEvent(None, "pending", "0" * 36, ()))
    assert handler.seen == [("resume", "pending", ())]
