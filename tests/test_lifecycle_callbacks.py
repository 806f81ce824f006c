"""`GraphCallbackHandler`: told when a run pauses (interrupt or breakpoint) and when it
resumes, with the statuses LangGraph 1.2 reports for the same program."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
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


class Raising(GraphCallbackHandler):
    """Fails in every event; LangChain's `raise_error` says whether the run fails too."""

    def __init__(self, raise_error: bool = False) -> None:
        self.raise_error = raise_error

    def on_interrupt(self, event: GraphInterruptEvent) -> None:
        raise ValueError("boom-interrupt")

    def on_resume(self, event: GraphResumeEvent) -> None:
        raise ValueError("boom-resume")


class AsyncRaising(Raising):
    async def on_interrupt(self, event: GraphInterruptEvent) -> None:  # type: ignore[override]
        raise ValueError("boom-interrupt")

    async def on_resume(self, event: GraphResumeEvent) -> None:  # type: ignore[override]
        raise ValueError("boom-resume")


def test_a_raising_handler_is_logged_and_the_others_still_hear(caplog: Any) -> None:
    graph = _builder().compile(checkpointer=InMemorySaver())
    after = Recorder()
    config: Any = {"configurable": {"thread_id": "r"}, "callbacks": [Raising(), after]}
    first = graph.invoke({"a": ""}, config)
    assert [i.value for i in first["__interrupt__"]] == ["q?"]
    assert graph.invoke(Command(resume="yes"), config) == {"a": "yes"}
    assert after.seen == [("interrupt", "pending", (), ["q?"]), ("resume", "pending", ())]
    logged = [r.getMessage() for r in caplog.records]
    assert any("on_interrupt" in m and "boom-interrupt" in m for m in logged), logged
    assert any("on_resume" in m and "boom-resume" in m for m in logged), logged


def test_a_handler_with_raise_error_fails_the_run() -> None:
    graph = _builder().compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "e"}, "callbacks": [Raising(raise_error=True)]}
    with pytest.raises(ValueError, match=r"^boom-interrupt$"):
        graph.invoke({"a": ""}, config)


def test_async_raising_handlers_follow_the_same_rules() -> None:
    graph = _builder().compile(checkpointer=InMemorySaver())
    after = Recorder()
    config: Any = {"configurable": {"thread_id": "ar"}, "callbacks": [AsyncRaising(), after]}
    failing: Any = {"configurable": {"thread_id": "ae"}, "callbacks": [AsyncRaising(True)]}

    async def main() -> Any:
        await graph.ainvoke({"a": ""}, config)
        resumed = await graph.ainvoke(Command(resume="yes"), config)
        with pytest.raises(ValueError, match=r"^boom-interrupt$"):
            await graph.ainvoke({"a": ""}, failing)
        return resumed

    assert asyncio.run(main()) == {"a": "yes"}
    assert after.seen == [("interrupt", "pending", (), ["q?"]), ("resume", "pending", ())]


def test_each_event_reaches_every_handler_before_the_next_event() -> None:
    order: list[str] = []

    class Named(GraphCallbackHandler):
        def __init__(self, name: str) -> None:
            self.name = name

        def on_interrupt(self, event: GraphInterruptEvent) -> None:
            order.append(f"{self.name}:interrupt")

        def on_resume(self, event: GraphResumeEvent) -> None:
            order.append(f"{self.name}:resume")

    b = StateGraph(S)
    b.add_node("one", lambda s: {"a": interrupt("1")})
    b.add_node("two", lambda s: {"a": interrupt("2")})
    b.add_edge(START, "one")
    b.add_edge("one", "two")
    graph = b.compile(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "o"}, "callbacks": [Named("x"), Named("y")]}
    graph.invoke({"a": ""}, config)
    order.clear()
    graph.invoke(Command(resume="r"), config)
    assert order == ["x:resume", "y:resume", "x:interrupt", "y:interrupt"]
