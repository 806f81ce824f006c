"""Write a thread of N checkpoints with a real graph run (run as a script).

    python make_long_thread.py DB_PATH N

One node loops N times; each step is a checkpoint (foldgraph's SqliteSaver,
durability "async"). The state keeps a counter, the last three step names and
a list that grows every 1 000 steps, so a diff of far-apart checkpoints is
small to show and still crosses the whole history.
"""

import operator
import sys
from typing import Annotated, TypedDict

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import END, START, StateGraph


class State(TypedDict):
    n: int
    recent: list
    milestones: Annotated[list, operator.add]


def main(db: str, total: int) -> None:
    def step(state: State) -> dict:
        n = state["n"] + 1
        update = {"n": n, "recent": [*state["recent"][-2:], f"step {n}"]}
        if n % 1000 == 0:
            update["milestones"] = [n]
        return update

    builder = StateGraph(State)
    builder.add_node("step", step)
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", lambda s: END if s["n"] >= total else "step")
    with SqliteSaver.from_conn_string(db) as saver:
        graph = builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": "long"}, "recursion_limit": total + 10}
        graph.invoke({"n": 0, "recent": [], "milestones": []}, config, durability="async")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
