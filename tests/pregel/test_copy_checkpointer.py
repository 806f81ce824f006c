"""`graph.copy(update={"checkpointer": saver})`: a durable saver learns the graph's schema types.

A server swaps its own saver into graphs compiled without one; the saver must then
read back the records the state holds, as it does for a saver given to `compile()`.
"""

from __future__ import annotations

import dataclasses
import sqlite3

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
    path = str(tmp_path / "db.sqlite")
    saver = SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    served = graph.copy(update={"checkpointer": saver})
    config = {"configurable": {"thread_id": "t"}}
    served.invoke({"where": Point(0, 0)}, config)
    reopened = SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    fresh = graph.copy(update={"checkpointer": reopened})
    assert fresh.get_state(config).values == {"where": Point(1, 0)}
    assert graph.checkpointer is None
