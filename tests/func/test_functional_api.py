"""The functional API (`foldgraph.func`): entrypoint and task.

Every expected value was produced by running the same program on LangGraph
1.2.22 (ids aside: LangGraph hashes with xxh3, foldgraph with blake2b).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, TypedDict

import pytest

from foldgraph.cache.memory import InMemoryCache
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.config import get_stream_writer
from foldgraph.func import entrypoint, task
from foldgraph.graph import START, StateGraph
from foldgraph.pregel import Pregel
from foldgraph.runtime import Runtime
from foldgraph.store.memory import InMemoryStore
from foldgraph.types import CachePolicy, Command, Interrupt, RetryPolicy, interrupt


def thread(name: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": name}}


def no_ids(chunks: list[Any]) -> list[Any]:
    """Stream chunks with interrupt ids blanked (they are hashes of task namespaces)."""
    out = []
    for chunk in chunks:
        if isinstance(chunk, dict) and "__interrupt__" in chunk:
            chunk = {
                **chunk,
                "__interrupt__": tuple(i.value for i in chunk["__interrupt__"]),
            }
        out.append(chunk)
    return out


# -- parallel tasks ---------------------------------------------------------------------------


@pytest.mark.timeout(10)
def test_tasks_called_together_run_in_parallel() -> None:
    # Three tasks that each wait for the other two: only parallel calls get past the barrier.
    barrier = threading.Barrier(3, timeout=5)

    @task
    def meet(n: int) -> int:
        barrier.wait()
        return n * 10

    @entrypoint()
    def fan_out(numbers: list[int]) -> list[int]:
        futures = [meet(n) for n in numbers]
        return [f.result() for f in futures]

    assert fan_out.invoke([1, 2, 3]) == [10, 20, 30]


@pytest.mark.timeout(10)
def test_async_tasks_run_concurrently_with_gather() -> None:
    started: list[int] = []

    async def main() -> list[int]:
        everyone = asyncio.Event()

        @task
        async def meet(n: int) -> int:
            started.append(n)
            if len(started) == 3:
                everyone.set()
            await asyncio.wait_for(everyone.wait(), 5)
            return n + 1

        @entrypoint()
        async def fan_out(numbers: list[int]) -> list[int]:
            return list(await asyncio.gather(*[meet(n) for n in numbers]))

        return await fan_out.ainvoke([1, 2, 3])

    assert asyncio.run(main()) == [2, 3, 4]


def test_workflow_stream_shows_each_task_then_the_entrypoint() -> None:
    @task
    def double(x: int) -> int:
        return 2 * x

    @task
    def add(a: int, b: int) -> int:
        return a + b

    @entrypoint()
    def workflow(n: int) -> int:
        a, b = double(n), double(n + 1)
        return add(a.result(), b.result()).result()

    chunks = list(workflow.stream(3))
    assert chunks[-2:] == [{"add": 14}, {"workflow": 14}]
    assert sorted(map(str, chunks[:2])) == ["{'double': 6}", "{'double': 8}"]
    assert workflow.invoke(3) == 14


# -- interrupt and resume --------------------------------------------------------------------


def test_resume_does_not_rerun_finished_tasks() -> None:
    calls: list[str] = []

    @task
    def write_essay(topic: str) -> str:
        calls.append(topic)
        return f"An essay about {topic}"

    @entrypoint(checkpointer=InMemorySaver())
    def review(topic: str) -> dict[str, Any]:
        essay = write_essay(topic).result()
        verdict = interrupt({"essay": essay, "action": "approve?"})
        return {"essay": essay, "approved": verdict}

    config = thread("essay")
    first = list(review.stream("cats", config))
    assert no_ids(first) == [
        {"write_essay": "An essay about cats"},
        {"__interrupt__": ({"essay": "An essay about cats", "action": "approve?"},)},
    ]
    state = review.get_state(config)
    assert state.next == ("review",)
    assert state.values is None
    assert [i.value for i in state.interrupts] == [
        {"essay": "An essay about cats", "action": "approve?"}
    ]
    resumed = list(review.stream(Command(resume=True), config))
    assert resumed == [{"review": {"essay": "An essay about cats", "approved": True}}]
    assert calls == ["cats"]
    assert review.get_state(config).values == {"essay": "An essay about cats", "approved": True}


def test_interrupts_inside_tasks_are_answered_one_by_one() -> None:
    calls: list[Any] = []

    @task
    def ask(question: str) -> str:
        calls.append(question)
        return f"{question}={interrupt(question)}"

    @task
    def prepare(x: int) -> int:
        calls.append(x)
        return x

    @entrypoint(checkpointer=InMemorySaver())
    def quiz(n: int) -> list[Any]:
        p = prepare(n).result()
        return [p, ask("a").result(), ask("b").result()]

    config = thread("quiz")
    assert no_ids(list(quiz.stream(3, config))) == [{"prepare": 3}, {"__interrupt__": ("a",)}]
    assert [t.name for t in quiz.get_state(config).tasks] == ["quiz"]
    assert no_ids(list(quiz.stream(Command(resume="A"), config))) == [
        {"ask": "a=A"},
        {"__interrupt__": ("b",)},
    ]
    assert list(quiz.stream(Command(resume="B"), config)) == [
        {"ask": "b=B"},
        {"quiz": [3, "a=A", "b=B"]},
    ]
    # As on LangGraph: an interrupted task runs again when resumed, a finished one never.
    assert calls == [3, "a", "a", "b", "b"]


def test_resume_by_interrupt_id_reaches_the_task() -> None:
    @task
    def ask(question: str) -> str:
        return interrupt(question)

    @entrypoint(checkpointer=InMemorySaver())
    def flow(_: int) -> str:
        return ask("name?").result()

    config = thread("by-id")
    flow.invoke(1, config)
    (pending,) = flow.get_state(config).interrupts
    assert flow.invoke(Command(resume={pending.id: "Ada"}), config) == "Ada"


def test_interrupt_without_checkpointer_returns_it_as_langgraph_does() -> None:
    @entrypoint()
    def flow(_: int) -> Any:
        return interrupt("x")

    out = flow.invoke(1)
    assert [i.value for i in out["__interrupt__"]] == ["x"]
    with pytest.raises(RuntimeError, match="without checkpointer"):
        flow.invoke(Command(resume=1))


@pytest.mark.timeout(10)
def test_async_entrypoint_interrupt_and_resume() -> None:
    calls: list[int] = []

    async def main() -> tuple[list[Any], Any]:
        @task
        async def square(x: int) -> int:
            calls.append(x)
            await asyncio.sleep(0)
            return x * x

        @entrypoint(checkpointer=InMemorySaver())
        async def flow(xs: list[int]) -> Any:
            squares = await asyncio.gather(*[square(x) for x in xs])
            answer = interrupt(sum(squares))
            return (sum(squares), answer)

        config = thread("async")
        first = [c async for c in flow.astream([1, 2, 3], config)]
        return first, await flow.ainvoke(Command(resume="y"), config)

    first, final = asyncio.run(main())
    assert sorted(map(str, no_ids(first))) == [
        "{'__interrupt__': (14,)}",
        "{'square': 1}",
        "{'square': 4}",
        "{'square': 9}",
    ]
    assert final == (14, "y")
    assert sorted(calls) == [1, 2, 3]


def test_sync_entrypoint_under_ainvoke_may_call_async_tasks() -> None:
    @task
    async def inc(x: int) -> int:
        return x + 1

    @entrypoint()
    def flow(x: int) -> int:
        return inc(x).result()

    assert asyncio.run(flow.ainvoke(1)) == 2


# -- previous and entrypoint.final ------------------------------------------------------------


def test_previous_carries_the_last_return_across_runs_of_a_thread() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def counter(n: int, *, previous: int | None = None) -> int:
        return (previous or 0) + n

    config = thread("counter")
    assert [counter.invoke(i, config) for i in (1, 2, 3)] == [1, 3, 6]
    assert counter.get_state(config).values == 6
    assert list(counter.stream(4, config, stream_mode="values")) == [10]
    assert counter.invoke(5, thread("other")) == 5


def test_final_returns_one_value_and_saves_another() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def accumulate(n: int, *, previous: int | None = None) -> entrypoint.final[int, int]:
        previous = previous or 0
        return entrypoint.final(value=previous, save=previous + n)

    config = thread("acc")
    assert [accumulate.invoke(n, config) for n in (1, 2, 3)] == [0, 1, 3]
    assert accumulate.get_state(config).values == 3


# -- retries and cache -------------------------------------------------------------------------


def test_task_retry_and_cache_policies() -> None:
    counts = {"slow": 0, "flaky": 0}

    @task(cache_policy=CachePolicy())
    def slow(x: int) -> int:
        counts["slow"] += 1
        return x * 10

    @task(retry_policy=RetryPolicy(max_attempts=3, initial_interval=0.001, jitter=False))
    def flaky(x: int) -> int:
        counts["flaky"] += 1
        if counts["flaky"] < 3:
            raise ConnectionError("boom")
        return x

    @entrypoint(cache=InMemoryCache())
    def flow(x: int) -> list[int]:
        return [slow(x).result(), slow(x).result(), flaky(x).result()]

    assert list(flow.stream(2, stream_mode="updates")) == [
        {"slow": 20},
        {"slow": 20, "__metadata__": {"cached": True}},
        {"flaky": 2},
        {"flow": [20, 20, 2]},
    ]
    assert counts == {"slow": 1, "flaky": 3}
    assert list(flow.stream(2, stream_mode="updates")) == [
        {"slow": 20, "__metadata__": {"cached": True}},
        {"slow": 20, "__metadata__": {"cached": True}},
        {"flaky": 2},
        {"flow": [20, 20, 2]},
    ]
    assert counts == {"slow": 1, "flaky": 4}
    slow.clear_cache(flow.cache)
    flow.invoke(2)
    assert counts["slow"] == 2


def test_a_failing_task_raises_into_its_caller() -> None:
    @task
    def boom(_: int) -> int:
        raise KeyError("nope")

    @entrypoint()
    def flow(x: int) -> str:
        try:
            boom(x).result()
        except KeyError as exc:
            return f"caught {exc}"
        return "no"

    assert flow.invoke(1) == "caught 'nope'"


# -- streams, state, history -------------------------------------------------------------------


def test_tasks_stream_mode_shows_calls_as_push_tasks() -> None:
    @task
    def double(x: int) -> int:
        return 2 * x

    @entrypoint()
    def flow(x: int) -> int:
        return double(x).result()

    events = [
        {k: v for k, v in e.items() if k != "id"} for e in flow.stream(4, stream_mode="tasks")
    ]
    assert events == [
        {"name": "flow", "input": 4, "triggers": ("__start__",)},
        {"name": "double", "input": ((4,), {}), "triggers": ("__pregel_push",)},
        {"name": "double", "error": None, "result": {"__return__": 8}, "interrupts": []},
        {"name": "flow", "error": None, "result": {"__end__": 8}, "interrupts": []},
    ]


@pytest.mark.foldgraph_only("ends with verify_replay, which LangGraph does not have")
def test_history_and_replay_of_an_entrypoint_thread() -> None:
    calls: list[str] = []

    @task
    def step_a(x: int) -> int:
        calls.append("a")
        return x + 1

    @task
    def step_b(x: int) -> int:
        calls.append("b")
        return x * 2

    @entrypoint(checkpointer=InMemorySaver())
    def flow(x: int) -> int:
        return step_b(step_a(x).result()).result()

    config = thread("tt")
    assert flow.invoke(3, config) == 8
    history = list(flow.get_state_history(config))
    shape = [(h.metadata["step"], h.metadata["source"], h.values, h.next) for h in history]
    assert shape == [(0, "loop", 8, ()), (-1, "input", None, ("flow",))]
    assert history[-1].tasks[0].result == 8
    # Replaying from the input checkpoint forks and runs the workflow again.
    assert flow.invoke(None, history[-1].config) == 8
    assert calls == ["a", "b", "a", "b"]
    history = list(flow.get_state_history(config))
    shape = [(h.metadata["step"], h.metadata["source"], h.values, h.next) for h in history]
    assert shape == [
        (1, "loop", 8, ()),
        (0, "fork", None, ("flow",)),
        (0, "loop", 8, ()),
        (-1, "input", None, ("flow",)),
    ]
    # foldgraph only: re-folding the thread's writes gives back every checkpoint.
    assert flow.verify_replay(config).ok


def test_values_stream_on_resume_starts_with_the_current_value() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def flow(x: int) -> dict[str, Any]:
        return {"x": x, "ok": interrupt("?")}

    config = thread("values")
    first = list(flow.stream(1, config, stream_mode="values"))
    assert no_ids(first) == [{"__interrupt__": ("?",)}]
    assert list(flow.stream(Command(resume=True), config, stream_mode="values")) == [
        None,
        {"x": 1, "ok": True},
    ]


# -- composition ---------------------------------------------------------------------------------


class S(TypedDict):
    x: int
    y: int


def test_entrypoint_as_a_node_of_a_state_graph() -> None:
    @task
    def double(x: int) -> int:
        return 2 * x

    @entrypoint()
    def inner(state: dict[str, Any]) -> dict[str, Any]:
        return {"y": double(state["x"]).result()}

    builder = StateGraph(S)
    builder.add_node("inner", inner)
    builder.add_edge(START, "inner")
    graph = builder.compile(checkpointer=InMemorySaver())
    assert graph.invoke({"x": 5}, thread("s")) == {"x": 5, "y": 10}
    chunks = list(graph.stream({"x": 6}, thread("s2"), subgraphs=True))
    assert [(len(ns), chunk) for ns, chunk in chunks] == [
        (1, {"double": 12}),
        (1, {"inner": {"y": 12}}),
        (0, {"inner": {"y": 12}}),
    ]
    assert chunks[0][0][0].startswith("inner:")


def test_task_called_from_a_state_graph_node() -> None:
    @task
    def inc(x: int) -> int:
        return x + 1

    def node(state: S) -> dict[str, int]:
        return {"y": inc(state["x"]).result()}

    builder = StateGraph(S)
    builder.add_node("node", node)
    builder.add_edge(START, "node")
    assert list(builder.compile().stream({"x": 1}, stream_mode="updates")) == [
        {"inc": 2},
        {"node": {"y": 2}},
    ]


def test_injected_parameters() -> None:
    store = InMemoryStore()
    seen: dict[str, Any] = {}

    @entrypoint(checkpointer=InMemorySaver(), store=store)
    def flow(
        x: int,
        *,
        previous=None,  # unannotated: LangGraph injects by name
        config=None,
        runtime=None,
        store=None,
        writer=None,
    ) -> int:
        writer({"got": x})
        seen.update(
            previous=previous,
            thread=config["configurable"]["thread_id"],
            runtime_store=runtime.store is store,
        )
        return x

    config = thread("inject")
    flow.invoke(1, config)
    assert list(flow.stream(2, config, stream_mode=["custom", "updates"])) == [
        ("custom", {"got": 2}),
        ("updates", {"flow": 2}),
    ]
    assert seen == {"previous": 1, "thread": "inject", "runtime_store": True}


def test_tasks_get_injected_parameters_too() -> None:
    store = InMemoryStore()

    @task(retry_policy=RetryPolicy(max_attempts=3, initial_interval=0.001, jitter=False))
    def flaky(x: int, runtime: Runtime) -> dict[str, Any]:
        info = runtime.execution_info
        assert info is not None
        if info.node_attempt == 1:
            raise ConnectionError("blip")
        return {
            "ns": info.checkpoint_ns.split("|")[-1].split(":")[0],
            "own_id": info.checkpoint_ns.endswith(f":{info.task_id}"),
            "attempt": info.node_attempt,
            "thread": info.thread_id,
            "context": runtime.context,
            "store": runtime.store is store,
        }

    @task
    def named(x: int, config=None, store=None, writer=None) -> list[str]:
        writer(f"named {x}")
        return [type(config).__name__, type(store).__name__, config["configurable"]["thread_id"]]

    @task
    async def keyword_only(x: int, *, runtime: Runtime) -> str:
        return type(runtime).__name__

    @task
    def given(x: int, config: Any = None) -> Any:
        return config

    @entrypoint(checkpointer=InMemorySaver(), store=store)
    def flow(x: int, *, runtime: Runtime) -> dict[str, Any]:
        return {
            "flaky": flaky(x).result(),
            "named": named(x).result(),
            "given": given(x, config=7).result(),
        }

    config = thread("task-inject")
    chunks = list(flow.stream(1, config, stream_mode=["custom", "values"], context={"k": 1}))
    assert chunks == [
        ("custom", "named 1"),
        (
            "values",
            {
                "flaky": {
                    "ns": "flaky",
                    "own_id": True,
                    "attempt": 2,
                    "thread": "task-inject",
                    "context": {"k": 1},
                    "store": True,
                },
                "named": ["dict", "InMemoryStore", "task-inject"],
                "given": 7,
            },
        ),
    ]

    @entrypoint()
    async def aflow(x: int) -> str:
        return await keyword_only(x)

    assert asyncio.run(aflow.ainvoke(1)) == "Runtime"


def test_an_entrypoint_is_a_pregel_with_a_graph() -> None:
    @entrypoint()
    def wf(x: int) -> int:
        return x

    assert isinstance(wf, Pregel)
    assert wf.get_name() == "LangGraph"
    assert wf.get_graph().draw_mermaid() == (
        "---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n"
        "\twf(wf)\n"
        "\t__start__([<p>__start__</p>]):::first\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> wf;\n"
        "\twf -.-> __end__;\n"
        "\tclassDef default fill:#f2f0ff,line-height:1.2\n"
        "\tclassDef first fill-opacity:0\n"
        "\tclassDef last fill:#bfb6fc\n"
    )


# -- bad input -----------------------------------------------------------------------------------


@pytest.mark.foldgraph_only("LangGraph accepts @task on a non-callable and fails on the call")
def test_task_on_a_non_callable_is_a_type_error() -> None:
    # LangGraph accepts it and fails later, on the call; foldgraph says so at once.
    with pytest.raises(TypeError, match="@task decorates a function"):
        task(3)  # type: ignore[call-overload]


def test_entrypoint_bad_functions() -> None:
    with pytest.raises(ValueError, match="Entrypoint function must have at least one parameter"):

        @entrypoint()
        def none() -> int:
            return 1

    with pytest.raises(NotImplementedError, match="Generators are not supported"):

        @entrypoint()
        def gen(x: int) -> Any:
            yield x


def test_task_outside_a_run_and_async_task_in_sync_run() -> None:
    @task
    def plain(x: int) -> int:
        return x

    with pytest.raises(RuntimeError, match="Called get_config outside of a runnable context"):
        plain(1)

    @task
    async def coro(x: int) -> int:
        return x

    @entrypoint()
    def flow(x: int) -> int:
        return coro(x).result()

    with pytest.raises(RuntimeError, match="In an sync context async tasks cannot be called"):
        flow.invoke(1)


def test_timeout_on_a_sync_task_is_refused_as_langgraph_does() -> None:
    with pytest.raises(ValueError, match="Task 'sync_fn' is sync"):

        @task(timeout=1.0)
        def sync_fn(x: int) -> int:
            return x

    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        task(timeout=-1)


def test_interrupt_values_are_interrupt_records() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def flow(x: int) -> Any:
        return interrupt(x)

    out = flow.invoke(7, thread("rec"))
    (intr,) = out["__interrupt__"]
    assert isinstance(intr, Interrupt)
    assert intr.value == 7


@pytest.mark.timeout(10)
def test_async_task_timeout_raises_into_the_caller() -> None:
    from foldgraph.errors import NodeTimeoutError

    @task(timeout=0.05)
    async def stuck(x: int) -> int:
        await asyncio.sleep(30)
        return x

    @entrypoint()
    async def flow(x: int) -> str:
        try:
            await stuck(x)
        except NodeTimeoutError as exc:
            return f"{exc.node} {exc.kind}"
        return "no"

    assert asyncio.run(flow.ainvoke(1)) == "stuck run"


def test_durability_exit_keeps_finished_tasks_across_an_interrupt() -> None:
    calls: list[int] = []

    @task
    def work(x: int) -> int:
        calls.append(x)
        return x * 2

    @entrypoint(checkpointer=InMemorySaver())
    def flow(x: int) -> dict[str, Any]:
        y = work(x).result()
        return {"y": y, "ok": interrupt(y)}

    config = thread("exit")
    flow.invoke(3, config, durability="exit")
    assert flow.invoke(Command(resume=True), config, durability="exit") == {"y": 6, "ok": True}
    assert calls == [3]


@pytest.mark.timeout(10)
def test_cancelled_entrypoint_keeps_the_tasks_that_finished() -> None:
    calls: list[str] = []

    async def main() -> Any:
        quick_done = asyncio.Event()

        @task
        async def quick() -> str:
            calls.append("quick")
            quick_done.set()
            return "q"

        @task
        async def slow() -> str:
            calls.append("slow")
            if calls.count("slow") == 1:
                await asyncio.sleep(30)  # cancelled with the run
            return "s"

        @entrypoint(checkpointer=InMemorySaver())
        async def flow(_: int) -> list[str]:
            return list(await asyncio.gather(quick(), slow()))

        config = thread("cancel")
        run = asyncio.ensure_future(flow.ainvoke(1, config))
        await asyncio.wait_for(quick_done.wait(), 10)
        await asyncio.sleep(0.01)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        return await flow.ainvoke(None, config)

    assert asyncio.run(main()) == ["q", "s"]
    assert calls == ["quick", "slow", "slow"]


def test_a_task_read_back_on_resume_shows_only_its_start() -> None:
    @task
    def double(x: int) -> int:
        return 2 * x

    @entrypoint(checkpointer=InMemorySaver())
    def flow(n: int) -> dict[str, Any]:
        v = double(n).result()
        return {"v": v, "ok": interrupt(v)}

    config = thread("reuse")
    flow.invoke(3, config)
    events = [
        {k: v for k, v in e.items() if k != "id"}
        for e in flow.stream(Command(resume=1), config, stream_mode="tasks")
    ]
    assert events == [
        {"name": "flow", "input": 3, "triggers": ("__start__",)},
        {"name": "double", "input": ((3,), {}), "triggers": ("__pregel_push",)},
        {"name": "flow", "error": None, "result": {"__end__": {"v": 6, "ok": 1}}, "interrupts": []},
    ]


# -- stream modes of parallel task calls ----------------------------------------------------------


def _parallel_flow() -> Any:
    fast_done = threading.Event()

    @task
    def slow(x: int) -> int:
        assert fast_done.wait(5)
        # `fast` sets the event just before it returns: give its result time to be
        # reported first (LangGraph, under a full suite's load, otherwise lost the race).
        time.sleep(0.2)
        get_stream_writer()(f"slow {x}")
        return x * 2

    @task
    def fast(x: int) -> int:
        get_stream_writer()(f"fast {x}")
        fast_done.set()
        return x + 1

    @entrypoint(checkpointer=InMemorySaver())
    def flow(n: int) -> dict[str, Any]:
        first, second = slow(n), fast(n)
        got = [first.result(), second.result()]
        get_stream_writer()("main")
        return {"got": got, "ok": interrupt(got)}

    return flow


def _plain(chunk: Any) -> Any:
    """A chunk without ids, checkpoint configs or timestamps (they differ between runs)."""
    if isinstance(chunk, dict):
        dropped = ("id", "config", "parent_config", "timestamp")
        return {k: _plain(v) for k, v in chunk.items() if k not in dropped}
    if isinstance(chunk, tuple) and chunk and isinstance(chunk[0], Interrupt):
        return tuple(i.value for i in chunk)
    if isinstance(chunk, list | tuple):
        return type(chunk)(_plain(v) for v in chunk)
    return chunk


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("mode", "first", "resumed"),
    [
        (
            "updates",
            [{"fast": 4}, {"slow": 6}, {"__interrupt__": ([6, 4],)}],
            [{"flow": {"got": [6, 4], "ok": "y"}}],
        ),
        ("values", [{"__interrupt__": ([6, 4],)}], [None, {"got": [6, 4], "ok": "y"}]),
        ("custom", ["fast 3", "slow 3", "main"], ["main"]),
        (
            "checkpoints",
            [
                {
                    "values": None,
                    "metadata": {"source": "input", "step": -1, "parents": {}},
                    "next": ["flow"],
                    "tasks": [{"name": "flow", "interrupts": (), "state": None}],
                }
            ],
            [
                {
                    "values": None,
                    "metadata": {"source": "input", "step": -1, "parents": {}},
                    "next": ["flow"],
                    "tasks": [
                        {
                            "name": "flow",
                            "interrupts": ({"value": [6, 4], "response_schema": None},),
                            "state": None,
                        }
                    ],
                },
                {
                    "values": {"got": [6, 4], "ok": "y"},
                    "metadata": {"source": "loop", "step": 0, "parents": {}},
                    "next": [],
                    "tasks": [],
                },
            ],
        ),
    ],
)
def test_stream_modes_of_parallel_task_calls(mode: str, first: Any, resumed: Any) -> None:
    flow = _parallel_flow()
    config = thread(f"modes-{mode}")
    assert [_plain(c) for c in flow.stream(3, config, stream_mode=mode)] == first
    assert [
        _plain(c) for c in flow.stream(Command(resume="y"), config, stream_mode=mode)
    ] == resumed


@pytest.mark.timeout(20)
def test_debug_stream_of_parallel_task_calls_shows_results_as_they_end() -> None:
    flow = _parallel_flow()
    config = thread("modes-debug")
    events = [
        (e["step"], e["type"], e["payload"].get("name"))
        for e in flow.stream(3, config, stream_mode="debug")
    ]
    results = [e for e in events if e[1] == "task_result"]
    assert events[0] == (-1, "checkpoint", None)
    assert results == [
        (0, "task_result", "fast"),
        (0, "task_result", "slow"),
        (0, "task_result", "flow"),
    ]
    resumed = [
        (e["step"], e["type"], e["payload"].get("name"))
        for e in flow.stream(Command(resume="y"), config, stream_mode="debug")
    ]
    assert resumed == [
        (-1, "checkpoint", None),
        (0, "task", "flow"),
        (0, "task", "slow"),
        (0, "task", "fast"),
        (0, "task_result", "flow"),
        (0, "checkpoint", None),
    ]


@pytest.mark.timeout(20)
def test_parallel_task_calls_stream_their_starts_when_made() -> None:
    flow = _parallel_flow()
    events = [
        ("result" if "result" in e else "start", e["name"])
        for e in flow.stream(3, thread("modes-tasks"), stream_mode="tasks")
    ]
    # Starts stream as the calls are made; `slow` may finish as soon as `fast` has set
    # the event, before `fast` returns, so the two results come in either order.
    assert events[:3] == [("start", "flow"), ("start", "slow"), ("start", "fast")]
    assert sorted(events[3:5]) == [("result", "fast"), ("result", "slow")]
    assert events[5:] == [("result", "flow")]
