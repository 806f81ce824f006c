"""A run killed with SIGKILL mid-graph loses no completed superstep, and resumes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's SqliteSaver opened from a path; LangGraph's takes a connection"
)

CHILD = textwrap.dedent(
    """
    import sys, time
    from typing import Annotated
    import operator
    from langchain_core.messages import AIMessage, HumanMessage
    from foldgraph.checkpoint.sqlite import SqliteSaver
    from foldgraph.graph import END, START, MessagesState, StateGraph

    class S(MessagesState):
        log: Annotated[list[int], operator.add]
        turn: int

    def a(state):
        n = state.get("turn", 0)
        print(f"started {n}", flush=True)  # the checkpoint with turn == n is committed
        time.sleep(float(sys.argv[3]))
        return {"messages": [AIMessage(f"a{n}", id=f"a{n}")], "log": [n], "turn": n + 1}

    def b(state):
        return {"messages": [HumanMessage(f"b{state['turn']}", id=f"b{state['turn']}")]}

    builder = StateGraph(S)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", lambda s: "a" if s["turn"] < 120 else END)
    config = {"configurable": {"thread_id": "crash"}, "recursion_limit": 1000}
    with SqliteSaver.from_conn_string(sys.argv[1]) as saver:
        graph = builder.compile(checkpointer=saver)
        inputs = {"messages": [HumanMessage("go", id="go")]} if sys.argv[2] == "start" else None
        out = graph.invoke(inputs, config, durability="sync")
        print("final", out["turn"], len(out["messages"]), sum(out["log"]), flush=True)
    """
)


@pytest.mark.timeout(120)
def test_sigkill_mid_run_then_resume_in_a_new_process(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    db = str(tmp_path / "threads.db")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(
        [sys.executable, str(script), db, "start", "0.004"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None
        started: list[int] = []
        for line in child.stdout:
            if line.startswith("started "):
                started.append(int(line.split()[1]))
                if started[-1] >= 40:
                    break
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:  # stopped by its own pid even when the test fails before the kill
        if child.poll() is None:
            child.kill()
            child.wait(30)
    assert child.returncode == -signal.SIGKILL
    last_started = started[-1]

    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()

    from foldgraph.checkpoint.sqlite import SqliteSaver

    with SqliteSaver.from_conn_string(db) as saver:
        latest = saver.get_tuple({"configurable": {"thread_id": "crash"}})
        assert latest is not None
        # Node a printed "started n" only after the checkpoint holding turn == n was
        # committed (durability "sync"): no completed superstep is lost.
        assert latest.checkpoint["channel_values"]["turn"] >= last_started

    resumed = subprocess.run(
        [sys.executable, str(script), db, "resume", "0"],
        capture_output=True,
        text=True,
        env=env,
        timeout=100,
    )
    assert resumed.returncode == 0, resumed.stderr
    # 120 turns: messages = go + 2 per turn; log = 0 + 1 + ... + 119, each turn exactly once.
    assert resumed.stdout.splitlines()[-1] == f"final 120 241 {sum(range(120))}"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
