"""Per-node error handlers and `set_node_defaults`, as in LangGraph 1.2.

Expected values come from running the same programs on LangGraph 1.2.22.
"""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import NodeError
from foldgraph.graph import END, START, StateGraph
from foldgraph.runtime import Runtime
from foldgraph.types import CachePolicy, Command, RetryPolicy, TimeoutPolicy, interrupt

FAST = RetryPolicy(max_attempts=2, initial_interval=0.001, jitter=False)


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def policies(value: Any) -> tuple[RetryPolicy, ...]:
    """A node's retry policies as a tuple (LangGraph keeps a tuple, foldgraph what was given)."""
    return (value,) if isinstance(value, RetryPolicy) else tuple(value)


def after(state: S) -> dict[str, Any]:
    return {"log": ["after"]}


def chain(bad: Any, **options: Any) -> StateGraph[Any, Any, Any, Any]:
    builder = StateGraph(S)
    builder.add_node("bad", bad, **options)
    builder.add_node("after", after)
    builder.add_edge(START, "bad")
    builder.add_edge("bad", "after")
    return builder


def test_own_handler_recovers_after_retries_counting_attempts() -> None:
    attempts: list[int] = []

    def bad(state: S, runtime: Runtime) -> dict[str, Any]:
        assert runtime.execution_info is not None
        attempts.append(runtime.execution_info.node_attempt)
        raise ConnectionError("down")

    def handler(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"handled {error.node}: {type(error.error).__name__} {error.error}"]}

    graph = chain(bad, error_handler=handler, retry_policy=FAST).compile(
        checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": "1"}}
    assert list(graph.stream({"log": []}, config, stream_mode=["updates", "values"])) == [
        ("values", {"log": []}),
        ("updates", {"__error_handler__bad": {"log": ["handled bad: ConnectionError down"]}}),
        ("values", {"log": ["handled bad: ConnectionError down"]}),
    ]
    assert attempts == [1, 2]
    # The handler's update stands for the node's: the node's own edges do not fire.
    history = [
        (h.metadata["step"], h.next, [(t.name, t.error) for t in h.tasks], h.values)
        for h in graph.get_state_history(config)
    ]
    assert history == [
        (1, (), [], {"log": ["handled bad: ConnectionError down"]}),
        (0, ("bad",), [("bad", "ConnectionError('down')")], {"log": []}),
        (-1, ("__start__",), [("__start__", None)], {"log": []}),
    ]
    assert list(graph.nodes) == ["__start__", "__error_handler__bad", "bad", "after"]


def bad(state: S) -> dict[str, Any]:
    raise ConnectionError("down")


def test_handler_may_route_on_with_a_command() -> None:
    def handler(state: S, error: NodeError) -> Command[Any]:
        return Command(update={"log": ["h2"]}, goto="after")

    assert chain(bad, error_handler=handler).compile().invoke({"log": []}) == {
        "log": ["h2", "after"]
    }

    def to_end(state: S, error: NodeError) -> Command[Any]:
        return Command(update={"log": ["h2"]}, goto=END)

    assert chain(bad, error_handler=to_end).compile().invoke({"log": []}) == {"log": ["h2"]}


def test_default_handler_from_set_node_defaults() -> None:
    def fallback(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"default {error.node}"]}

    builder = chain(bad).set_node_defaults(error_handler=fallback)
    assert builder.compile().invoke({"log": []}) == {"log": ["default bad"]}


@pytest.mark.foldgraph_only(
    "LangGraph refuses a second compile() of a builder with a default handler"
)
def test_a_builder_with_a_default_handler_compiles_twice() -> None:
    def fallback(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"default {error.node}"]}

    builder = chain(bad).set_node_defaults(error_handler=fallback)
    assert builder.compile().invoke({"log": []}) == {"log": ["default bad"]}
    # compile() leaves the builder as it was: compiling twice works (LangGraph 1.2.22
    # refuses a second compile(), its default handler node being already added).
    assert builder.compile().invoke({"log": []}) == {"log": ["default bad"]}


def test_own_handler_wins_over_the_default() -> None:
    def own(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": ["own"]}

    def fallback(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": ["default"]}

    builder = chain(bad, error_handler=own).set_node_defaults(error_handler=fallback)
    assert builder.compile().invoke({"log": []}) == {"log": ["own"]}


def test_interrupts_never_reach_a_handler() -> None:
    def asks(state: S) -> dict[str, Any]:
        return {"log": [interrupt("q")]}

    def fallback(state: S, error: NodeError) -> dict[str, Any]:
        raise AssertionError("an interrupt is not an error")

    builder = StateGraph(S).set_node_defaults(error_handler=fallback)
    builder.add_node("asks", asks)
    builder.add_edge(START, "asks")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "i"}}
    first = graph.invoke({"log": []}, config)
    assert [i.value for i in first["__interrupt__"]] == ["q"]
    assert graph.invoke(Command(resume="A"), config) == {"log": ["A"]}


def test_a_failing_handler_fails_the_run_with_its_own_error() -> None:
    def broken(state: S, error: NodeError) -> dict[str, Any]:
        raise KeyError("handler broke")

    with pytest.raises(KeyError, match="handler broke"):
        chain(bad, error_handler=broken).compile().invoke({"log": []})


def test_default_retry_covers_handlers_default_cache_does_not() -> None:
    calls = {"handler": 0}

    def flaky_handler(state: S, error: NodeError) -> dict[str, Any]:
        calls["handler"] += 1
        if calls["handler"] == 1:
            raise ConnectionError("handler blip")
        return {"log": ["recovered"]}

    builder = chain(bad, error_handler=flaky_handler).set_node_defaults(
        retry_policy=FAST, cache_policy=CachePolicy()
    )
    graph = builder.compile()
    handler = graph.nodes["__error_handler__bad"]
    assert policies(handler.retry_policy) == (FAST,)
    assert handler.cache_policy is None
    assert graph.nodes["bad"].cache_policy == CachePolicy()
    assert graph.invoke({"log": []}) == {"log": ["recovered"]}
    assert calls["handler"] == 2


def test_per_node_policies_win_over_defaults() -> None:
    own = RetryPolicy(max_attempts=5)
    builder = chain(bad, retry_policy=own).set_node_defaults(retry_policy=FAST)
    graph = builder.compile()
    assert policies(graph.nodes["bad"].retry_policy) == (own,)
    assert policies(graph.nodes["after"].retry_policy) == (FAST,)


@pytest.mark.timeout(10)
def test_async_handler() -> None:
    async def abad(state: S) -> dict[str, Any]:
        raise ConnectionError("down")

    async def handler(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"async handled {error.node}"]}

    graph = chain(abad, error_handler=handler).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["async handled bad"]}


def test_bad_handlers_and_timeouts_are_refused() -> None:
    for handler in (3, "nonexistent"):
        with pytest.raises(TypeError, match="Expected a Runnable, callable or dict"):
            chain(bad, error_handler=handler)
    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        chain(bad, timeout=-1)
    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        chain(bad, timeout=0)
    with pytest.raises(ValueError, match="idle_timeout must be greater than 0"):
        chain(bad, timeout=TimeoutPolicy(idle_timeout=-1))
    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        StateGraph(S).set_node_defaults(timeout=0)


@pytest.mark.foldgraph_only("LangGraph refuses a non-callable default handler only at compile()")
def test_a_bad_default_handler_is_refused_where_it_is_given() -> None:
    # LangGraph finds this one only at compile(); foldgraph says so where it is given.
    with pytest.raises(TypeError, match="Expected a Runnable, callable or dict"):
        StateGraph(S).set_node_defaults(error_handler=3)


def test_tasks_stream_shows_the_failure_then_the_handler() -> None:
    def handler(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": ["h"]}

    def fails(state: S) -> dict[str, Any]:
        raise KeyError("x")

    builder = StateGraph(S)
    builder.add_node("bad", fails, error_handler=handler)
    builder.add_edge(START, "bad")
    events = [
        {k: v for k, v in e.items() if k != "id"}
        for e in builder.compile().stream({"log": []}, stream_mode="tasks")
    ]
    assert [(e["name"], repr(e.get("error")), e.get("result")) for e in events] == [
        ("bad", "None", None),
        ("bad", "KeyError('x')", {}),
        ("__error_handler__bad", "None", {"log": ["h"]}),
    ]


def _without_ids(chunk: tuple[str, Any]) -> tuple[str, Any]:
    mode, data = chunk
    if mode == "tasks":
        return mode, {k: v for k, v in data.items() if k != "id"}
    if mode == "checkpoints":
        return mode, (
            data["next"],
            [(t["name"], t.get("error"), t.get("result")) for t in data["tasks"]],
        )
    return chunk


def test_a_handler_that_interrupts_is_resumed_without_running_the_node_again() -> None:
    calls: list[Any] = []

    def fails(state: S) -> dict[str, Any]:
        calls.append("bad")
        raise ValueError("down")

    def good(state: S) -> dict[str, Any]:
        calls.append("good")
        return {"log": ["good"]}

    def asks(state: S, error: NodeError) -> dict[str, Any]:
        calls.append(("handler", error.node, error.error))
        return {"log": [f"answer {interrupt(f'fix {error.node}?')}"]}

    builder = StateGraph(S)
    builder.add_node("bad", fails, error_handler=asks)
    builder.add_node("good", good)
    builder.add_node("after", after)
    builder.add_edge(START, "bad")
    builder.add_edge(START, "good")
    builder.add_edge("bad", "after")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    first = graph.invoke({"log": []}, config)
    assert [i.value for i in first["__interrupt__"]] == ["fix bad?"]
    assert first["log"] == ["good"]
    (error,) = [c[2] for c in calls if isinstance(c, tuple)]
    assert repr(error) == "ValueError('down')"
    modes = ["updates", "tasks", "values", "checkpoints"]
    chunks = [
        _without_ids(c) for c in graph.stream(Command(resume="yes"), config, stream_mode=modes)
    ]
    assert chunks == [
        ("values", {"log": []}),
        (
            "checkpoints",
            (
                ["bad", "good"],
                [("bad", "ValueError('down')", None), ("good", None, {"log": ["good"]})],
            ),
        ),
        ("tasks", {"name": "bad", "input": {"log": []}, "triggers": ("branch:to:bad",)}),
        ("tasks", {"name": "good", "input": {"log": []}, "triggers": ("branch:to:good",)}),
        (
            "tasks",
            {"name": "__error_handler__bad", "input": {"log": []}, "triggers": ("__pregel_push",)},
        ),
        ("updates", {"good": {"log": ["good"]}, "__metadata__": {"cached": True}}),
        ("updates", {"__error_handler__bad": {"log": ["answer yes"]}}),
        (
            "tasks",
            {
                "name": "__error_handler__bad",
                "error": None,
                "result": {"log": ["answer yes"]},
                "interrupts": [],
            },
        ),
        ("values", {"log": ["answer yes", "good"]}),
        ("checkpoints", ([], [])),
    ]
    # The node ran once; on the resume its handler gets the error as saved: its text.
    # The handler starts as soon as its node fails, while "good" may still run.
    first_run = ["bad", "good", ("handler", "bad", error)]
    assert sorted(calls[:3], key=repr) == sorted(first_run, key=repr)
    assert calls.index("bad") < calls.index(("handler", "bad", error))
    assert calls[3:] == [("handler", "bad", "ValueError('down')")]
    assert [
        (h.metadata["step"], h.next, [(t.name, t.error) for t in h.tasks], h.values)
        for h in graph.get_state_history(config)
    ] == [
        (1, (), [], {"log": ["answer yes", "good"]}),
        (0, ("bad", "good"), [("bad", "ValueError('down')"), ("good", None)], {"log": []}),
        (-1, ("__start__",), [("__start__", None)], {"log": []}),
    ]


@pytest.mark.timeout(10)
def test_an_async_handler_that_interrupts_is_resumed_too() -> None:
    calls: list[str] = []

    async def fails(state: S) -> dict[str, Any]:
        calls.append("bad")
        raise ValueError("down")

    async def asks(state: S, error: NodeError) -> dict[str, Any]:
        calls.append("handler")
        return {"log": [f"answer {interrupt('fix?')}"]}

    graph = chain(fails, error_handler=asks).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "a"}}

    async def main() -> tuple[Any, Any]:
        first = await graph.ainvoke({"log": []}, config)
        return first, await graph.ainvoke(Command(resume="y"), config)

    first, second = asyncio.run(main())
    assert [i.value for i in first["__interrupt__"]] == ["fix?"]
    assert second == {"log": ["answer y"]}
    assert calls == ["bad", "handler", "handler"]


def test_a_handler_on_a_subgraph_node_handles_the_subgraph_failure() -> None:
    inner = StateGraph(S)
    inner.add_node("inner", bad)
    inner.add_edge(START, "inner")

    def handler(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"handled {error.node} {error.error!r}"]}

    graph = chain(inner.compile(), error_handler=handler).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "s"}}
    assert list(graph.stream({"log": []}, config, subgraphs=True)) == [
        ((), {"__error_handler__bad": {"log": ["handled bad ConnectionError('down')"]}}),
    ]
    assert [
        (h.metadata["step"], h.next, [(t.name, t.error) for t in h.tasks])
        for h in graph.get_state_history(config)
    ] == [
        (1, (), []),
        (0, ("bad",), [("bad", "ConnectionError('down')")]),
        (-1, ("__start__",), [("__start__", None)]),
    ]


def test_node_defaults_are_not_inherited_by_subgraphs() -> None:
    seen: list[str] = []

    def fallback(state: S, error: NodeError) -> dict[str, Any]:
        seen.append(error.node)
        return {"log": [f"default {error.node}"]}

    inner = StateGraph(S)
    inner.add_node("inner", bad)
    inner.add_edge(START, "inner")
    sub = inner.compile()
    outer = StateGraph(S).set_node_defaults(error_handler=fallback)
    outer.add_node("sub", sub)
    outer.add_edge(START, "sub")
    graph = outer.compile()
    # The outer default handles the subgraph node as a whole; the subgraph keeps its nodes.
    assert graph.invoke({"log": []}) == {"log": ["default sub"]}
    assert seen == ["sub"]
    assert sorted(sub.nodes) == ["__start__", "inner"]
    assert sorted(graph.nodes) == ["__default_error_handler__", "__start__", "sub"]
    # Defaults set on the subgraph's own builder do apply inside it.
    inner_defaults = StateGraph(S).set_node_defaults(error_handler=fallback)
    inner_defaults.add_node("inner", bad)
    inner_defaults.add_edge(START, "inner")
    plain = StateGraph(S)
    plain.add_node("sub", inner_defaults.compile())
    plain.add_edge(START, "sub")
    assert plain.compile().invoke({"log": []}) == {"log": ["default inner"]}
    assert seen == ["sub", "inner"]
