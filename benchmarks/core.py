"""Workloads 1-3, issue "core runtime": superstep overhead, Send fan-out, reducers.

Every graph here is built from ``lib.graph`` / ``lib.types`` only, so the same
text runs on foldgraph and on LangGraph.
"""

import itertools
import operator
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, HumanMessage

from benchmarks._harness import (
    Lib,
    Metric,
    Settings,
    Workload,
    check,
    median_time,
    per_op_time,
)

# --------------------------------------------------------------------------- 1. linear chain


class ChainState(TypedDict):
    x: int


def _increment(state: ChainState) -> dict[str, int]:
    return {"x": state["x"] + 1}


def build_chain(lib: Lib, n: int) -> Any:
    g = lib.graph
    builder = g.StateGraph(ChainState)
    names = [f"node_{i}" for i in range(n)]
    for name in names:
        builder.add_node(name, _increment)
    builder.add_edge(g.START, names[0])
    for a, b in itertools.pairwise(names):
        builder.add_edge(a, b)
    builder.add_edge(names[-1], g.END)
    return builder.compile()


def run_chain(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    graph = build_chain(lib, n)
    config = {"recursion_limit": n + 10}
    out = graph.invoke({"x": 0}, config)
    check(out == {"x": n}, f"chain of {n} returned {out!r}, expected {{'x': {n}}}")
    repeats = settings.repeats if n <= 100 else max(3, settings.repeats // 2)
    t = median_time(lambda: graph.invoke({"x": 0}, config), repeats, warmup=0)
    return {"per_step": t / n, "per_invoke": t}


CHAIN = Workload(
    name="chain",
    title="1. Linear chain of trivial nodes, no checkpointer",
    issue="core runtime",
    metrics=(
        Metric("per_step", "time per superstep (invoke / nodes)", "us"),
        Metric("per_invoke", "time per invoke", "ms"),
    ),
    sizes=(10, 100, 1000),
    quick_sizes=(10, 100),
    run=run_chain,
    size_label="nodes",
    note="Node: {'x': state['x'] + 1}; config {'recursion_limit': n + 10}.",
)


# --------------------------------------------------------------------------- 2. Send fan-out


class FanState(TypedDict):
    n: int
    results: Annotated[list, operator.add]
    total: int


def build_fanout(lib: Lib) -> Any:
    g, Send = lib.graph, lib.types.Send

    def plan(state: FanState) -> dict[str, int]:
        return {"total": 0}

    def fan_out(state: FanState) -> list[Any]:
        return [Send("worker", {"i": i}) for i in range(state["n"])]

    def worker(arg: dict[str, int]) -> dict[str, list[int]]:
        return {"results": [arg["i"] * 2]}

    def join(state: FanState) -> dict[str, int]:
        return {"total": sum(state["results"])}

    builder = g.StateGraph(FanState)
    builder.add_node("plan", plan)
    builder.add_node("worker", worker)
    builder.add_node("join", join)
    builder.add_edge(g.START, "plan")
    builder.add_conditional_edges("plan", fan_out, ["worker"])
    builder.add_edge("worker", "join")
    builder.add_edge("join", g.END)
    return builder.compile()


def run_fanout(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    graph = build_fanout(lib)
    inputs = {"n": n, "results": []}
    out = graph.invoke(inputs)
    expected = n * (n - 1)
    check(
        len(out["results"]) == n and out["total"] == expected,
        f"fan-out of {n} gave {len(out['results'])} results, total {out['total']}"
        f" (expected {n} results, total {expected})",
    )
    t = median_time(lambda: graph.invoke(inputs), settings.repeats, warmup=0)
    return {"per_invoke": t}


FANOUT = Workload(
    name="fanout",
    title="2. Fan-out of Sends to a worker, then a join",
    issue="core runtime",
    metrics=(Metric("per_invoke", "time per invoke (plan, n workers, join)", "ms"),),
    sizes=(100,),
    quick_sizes=(100,),
    run=run_fanout,
    size_label="Sends",
    note=(
        "Conditional edge returns n Send('worker', {'i': i}); the worker writes to an "
        "Annotated[list, operator.add] key; 'join' sums it."
    ),
)


# --------------------------------------------------------------------------- 3. reducers


def _channel_bench(
    lib: Lib, reducer: Callable[[Any, Any], Any], history: list[Any], update: list[Any]
) -> Callable[[int], Callable[[], None]]:
    """``prepare(k)`` for :func:`per_op_time`: k updates of ``update`` onto ``history``.

    The channel APIs differ (LangGraph's channel holds and mutates its value;
    foldgraph's is a pure function of a stored value), so this is the one
    place with a branch per library. Either way every timed update is one
    step's batch ``[update]`` applied onto exactly ``len(history)`` items.
    """
    batch = [update]
    if lib.root == "langgraph":
        proto = lib.module("channels").BinaryOperatorAggregate(list, reducer)

        def prepare_lg(k: int) -> Callable[[], None]:
            # from_checkpoint shares `history`; update() rebinds the channel's
            # value to a new list, so `history` itself never changes.
            channels = [proto.from_checkpoint(history) for _ in range(k)]

            def run() -> None:
                for ch in channels:
                    ch.update(batch)

            return run

        return prepare_lg

    channel = lib.module("_kernel.channels").BinaryOperatorAggregate(list, reducer)
    stored = channel.from_value(history)
    fold = channel.fold

    def prepare_fg(k: int) -> Callable[[], None]:
        def run() -> None:
            for _ in range(k):
                fold(stored, batch)

        return run

    return prepare_fg


def _verify_channel(
    lib: Lib, reducer: Any, history: list[Any], update: list[Any], want: int, at: int
) -> None:
    """One update, checked for the length it should produce and the item at ``at``."""
    if lib.root == "langgraph":
        proto = lib.module("channels").BinaryOperatorAggregate(list, reducer)
        ch = proto.from_checkpoint(history)
        changed = ch.update([update])
        value = ch.get()
    else:
        channel = lib.module("_kernel.channels").BinaryOperatorAggregate(list, reducer)
        stored = channel.from_value(history)
        new_stored, changed = channel.fold(stored, [update])
        value = channel.output(new_stored)  # plain list, thawed
    check(bool(changed), "the update reported no change")
    check(len(value) == want, f"update produced {len(value)} items, expected {want}")
    got, expected = value[at], update[0]
    same = got == expected or (
        getattr(got, "id", None) == getattr(expected, "id", 0)
        and getattr(got, "content", None) == getattr(expected, "content", 0)
    )
    check(same, f"item {at} after the update is {got!r}, expected {expected!r}")


def _messages(n: int) -> list[Any]:
    return [
        (HumanMessage if i % 2 == 0 else AIMessage)(content=f"message {i}", id=f"m-{i}")
        for i in range(n)
    ]


def run_reducers(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    add_messages = lib.message.add_messages
    ints = list(range(n))
    msgs = _messages(n)
    cases = {
        # key: (reducer, history, one update, length after it, index of the updated item)
        "add_list": (operator.add, ints, [n], n + 1, n),
        "msg_append": (add_messages, msgs, [HumanMessage(content="new", id="m-new")], n + 1, n),
        "msg_replace": (
            add_messages,
            msgs,
            [HumanMessage(content="edited", id=f"m-{n // 2}")],
            n,
            n // 2,
        ),
    }
    out = {}
    for key, (reducer, history, update, want, at) in cases.items():
        _verify_channel(lib, reducer, history, update, want, at)
        out[key] = per_op_time(_channel_bench(lib, reducer, history, update), settings)
        check(len(history) == n, f"{key}: the history was mutated by the update")
    return out


REDUCERS = Workload(
    name="reducers",
    title="3. Reducer cost of ONE update onto a history of n items (channel level)",
    issue="core runtime",
    metrics=(
        Metric("add_list", "operator.add on list: per update", "us"),
        Metric("msg_append", "add_messages, append 1 message", "us"),
        Metric("msg_replace", "add_messages, replace 1 by id", "us"),
        Metric("add_list_growth", "operator.add: growth", "x", growth_of="add_list"),
        Metric("msg_append_growth", "add_messages append: growth", "x", growth_of="msg_append"),
        Metric("msg_replace_growth", "add_messages replace: growth", "x", growth_of="msg_replace"),
    ),
    sizes=(10, 1_000, 10_000),
    quick_sizes=(10, 1_000, 10_000),
    run=run_reducers,
    size_label="items",
    note=(
        "BinaryOperatorAggregate(list, reducer), batch [[update]]. growth = cost at the "
        "largest history / cost at the smallest (1.0 = flat)."
    ),
)


WORKLOADS = (CHAIN, FANOUT, REDUCERS)
