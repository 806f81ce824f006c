"""Run the same random graph programs on foldgraph and LangGraph and compare them.

    python -m tools.parity --count 500          # needs langgraph installed beside foldgraph

Each seed builds one small graph (chains, fan-outs, joins, conditional edges,
Sends, Commands, deferred nodes, optional breakpoints) with identical program
text for both libraries, runs it with an in-memory checkpointer, and records
the output, the checkpoint history (step, source, next, values) and the
updates stream. Seeds whose records differ are printed. Ids differ by design
and are never recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import operator
import random
from typing import Annotated, Any

from typing_extensions import TypedDict


class State(TypedDict):
    x: int
    log: Annotated[list, operator.add]


def _node(lib: Any, names: list[str], name: str, kind: str, index: int) -> Any:
    def node(state: Any) -> Any:
        if "job" in state:
            return {"log": [f"{name}:job{state['job']}"]}
        if kind == "inc":
            return {"x": state["x"] + index + 1}
        if kind == "log":
            return {"log": [name]}
        if kind == "both":
            return {"x": state["x"] * 2, "log": [f"{name}{state['x']}"]}
        if kind == "boom":
            if len(state["log"]) % 2:
                raise ValueError(f"{name} failed")
            return {"log": [f"{name}ok"]}
        if kind == "ask":
            answer = lib.types.interrupt(f"{name}?")
            return {"log": [f"{name}={answer}"]}
        if kind == "cmd":
            target = names[(index + 1) % len(names)]
            goto = target if state["x"] < 20 else lib.graph.END
            return lib.types.Command(update={"log": [f"{name}->"]}, goto=goto)
        return None

    return node


def _subgraph(lib: Any, name: str, asks: bool) -> Any:
    """A compiled two-node graph over the same state, used as a node."""
    graph = lib.graph

    def first(state: Any) -> dict[str, Any]:
        return {"log": [f"{name}.a"], "x": state["x"] + 1}

    def second(state: Any) -> dict[str, Any]:
        if asks:
            return {"log": [f"{name}.b={lib.types.interrupt(name + '.b?')}"]}
        return {"log": [f"{name}.b"]}

    builder = graph.StateGraph(State)
    builder.add_node("a", first)
    builder.add_node("b", second)
    builder.add_edge(graph.START, "a")
    builder.add_edge("a", "b")
    return builder.compile()


def build(
    lib: Any,
    rng: random.Random,
    asks: bool = False,
    subgraphs: bool = False,
    errors: bool = False,
) -> Any:
    graph = lib.graph
    ask = ["ask"] if asks else []
    sub = ["sub"] if subgraphs else []
    boom = ["boom"] if errors else []
    names = [f"n{i}" for i in range(rng.randint(1, 6))]
    builder = graph.StateGraph(State)
    kinds = {}
    for i, name in enumerate(names):
        kinds[name] = rng.choice(["inc", "log", "both", "none", "cmd", "send", *ask, *sub, *boom])
        action = (
            _subgraph(lib, name, asks)
            if kinds[name] == "sub"
            else _node(lib, names, name, kinds[name], i)
        )
        builder.add_node(name, action, defer=rng.random() < 0.1)
    builder.add_edge(graph.START, names[0])
    if rng.random() < 0.3 and len(names) > 1:
        builder.add_edge(graph.START, names[-1])
    for i, name in enumerate(names):
        if kinds[name] == "cmd":
            continue
        r = rng.random()
        rest = names[i + 1 :]
        if r < 0.3 and rest:
            builder.add_edge(name, rest[0])
        elif r < 0.5 and len(rest) > 1:
            builder.add_edge(name, rest[0])
            builder.add_edge(name, rest[1])
        elif r < 0.65 and len(rest) > 1:
            builder.add_edge([name, rest[0]], rest[1])
        elif r < 0.8:
            k = rng.choice([*rest, graph.END])
            builder.add_conditional_edges(name, lambda s, k=k: k if s["x"] < 15 else graph.END)
        elif r < 0.9 and kinds[name] == "send":
            target = rng.choice(names)
            builder.add_conditional_edges(
                name,
                lambda s, t=target, send=lib.types.Send: (
                    [send(t, {"job": j}) for j in range(2)] if s["x"] < 15 else graph.END
                ),
            )
    return builder


def record(
    lib: Any,
    seed: int,
    breakpoints: bool,
    asks: bool = False,
    subgraphs: bool = False,
    timetravel: bool = False,
    aio: bool = False,
    errors: bool = False,
) -> str:
    rng = random.Random(seed)
    builder = build(lib, rng, asks, subgraphs, errors)
    try:
        options: dict[str, Any] = {}
        if breakpoints:
            options = {
                "interrupt_before": [rng.choice(list(builder.nodes))],
                "interrupt_after": [rng.choice(list(builder.nodes))],
            }
        graph = builder.compile(checkpointer=lib.memory.InMemorySaver(), **options)
        if aio:
            graph = _Async(graph)
        config = {"configurable": {"thread_id": "t"}, "recursion_limit": 12}
        out = graph.invoke({"x": 1, "log": []}, config)
        for turn in range(6 if (breakpoints or asks or subgraphs) else 0):
            state = graph.get_state(config)
            if not state.next:
                break
            if state.interrupts:
                # answer each pending interrupt by its id (ids differ between libraries,
                # the answers are keyed by the interrupt's value)
                answers = {i.id: f"{i.value}{turn}" for i in state.interrupts}
                out = graph.invoke(lib.types.Command(resume=answers), config)
            else:
                out = graph.invoke(None, config)
        if isinstance(out, dict) and "__interrupt__" in out:
            out = {**out, "__interrupt__": sorted(i.value for i in out["__interrupt__"])}
        if timetravel:
            out = [out, *_travel(lib, graph, config, rng)]
        history = [
            (h.metadata["step"], h.metadata["source"], sorted(h.next), h.values)
            for h in graph.get_state_history(config)
        ]
        stream = graph.stream(
            {"x": 1, "log": []},
            {"configurable": {"thread_id": "u"}, "recursion_limit": 12},
            subgraphs=subgraphs,
        )
        if subgraphs:  # (namespace, chunk): keep node names, drop task ids
            stream = (([p.split(":")[0] for p in ns], _without_ids(c)) for ns, c in stream)
        updates = sorted(json.dumps(_without_ids(c), sort_keys=True, default=str) for c in stream)
        values = [
            _without_ids(c)
            for c in graph.stream(
                {"x": 1, "log": []},
                {"configurable": {"thread_id": "v"}, "recursion_limit": 12},
                stream_mode="values",
            )
        ]
        return json.dumps([out, history, updates, values], sort_keys=True, default=str)
    except Exception as exc:
        failed = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
        try:  # what a failed run leaves behind: the last good state and the failed tasks
            state = graph.get_state(config)
            return json.dumps(
                [
                    failed,
                    state.values,
                    sorted(state.next),
                    sorted((t.name, repr(t.error)) for t in state.tasks if t.error),
                ],
                sort_keys=True,
                default=str,
            )
        except Exception:
            return failed


def _finish(lib: Any, graph: Any, config: Any, out: Any) -> Any:
    """Answer interrupts (by id, keyed by their values) until the run ends."""
    for turn in range(6):
        state = graph.get_state(config)
        if not state.next:
            break
        if state.interrupts:
            answers = {i.id: f"{i.value}{turn}" for i in state.interrupts}
            out = graph.invoke(lib.types.Command(resume=answers), config)
        else:
            out = graph.invoke(None, config)
    return _without_ids(out)


def _travel(lib: Any, graph: Any, config: Any, rng: random.Random) -> list[Any]:
    """Fork from a past checkpoint with update_state, then replay another one."""
    past = list(graph.get_state_history(config))
    results = []
    fork_at = past[rng.randrange(len(past))]
    try:
        fork = graph.update_state(fork_at.config, {"x": 100, "log": ["forked"]})
        results.append(_finish(lib, graph, fork, graph.invoke(None, fork)))
    except Exception as exc:
        results.append(f"fork: {type(exc).__name__}")
    replay_at = past[rng.randrange(len(past))]
    try:
        results.append(_finish(lib, graph, config, graph.invoke(None, replay_at.config)))
    except Exception as exc:
        results.append(f"replay: {type(exc).__name__}")
    return results


def _without_ids(chunk: Any) -> Any:
    if isinstance(chunk, dict) and "__interrupt__" in chunk:
        return {**chunk, "__interrupt__": sorted(i.value for i in chunk["__interrupt__"])}
    return chunk


class _Async:
    """The same graph driven through ainvoke/astream."""

    def __init__(self, graph: Any) -> None:
        self._graph = graph

    def invoke(self, *args: Any, **kwargs: Any) -> Any:
        return asyncio.run(self._graph.ainvoke(*args, **kwargs))

    def stream(self, *args: Any, **kwargs: Any) -> list[Any]:
        async def collect() -> list[Any]:
            return [chunk async for chunk in self._graph.astream(*args, **kwargs)]

        return asyncio.run(collect())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)


class _Lib:
    def __init__(self, root: str) -> None:
        self.graph = importlib.import_module(f"{root}.graph")
        self.types = importlib.import_module(f"{root}.types")
        self.memory = importlib.import_module(f"{root}.checkpoint.memory")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--breakpoints", action="store_true", help="random interrupt_before/after")
    parser.add_argument("--asks", action="store_true", help="nodes that call interrupt()")
    parser.add_argument("--subgraphs", action="store_true", help="compiled graphs as nodes")
    parser.add_argument("--timetravel", action="store_true", help="fork and replay afterwards")
    parser.add_argument("--aio", action="store_true", help="run through ainvoke/astream")
    parser.add_argument("--errors", action="store_true", help="nodes that raise")
    args = parser.parse_args()
    ours, theirs = _Lib("foldgraph"), _Lib("langgraph")
    differ = []
    for seed in range(args.start, args.start + args.count):
        flags = (
            args.breakpoints,
            args.asks,
            args.subgraphs,
            args.timetravel,
            args.aio,
            args.errors,
        )
        if record(ours, seed, *flags) != record(theirs, seed, *flags):
            differ.append(seed)
    print(f"{args.count - len(differ)} of {args.count} programs match; differing seeds: {differ}")


if __name__ == "__main__":
    main()
