"""Workload: per-superstep overhead with 1, 10 and 100 nodes per step, with and without a saver.

`w` lanes run side by side, each a chain of trivial nodes, so every superstep
runs `w` tasks; each node adds 1 to `x: Annotated[int, operator.add]`. The
time of one invoke (wall, and CPU time of all threads) is divided by the
number of supersteps. The same program text runs on foldgraph and on LangGraph.
"""

import operator
from typing import Annotated, Any, TypedDict

from benchmarks._harness import Lib, Metric, Settings, Workload, check, median_wall_cpu


class LaneState(TypedDict):
    x: Annotated[int, operator.add]


def _one(state: LaneState) -> dict[str, int]:
    return {"x": 1}


def steps_for(width: int) -> int:
    """Supersteps per invoke: enough to time, few enough for LangGraph at width 100."""
    return {1: 200, 10: 40}.get(width, 10)


def build_lanes(lib: Lib, width: int, length: int, checkpointer: Any = None) -> Any:
    g = lib.graph
    builder = g.StateGraph(LaneState)
    for lane in range(width):
        previous = g.START
        for i in range(length):
            name = f"lane{lane}_{i}"
            builder.add_node(name, _one)
            builder.add_edge(previous, name)
            previous = name
        builder.add_edge(previous, g.END)
    return builder.compile(checkpointer=checkpointer)


def run_supersteps(lib: Lib, width: int, settings: Settings) -> dict[str, float]:
    length = steps_for(width)
    out: dict[str, float] = {}
    for key, saver in (("no_saver", None), ("in_memory", lib.memory.InMemorySaver())):
        graph = build_lanes(lib, width, length, saver)

        def once(graph: Any = graph, calls: Any = iter(range(1_000_000))) -> Any:
            config = {
                "recursion_limit": length + 10,
                "configurable": {"thread_id": f"t{next(calls)}"},
            }
            return graph.invoke({"x": 0}, config)

        result = once()
        check(result == {"x": width * length}, f"{width} lanes returned {result!r}")
        wall, cpu = median_wall_cpu(once, settings.repeats)
        out[key], out[f"cpu_{key}"] = wall / length, cpu / length
    return out


SUPERSTEPS = Workload(
    name="supersteps",
    title="Superstep overhead by nodes per step, without and with InMemorySaver",
    issue="runner",
    metrics=(
        Metric("no_saver", "time per superstep, no checkpointer", "us"),
        Metric("in_memory", "time per superstep, InMemorySaver", "us"),
        Metric("cpu_no_saver", "CPU time per superstep, no checkpointer", "us"),
        Metric("cpu_in_memory", "CPU time per superstep, InMemorySaver", "us"),
    ),
    sizes=(1, 10, 100),
    quick_sizes=(1, 10),
    run=run_supersteps,
    size_label="nodes per step",
    note=(
        "w lanes of chained nodes ({'x': 1} into an operator.add reducer); "
        "invoke time / supersteps (200 steps at w=1, 40 at w=10, 10 at w=100)."
    ),
)

WORKLOADS = (SUPERSTEPS,)
