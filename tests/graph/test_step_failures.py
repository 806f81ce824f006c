"""A step where nodes fail: error handlers start as their node fails, an async failure
nothing handles cancels the running siblings, the first failure is the one raised,
and the last good checkpoint stays the one a resume goes on from.

Expected values come from running the same programs on LangGraph 1.2.22.
"""

from __future__ import annotations

import asyncio
import operator
import threading
import time
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import NodeError
from foldgraph.graph import START, StateGraph

pytestmark = pytest.mark.timeout(30)


class S(TypedDict):
    results: Annotated[list[str], operator.add]


def fan_out(**nodes: Any) -> StateGraph[Any, Any, Any, Any]:
    builder = StateGraph(S)
    for name, node in nodes.items():
        if isinstance(node, tuple):
            builder.add_node(name, node[0], error_handler=node[1])
        else:
            builder.add_node(name, node)
        builder.add_edge(START, name)
    return builder


def _state(graph: Any, config: Any) -> tuple[Any, list[tuple[str, Any, Any]]]:
    state = graph.get_state(config)
    return state.next, [(t.name, t.error, t.result) for t in state.tasks]


def test_each_failed_nodes_handler_starts_at_once_and_runs_again_on_resume() -> None:
    # Node b waits for a's handler: it can only start while b still runs. Both handlers
    # crash; the resume runs both handlers again, not the nodes.
    calls: list[str] = []
    a_handled, b_handled = threading.Event(), threading.Event()
    crash = [True]

    def node_a(state: S) -> S:
        calls.append("a")
        raise RuntimeError("a failed")

    def node_b(state: S) -> S:
        calls.append("b")
        assert a_handled.wait(5), "a's handler did not start while b ran"
        raise RuntimeError("b failed")

    def handler_a(state: S, error: NodeError) -> S:
        calls.append("handler_a")
        a_handled.set()
        if crash[0]:
            assert b_handled.wait(5)
            raise RuntimeError("handler_a crash")
        return {"results": [f"recovered {error.node}: {error.error}"]}

    def handler_b(state: S, error: NodeError) -> S:
        calls.append("handler_b")
        b_handled.set()
        if crash[0]:
            raise RuntimeError("handler_b crash")
        return {"results": [f"recovered {error.node}: {error.error}"]}

    saver = InMemorySaver()
    graph = fan_out(a=(node_a, handler_a), b=(node_b, handler_b)).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(RuntimeError) as caught:
        graph.invoke({"results": []}, config)
    # (which crash is raised depends on the threads' timing, on LangGraph too)
    assert str(caught.value) in ("handler_a crash", "handler_b crash")
    assert sorted(calls) == ["a", "b", "handler_a", "handler_b"]
    assert _state(graph, config) == (
        ("a", "b"),
        [("a", "RuntimeError('a failed')", None), ("b", "RuntimeError('b failed')", None)],
    )
    pending = saver.get_tuple(config).pending_writes
    # (LangGraph 1.2.22 also saves the failed node's name under `__error_source_node__`)
    errors = [(c, str(v)) for _, c, v in pending if c != "__error_source_node__"]
    assert sorted(errors) == [
        ("__error__", "RuntimeError('a failed')"),
        ("__error__", "RuntimeError('b failed')"),
        ("__error__", "RuntimeError('handler_a crash')"),
        ("__error__", "RuntimeError('handler_b crash')"),
    ]

    crash[0] = False
    calls.clear()
    assert graph.invoke(None, config) == {
        "results": [
            "recovered a: RuntimeError('a failed')",
            "recovered b: RuntimeError('b failed')",
        ]
    }
    assert sorted(calls) == ["handler_a", "handler_b"]
    assert [(s.next, s.values) for s in graph.get_state_history(config)] == [
        (
            (),
            {
                "results": [
                    "recovered a: RuntimeError('a failed')",
                    "recovered b: RuntimeError('b failed')",
                ]
            },
        ),
        (("a", "b"), {"results": []}),
        (("__start__",), {"results": []}),
    ]


def test_an_async_handler_starts_while_its_siblings_run_and_does_not_cancel_them() -> None:
    log: list[str] = []

    async def slow(state: S) -> S:
        await asyncio.sleep(0.3)
        log.append("slow done")
        return {"results": ["slow"]}

    async def bad(state: S) -> S:
        await asyncio.sleep(0.01)
        raise RuntimeError("bad early")

    async def handler(state: S, error: NodeError) -> S:
        log.append("handler")
        return {"results": ["handled"]}

    graph = fan_out(slow=slow, bad=(bad, handler)).compile()
    assert asyncio.run(graph.ainvoke({"results": []})) == {"results": ["handled", "slow"]}
    assert log == ["handler", "slow done"]


def test_the_first_failure_is_raised() -> None:
    async def alate(state: S) -> S:
        await asyncio.sleep(0.2)
        raise RuntimeError("late")

    async def aearly(state: S) -> S:
        raise RuntimeError("early")

    with pytest.raises(RuntimeError) as caught:
        asyncio.run(fan_out(late=alate, early=aearly).compile().ainvoke({"results": []}))
    assert str(caught.value) == "early"


def test_an_async_failure_cancels_running_siblings_and_the_step_resumes() -> None:
    # LangGraph 1.2.22: "b early" raised after ~0.05 s, "a" cancelled (saved with the
    # error CancelledError()), "c" kept; the resume runs a and b again, not c.
    log: list[str] = []
    fail = [True]

    async def a(state: S) -> S:
        try:
            await asyncio.sleep(0.5 if fail[0] else 0)
        except asyncio.CancelledError:
            log.append("a cancelled")
            raise
        log.append("a")
        return {"results": ["a"]}

    async def b(state: S) -> S:
        await asyncio.sleep(0.05)
        log.append("b")
        if fail[0]:
            raise RuntimeError("b early")
        return {"results": ["b"]}

    async def c(state: S) -> S:
        log.append("c")
        return {"results": ["c"]}

    saver = InMemorySaver()
    graph = fan_out(a=a, b=b, c=c).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    started = time.monotonic()
    with pytest.raises(RuntimeError, match=r"^b early"):
        asyncio.run(graph.ainvoke({"results": []}, config))
    assert time.monotonic() - started < 0.45  # a was not waited for
    assert sorted(log) == ["a cancelled", "b", "c"]
    assert _state(graph, config) == (
        ("a", "b"),
        [
            ("a", "CancelledError()", None),
            ("b", "RuntimeError('b early')", None),
            ("c", None, {"results": ["c"]}),
        ],
    )
    pending = saver.get_tuple(config).pending_writes
    assert sorted((channel, str(value)) for _, channel, value in pending) == [
        ("__error__", "CancelledError()"),
        ("__error__", "RuntimeError('b early')"),
        ("results", "['c']"),
    ]
    # The last good checkpoint is the step's start: it resumes from there.
    history = list(graph.get_state_history(config))
    assert [h.next for h in history] == [("a", "b", "c"), ("__start__",)]

    fail[0] = False
    log.clear()
    assert asyncio.run(graph.ainvoke(None, config)) == {"results": ["a", "b", "c"]}
    assert sorted(log) == ["a", "b"]


def test_a_failing_handler_cancels_the_async_siblings_too() -> None:
    log: list[str] = []

    async def slow(state: S) -> S:
        try:
            await asyncio.sleep(0.3)
        except asyncio.CancelledError:
            log.append("slow cancelled")
            raise
        return {"results": ["slow"]}

    async def bad(state: S) -> S:
        await asyncio.sleep(0.01)
        raise RuntimeError("bad early")

    async def handler(state: S, error: NodeError) -> S:
        raise RuntimeError("handler failed")

    saver = InMemorySaver()
    graph = fan_out(slow=slow, bad=(bad, handler)).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(RuntimeError, match=r"^handler failed"):
        asyncio.run(graph.ainvoke({"results": []}, config))
    assert log == ["slow cancelled"]
    assert _state(graph, config) == (
        ("slow", "bad"),
        [("slow", "CancelledError()", None), ("bad", "RuntimeError('bad early')", None)],
    )


# -- a step cut short: cancelled, its stream closed, or past its step_timeout -------------


class Two(TypedDict):
    hello: str
    other: str


def _two_tasks(log: list[str], slow: float = 30) -> Any:
    async def awhile(state: Two) -> dict[str, Any]:
        try:
            await asyncio.sleep(slow)
        except asyncio.CancelledError:
            log.append("awhile cancelled")
            raise
        return {"hello": "late"}

    async def alittlewhile(state: Two) -> dict[str, Any]:
        await asyncio.sleep(0.05)
        return {"other": "1"}

    builder = StateGraph(Two)
    builder.add_node(awhile)
    builder.add_node(alittlewhile)
    builder.set_conditional_entry_point(lambda _: ["awhile", "alittlewhile"])
    return builder.compile(checkpointer=InMemorySaver())


def _cut_short(graph: Any, config: Any, how: str, durability: str) -> list[Any]:
    """Start a run and cut it short `how`; the chunks it streamed before."""
    chunks: list[Any] = []

    async def main() -> None:
        if how == "cancel":
            run = asyncio.ensure_future(
                graph.ainvoke({"hello": "world"}, config, durability=durability)
            )
            await asyncio.sleep(0.3)
            run.cancel()
            with pytest.raises(asyncio.CancelledError):
                await run
        elif how == "close":
            stream = graph.astream({"hello": "world"}, config, durability=durability)
            async for chunk in stream:
                chunks.append(chunk)
                break
            await stream.aclose()
        else:
            graph.step_timeout = 0.3
            try:
                with pytest.raises(TimeoutError):
                    async for chunk in graph.astream(
                        {"hello": "world"}, config, durability=durability
                    ):
                        chunks.append(chunk)
            finally:
                graph.step_timeout = None

    asyncio.run(main())
    return chunks


@pytest.mark.parametrize("how", ["cancel", "close", "step_timeout"])
@pytest.mark.parametrize("durability", ["async", "exit"])
def test_a_step_cut_short_keeps_what_finished_and_resumes(how: str, durability: str) -> None:
    # LangGraph 1.2.22: the task still running is cancelled (and, unless durability is
    # "exit", saved with the error CancelledError()); the finished task's write is kept
    # on the step's checkpoint, which a resume goes on from, running only the other.
    log: list[str] = []
    graph = _two_tasks(log)
    config = {"configurable": {"thread_id": f"{how}-{durability}"}}
    chunks = _cut_short(graph, config, how, durability)
    assert log == ["awhile cancelled"]
    if how != "cancel":  # the finished task's update streamed as it finished
        assert chunks == [{"alittlewhile": {"other": "1"}}]
    state = graph.get_state(config)
    error = None if durability == "exit" else "CancelledError()"
    assert (state.next, state.values) == (("awhile",), {"hello": "world", "other": "1"})
    assert [(t.name, t.error, t.result) for t in state.tasks] == [
        ("awhile", error, None),
        ("alittlewhile", None, {"other": "1"}),
    ]
    saved = (
        [("awhile", "alittlewhile")]
        if durability == "exit"
        else [
            ("awhile", "alittlewhile"),
            ("__start__",),
        ]
    )
    assert [h.next for h in graph.get_state_history(config)] == saved

    log.clear()
    fast = _two_tasks(log, slow=0)
    fast.checkpointer = graph.checkpointer
    assert asyncio.run(fast.ainvoke(None, config)) == {"hello": "late", "other": "1"}
    assert log == []


def test_a_cancelled_single_task_run_with_exit_durability_saves_its_input() -> None:
    # LangGraph 1.2.22: the checkpoint the cancelled step started from is saved at exit.
    started = asyncio.Event()

    async def agent(state: Two) -> dict[str, Any]:
        started.set()
        await asyncio.sleep(30)
        return {"other": "done"}

    builder = StateGraph(Two)
    builder.add_node("agent", agent)
    builder.set_entry_point("agent")
    builder.set_finish_point("agent")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}

    async def main() -> None:
        run = asyncio.ensure_future(graph.ainvoke({"hello": "world"}, config, durability="exit"))
        await asyncio.wait_for(started.wait(), 10)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run

    asyncio.run(main())
    state = graph.get_state(config)
    assert (state.next, state.values) == (("agent",), {"hello": "world"})


def test_updates_stream_as_each_task_finishes() -> None:
    async def slow(state: Two) -> dict[str, Any]:
        await asyncio.sleep(0.3)
        return {"hello": "slow"}

    async def quick(state: Two) -> dict[str, Any]:
        await asyncio.sleep(0.01)
        return {"other": "quick"}

    builder = StateGraph(Two)
    builder.add_node("slow", slow)
    builder.add_node("quick", quick)
    builder.add_edge(START, "slow")
    builder.add_edge(START, "quick")
    graph = builder.compile()

    async def main() -> list[tuple[Any, bool]]:
        started = time.monotonic()
        return [
            (chunk, time.monotonic() - started < 0.25)
            async for chunk in graph.astream({"hello": "", "other": ""}, stream_mode="updates")
        ]

    assert asyncio.run(main()) == [
        ({"quick": {"other": "quick"}}, True),
        ({"slow": {"hello": "slow"}}, False),
    ]


@pytest.mark.foldgraph_only("LangGraph streams a step's updates as its tasks finish")
def test_a_finished_tasks_update_waits_for_the_tasks_before_it() -> None:
    # foldgraph keeps the updates of a step in task order (nodes by name here), each
    # streamed once it and every task before it finished (LangGraph streams "b" first).
    async def a(state: Two) -> dict[str, Any]:
        await asyncio.sleep(0.2)
        return {"hello": "a"}

    async def b(state: Two) -> dict[str, Any]:
        return {"other": "b"}

    builder = StateGraph(Two)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    graph = builder.compile()

    async def main() -> list[Any]:
        return [c async for c in graph.astream({"hello": "", "other": ""}, stream_mode="updates")]

    assert asyncio.run(main()) == [{"a": {"hello": "a"}}, {"b": {"other": "b"}}]


def test_a_bad_answer_to_an_interrupt_lets_the_other_answered_tasks_finish() -> None:
    # LangGraph 1.2.22: the invalid answer fails the resume, but "send" (answered well,
    # its side effect done) finishes and keeps its write; the next resume asks only
    # "check?" again and does not send twice.
    from pydantic import BaseModel, ValidationError

    from foldgraph.types import Command, interrupt

    class Decision(BaseModel):
        approved: bool

    class Log(TypedDict):
        log: Annotated[list[str], operator.add]

    sent: list[str] = []

    async def send(state: Log) -> dict[str, Any]:
        interrupt("send?", response_schema=Decision)
        sent.append("email")
        await asyncio.sleep(0.05)
        return {"log": ["sent"]}

    async def check(state: Log) -> dict[str, Any]:
        interrupt("check?", response_schema=Decision)
        return {"log": ["checked"]}

    builder = StateGraph(Log)
    builder.add_node("send", send)
    builder.add_node("check", check)
    builder.add_edge(START, "send")
    builder.add_edge(START, "check")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}

    async def main() -> tuple[list[Any], dict[str, Any]]:
        await graph.ainvoke({"log": []}, config)
        ids = {i.value: i.id for i in (await graph.aget_state(config)).interrupts}
        answers = {ids["send?"]: {"approved": True}, ids["check?"]: {"approved": "nope"}}
        with pytest.raises(ValidationError):
            await graph.ainvoke(Command(resume=answers), config)
        pending = [i.value for i in (await graph.aget_state(config)).interrupts]
        out = await graph.ainvoke(Command(resume={ids["check?"]: {"approved": True}}), config)
        return pending, out

    pending, out = asyncio.run(main())
    assert pending == ["check?"]
    assert (sorted(out["log"]), sent) == (["checked", "sent"], ["email"])
