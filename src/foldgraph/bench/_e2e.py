"""End to end: a reducer on a channel of a two-node loop graph, with and without a saver.

Written once against an import root (`foldgraph` or `langgraph`) and imported by
path on the LangGraph side, so it uses only the standard library and the public
modules both libraries share (`graph`, `checkpoint.memory`, `checkpoint.sqlite`,
`channels`).

The state is `{"value": <the reducer's channel>, "turn": int}`. The input seeds
`value` with a history of n items; nodes `a` and `b` then take turns, each writing
one fresh update, until `steps` updates were made or the CPU budget is spent.
Every node call notes the process's CPU time, so the time per update is measured
over the steps after the first two (the input step and the first full checkpoint
of the seeded history are not counted: they are paid once per thread, not per
update). Savers run with durability "sync", so each step includes its write.
"""

from __future__ import annotations

import importlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypedDict

SAVERS = ("none", "memory", "sqlite")


class SaverUnavailable(ImportError):
    """The library has no such saver installed (LangGraph's SQLite saver is a separate
    package, langgraph-checkpoint-sqlite)."""


@contextmanager
def _saver(root: str, kind: str) -> Iterator[Any]:
    if kind == "none":
        yield None
    elif kind == "memory":
        yield importlib.import_module(f"{root}.checkpoint.memory").InMemorySaver()
    elif kind == "sqlite":
        try:
            sqlite = importlib.import_module(f"{root}.checkpoint.sqlite")
        except ImportError as exc:
            package = "langgraph-checkpoint-sqlite" if root == "langgraph" else root
            raise SaverUnavailable(
                f"{root}.checkpoint.sqlite is not installed ({package})"
            ) from exc
        with tempfile.TemporaryDirectory(prefix="reducer-bench-") as tmp:
            with sqlite.SqliteSaver.from_conn_string(os.path.join(tmp, "bench.sqlite")) as saver:
                yield saver
    else:
        raise ValueError(f"unknown saver {kind!r}: choose from {SAVERS}")


def value_annotation(root: str, kind: str, reducer: Any, typ: Any) -> Any:
    """The state key's annotation for a channel kind, as a user would write it."""
    if kind == "binop":
        return Annotated[typ, reducer]
    if kind == "topic":
        topic = importlib.import_module(f"{root}.channels").Topic
        return Annotated[list, topic(str, accumulate=True)]
    return typ


def run_loop(
    root: str,
    annotation: Any,
    value: Any,
    update_at: Callable[[int], Any],
    saver_kind: str,
    *,
    steps: int,
    budget: float,
) -> dict[str, float]:
    """Seconds of CPU per update and updates per second, in the steady state."""
    graph_mod = importlib.import_module(f"{root}.graph")
    # The channel's annotation is only known here, so the schema is made here.
    State = TypedDict("State", {"value": annotation, "turn": int})  # type: ignore[misc]  # noqa: UP013
    stamps: list[float] = []

    def node(state: dict[str, Any]) -> dict[str, Any]:
        stamps.append(time.process_time())
        turn = state["turn"]
        return {"value": update_at(turn), "turn": turn + 1}

    def route(state: dict[str, Any]) -> str:
        spent = stamps[-1] - stamps[0] if stamps else 0.0
        done = state["turn"] >= steps or (state["turn"] >= 6 and spent > budget)
        return graph_mod.END if done else "a"

    builder = graph_mod.StateGraph(State)
    builder.add_node("a", node)
    builder.add_node("b", node)
    builder.add_edge(graph_mod.START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", route, ["a", graph_mod.END])
    with _saver(root, saver_kind) as saver:
        graph = builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": "bench"}, "recursion_limit": steps + 10}
        kwargs = {"durability": "sync"} if saver is not None else {}
        out = graph.invoke({"value": value, "turn": 0}, config, **kwargs)
    if out["turn"] != len(stamps) or len(stamps) < 4:
        raise AssertionError(f"the loop made {len(stamps)} node calls for {out['turn']} turns")
    per_update = (stamps[-1] - stamps[1]) / (len(stamps) - 2)
    return {
        "time_per_update": per_update,
        "updates_per_second": 1.0 / max(per_update, 1e-12),
        "steps": float(len(stamps)),
    }
