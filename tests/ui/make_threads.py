"""Write the test threads with `foldgraph` or real `langgraph` (run as a script).

    python make_threads.py foldgraph|langgraph DB_PATH EXPECTED_JSON

Threads: `t-fork` (interrupted, then forked at its tool step with a new
draft, interrupted again), `t-done` (interrupted, resumed to the end),
`t-fail` (the agent raised). EXPECTED_JSON receives the library's own
account of each thread (`get_state_history`, newest first), the values
turned to JSON data the way the read model shows them.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from langchain_core.messages import HumanMessage
from threads_graph import make_builder

from foldgraph.ui._jsonable import jsonable


def main(root: str, db: str, expected: str) -> None:
    types = importlib.import_module(f"{root}.types")
    out = {}
    if db.startswith("postgresql://"):
        postgres = importlib.import_module(f"{root}.checkpoint.postgres")
        opened = postgres.PostgresSaver.from_conn_string(db)
    else:
        opened = importlib.import_module(f"{root}.checkpoint.sqlite").SqliteSaver.from_conn_string(
            db
        )
    with opened as saver:
        saver.setup()
        graph = make_builder(root).compile(checkpointer=saver)

        def cfg(t: str) -> dict:
            return {"configurable": {"thread_id": t}}

        graph.invoke({"messages": [HumanMessage("weather?", id="h-1")]}, cfg("t-done"))
        graph.invoke(types.Command(resume="yes"), cfg("t-done"))

        graph.invoke({"messages": [HumanMessage("weather?", id="h-1")]}, cfg("t-fork"))
        history = list(graph.get_state_history(cfg("t-fork")))
        at_tools = next(h for h in history if h.next == ("tools",))
        forked = graph.update_state(at_tools.config, {"draft": "edited"})
        graph.invoke(None, forked)

        with contextlib.suppress(ValueError):
            graph.invoke({"messages": [HumanMessage("fail", id="h-2")]}, cfg("t-fail"))

        for t in ("t-done", "t-fork", "t-fail"):
            out[t] = [
                {
                    "checkpoint_id": s.config["configurable"]["checkpoint_id"],
                    "parent_checkpoint_id": (s.parent_config or {})
                    .get("configurable", {})
                    .get("checkpoint_id"),
                    "step": s.metadata["step"],
                    "source": s.metadata["source"],
                    "next": list(s.next),
                    "values": jsonable(s.values),
                    "interrupts": [jsonable(i) for i in s.interrupts],
                }
                for s in graph.get_state_history(cfg(t))
            ]
        out["fork"] = {
            "from": at_tools.config["configurable"]["checkpoint_id"],
            "made": forked["configurable"]["checkpoint_id"],
        }
    pathlib.Path(expected).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:4])
