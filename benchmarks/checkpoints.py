"""Workload 4, issue "checkpoints": a 2-node message loop keeping every checkpoint.

``agent`` appends one AIMessage (with one tool call) through ``add_messages``;
``tools`` answers it with one ToolMessage; a conditional edge after each node
stops once n messages were appended, so a run is n supersteps and keeps
about n + 2 checkpoints in an ``InMemorySaver``.
"""

import gc
import statistics
import time
import tracemalloc
import weakref
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from benchmarks._harness import Lib, Metric, Settings, Workload, adaptive_time, check

THREAD = {"configurable": {"thread_id": "bench-thread"}}


def build_loop(lib: Lib, n: int, checkpointer: Any) -> Any:
    g = lib.graph
    add_messages = lib.message.add_messages

    # No `from __future__ import annotations` in this module: the annotation is
    # evaluated here, so the schema carries this library's own add_messages.
    class LoopState(TypedDict):
        messages: Annotated[list, add_messages]

    def agent(state: Any) -> dict[str, list[Any]]:
        k = len(state["messages"])
        call = {"name": "lookup", "args": {"q": k}, "id": f"call-{k}"}
        return {"messages": [AIMessage(content=f"step {k}", id=f"ai-{k}", tool_calls=[call])]}

    def tools(state: Any) -> dict[str, list[Any]]:
        k = len(state["messages"])
        call_id = state["messages"][-1].tool_calls[0]["id"]
        return {
            "messages": [ToolMessage(content=f"result {k}", id=f"tool-{k}", tool_call_id=call_id)]
        }

    def after_agent(state: Any) -> str:
        return g.END if len(state["messages"]) > n else "tools"

    def after_tools(state: Any) -> str:
        return g.END if len(state["messages"]) > n else "agent"

    builder = g.StateGraph(LoopState)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(g.START, "agent")
    builder.add_conditional_edges("agent", after_agent, ["tools", g.END])
    builder.add_conditional_edges("tools", after_tools, ["agent", g.END])
    return builder.compile(checkpointer=checkpointer)


def _inputs() -> dict[str, Any]:
    return {"messages": [HumanMessage(content="go", id="human-0")]}


def _config(n: int) -> dict[str, Any]:
    return {**THREAD, "recursion_limit": n + 10}


def timed_run(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    graph = build_loop(lib, n, lib.memory.InMemorySaver())
    config = _config(n)
    stamps: list[float] = []
    gc.collect()
    t0 = time.perf_counter()
    for _chunk in graph.stream(_inputs(), config, stream_mode="updates"):
        stamps.append(time.perf_counter())
    total = time.perf_counter() - t0
    check(len(stamps) == n, f"stream yielded {len(stamps)} update chunks, expected {n}")

    steps = [b - a for a, b in zip([t0, *stamps[:-1]], stamps, strict=True)]
    tenth = max(1, n // 10)
    first = statistics.fmean(steps[:tenth])
    last = statistics.fmean(steps[-tenth:])

    final = graph.get_state(THREAD)
    check(
        len(final.values["messages"]) == n + 1,
        f"final state has {len(final.values['messages'])} messages, expected {n + 1}",
    )

    gc.collect()
    t0 = time.perf_counter()
    history = list(graph.get_state_history(THREAD))
    t_history = time.perf_counter() - t0
    check(len(history) >= n, f"history has {len(history)} checkpoints for {n} steps")

    # history is newest first; [-1] is the input checkpoint, [-11] ~10 steps in.
    early = history[-11] if len(history) >= 11 else history[-1]
    want = len(early.values.get("messages", []))
    snap = graph.get_state(early.config)
    check(
        len(snap.values.get("messages", [])) == want,
        f"get_state(early) has {len(snap.values.get('messages', []))} messages, expected {want}",
    )
    t_get = adaptive_time(lambda: graph.get_state(early.config), settings, max_repeats=50)

    return {
        "total": total,
        "first": first,
        "last": last,
        "growth": last / first,
        "checkpoints": len(history),
        "history": t_history,
        "get_state": t_get,
    }


def saver_memory(lib: Lib, n: int) -> float:
    """Bytes retained by the saver after an n-step run.

    tracemalloc traces the run; after it, the graph and its output are
    dropped and the traced total is read; then the saver is dropped too and
    the total read again. The difference is exactly what only the saver kept
    alive: checkpoints, blobs, pending writes, the message objects (or
    serialized bytes) inside them -- whatever representation the library uses.
    """
    gc.collect()
    tracemalloc.start()
    try:
        saver = lib.memory.InMemorySaver()
        graph = build_loop(lib, n, saver)
        out = graph.invoke(_inputs(), _config(n))
        check(len(out["messages"]) == n + 1, "memory run produced the wrong number of messages")
        del out, graph
        gc.collect()
        with_saver = tracemalloc.get_traced_memory()[0]
        try:
            alive = weakref.ref(saver)
        except TypeError:  # saver without __weakref__: cannot check, trust the del
            alive = None
        del saver
        gc.collect()
        without_saver = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    check(alive is None or alive() is None, "the saver is still referenced after the run")
    return float(with_saver - without_saver)


def run_checkpoints(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    values = timed_run(lib, n, settings)
    gc.collect()
    values["memory"] = saver_memory(lib, n)
    return values


def warmup(lib: Lib, settings: Settings) -> None:
    graph = build_loop(lib, 20, lib.memory.InMemorySaver())
    graph.invoke(_inputs(), _config(20))
    list(graph.get_state_history(THREAD))


CHECKPOINTS = Workload(
    name="checkpoints",
    title="4. 2-node message loop with InMemorySaver, every checkpoint kept",
    issue="checkpoints",
    metrics=(
        Metric("total", "total run time (stream, updates)", "s"),
        Metric("first", "time per step, first 10% of steps", "us"),
        Metric("last", "time per step, last 10% of steps", "us"),
        Metric("growth", "per-step growth (last 10% / first 10%)", "x"),
        Metric("memory", "memory held by the saver", "MiB"),
        Metric("checkpoints", "checkpoints in history", "count", compare=False),
        Metric("history", "list(get_state_history(thread))", "s"),
        Metric("get_state", "get_state(checkpoint ~10 steps in)", "us"),
    ),
    sizes=(100, 1_000, 5_000),
    quick_sizes=(100,),
    run=run_checkpoints,
    size_label="steps",
    capped=True,
    warmup=warmup,
    note=(
        "n steps = n node runs = n messages appended; thread_id config; recursion_limit n + 10. "
        "Memory: tracemalloc bytes freed when the saver is dropped after the run."
    ),
)


WORKLOADS = (CHECKPOINTS,)
