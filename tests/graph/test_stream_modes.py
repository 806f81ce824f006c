"""The tasks, checkpoints, debug and custom stream modes (event order taken from LangGraph)."""

from __future__ import annotations

from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.config import get_stream_writer
from foldgraph.graph import START, StateGraph


class S(TypedDict):
    x: int


def _graph():
    def a(state: S) -> dict:
        get_stream_writer()({"progress": state["x"]})
        return {"x": state["x"] + 1}

    builder = StateGraph(S)
    builder.add_node("a", a)
    builder.add_edge(START, "a")
    return builder.compile(checkpointer=InMemorySaver())


def _shape(mode: str, chunk: dict) -> tuple:
    if mode == "debug":
        return (mode, chunk["type"], chunk["step"])
    if mode == "tasks":
        return (mode, chunk["name"], "result" in chunk)
    if mode == "checkpoints":
        return (mode, chunk["metadata"]["step"], tuple(chunk["next"]))
    return (mode, chunk)


def test_event_order_of_tasks_checkpoints_debug_and_custom_modes() -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "1"}}
    modes = ["custom", "tasks", "checkpoints", "debug"]
    events = [
        _shape(mode, chunk) for mode, chunk in graph.stream({"x": 5}, config, stream_mode=modes)
    ]
    assert events == [
        ("checkpoints", -1, ("__start__",)),
        ("debug", "checkpoint", -1),
        ("checkpoints", 0, ("a",)),
        ("debug", "checkpoint", 0),
        ("tasks", "a", False),
        ("debug", "task", 1),
        ("custom", {"progress": 5}),
        ("tasks", "a", True),
        ("debug", "task_result", 1),
        ("checkpoints", 1, ()),
        ("debug", "checkpoint", 1),
    ]


def test_task_payloads() -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "1"}}
    start, result = [c for c in graph.stream({"x": 1}, config, stream_mode="tasks")]
    assert start["name"] == "a" and start["input"] == {"x": 1}
    assert start["triggers"] == ("branch:to:a",)
    assert result["result"] == {"x": 2} and result["error"] is None
    assert result["id"] == start["id"]


def test_custom_mode_without_a_checkpointer_and_writer_no_op_otherwise() -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "2"}}
    assert list(graph.stream({"x": 3}, config, stream_mode="custom")) == [{"progress": 3}]
    # with custom mode off, the writer is a no-op and the run is unaffected
    assert graph.invoke({"x": 3}, {"configurable": {"thread_id": "3"}}) == {"x": 4}


class X(TypedDict):
    x: int


def _ok_then(node):
    builder = StateGraph(X)
    builder.add_node("ok", lambda s: {"x": 1})
    builder.add_node("n", node)
    builder.add_edge(START, "ok")
    builder.add_edge("ok", "n")
    return builder.compile()


def _last_task_event(chunks: list) -> dict:
    return [c for m, c in chunks if m == "tasks"][-1]


def test_tasks_stream_reports_a_failed_task_before_the_error():
    import pytest

    def bad(state):
        raise ValueError("boom")

    chunks: list = []
    with pytest.raises(ValueError, match="boom"):
        for chunk in _ok_then(bad).stream({"x": 0}, stream_mode=["tasks", "values"]):
            chunks.append(chunk)
    [start] = [c for m, c in chunks if m == "tasks" and c["name"] == "n" and "input" in c]
    end = _last_task_event(chunks)
    assert {k: v for k, v in end.items() if k != "error"} == {
        "id": start["id"],
        "name": "n",
        "result": {},
        "interrupts": [],
    }
    assert repr(end["error"]) == "ValueError('boom')"


def test_tasks_stream_reports_an_interrupted_task():
    from foldgraph.types import interrupt

    def ask(state):
        return {"x": interrupt({"q": 1})}

    chunks = list(_ok_then(ask).stream({"x": 0}, stream_mode=["tasks", "updates", "values"]))
    (pending,) = chunks[-2][1]["__interrupt__"]
    assert [m for m, _ in chunks[-4:]] == ["tasks", "updates", "values", "tasks"]
    assert chunks[-1][1] == {
        "id": chunks[-4][1]["id"],
        "name": "n",
        "error": None,
        "result": {},
        "interrupts": [{"value": {"q": 1}, "id": pending.id, "response_schema": None}],
    }
    debug = list(_ok_then(ask).stream({"x": 0}, stream_mode="debug"))
    assert [(d["type"], d["payload"]["name"]) for d in debug] == [
        ("task", "ok"),
        ("task_result", "ok"),
        ("task", "n"),
        ("task_result", "n"),
    ]
