"""`graph.copy(update={"checkpointer": saver})`: a durable saver learns the graph's schema types.

A server swaps its own saver into graphs compiled without one; the saver must then
read back the records the state holds, as it does for a saver given to `compile()`.
"""

from __future__ import annotations

import dataclasses

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import START, StateGraph


@dataclasses.dataclass
class Point:
    x: int
    y: int


@dataclasses.dataclass
class State:
    where: Point


def move(state: State) -> dict:
    return {"where": Point(state.where.x + 1, state.where.y)}


def test_a_saver_given_by_copy_reads_back_schema_records(tmp_path) -> None:
    builder = StateGraph(State)
    builder.add_node(move)
    builder.add_edge(START, "move")
    graph = builder.compile()
    saver = SqliteSaver(str(tmp_path / "db.sqlite"))
    served = graph.copy(update={"checkpointer": saver})
    config = {"configurable": {"thread_id": "t"}}
    served.invoke({"where": Point(0, 0)}, config)
    fresh = graph.copy(update={"checkpointer": SqliteSaver(str(tmp_path / "db.sqlite"))})
    assert fresh.get_state(config).values == {"where": Point(1, 0)}
    assert graph.checkpointer is None
