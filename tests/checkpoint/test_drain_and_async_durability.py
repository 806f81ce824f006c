"""Graceful drain (RunControl -> GraphDrained) and background writes for durability="async"."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from test_durable_savers import loop_graph

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.errors import GraphDrained
from foldgraph.graph import StateGraph
from foldgraph.runtime import RunControl

pytestmark = pytest.mark.foldgraph_only(
    "graceful drain (RunControl) and foldgraph's background writer; LangGraph has neither"
)

CONFIG = {"configurable": {"thread_id": "t"}, "recursion_limit": 500}
INPUTS = {"messages": [HumanMessage("hi", id="h")]}


def drain_at_turn(turn: int, rc: RunControl) -> StateGraph:
    """The message loop; when node `a` starts `turn`, another thread asks for a drain."""

    def ask(n: int) -> None:
        if n == turn:
            asker = threading.Thread(target=rc.request_drain, args=("deploy",))
            asker.start()
            asker.join(timeout=30)
            assert not asker.is_alive(), "request_drain did not return"

    return loop_graph(12, on_turn=ask)


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_drain_stops_at_the_next_boundary_and_the_thread_resumes(
    durability: str, durable_saver: Any
) -> None:
    rc = RunControl()
    saver = durable_saver()
    graph = drain_at_turn(5, rc).compile(checkpointer=saver)
    with pytest.raises(GraphDrained) as info:
        graph.invoke(INPUTS, CONFIG, control=rc, durability=durability)
    assert info.value.reason == "deploy"
    assert str(info.value) == "Graph drained: deploy"
    # The step in which the drain was asked for finished and was saved; nothing after it.
    state = graph.get_state(CONFIG)
    assert (state.values["turn"], state.next) == (6, ("b",))
    assert info.value.config == state.config
    resumed = loop_graph(12).compile(checkpointer=durable_saver())  # a new process
    final = resumed.invoke(None, CONFIG)
    expected = loop_graph(12).compile(checkpointer=InMemorySaver()).invoke(INPUTS, CONFIG)
    assert final == expected


def test_drain_with_ainvoke() -> None:
    rc = RunControl()
    graph = drain_at_turn(3, rc).compile(checkpointer=SqliteSaver(":memory:"))

    async def main() -> None:
        with pytest.raises(GraphDrained):
            await graph.ainvoke(INPUTS, CONFIG, control=rc)

    asyncio.run(main())
    assert graph.get_state(CONFIG).values["turn"] == 4


class RecordingSaver(SqliteSaver):
    """Records which thread performed each put, and in what order."""

    def __init__(self, *args: Any, fail_at_step: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.puts: list[tuple[str, int]] = []
        self.fail_at_step = fail_at_step

    def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        step = metadata["step"]
        if step == self.fail_at_step:
            raise OSError("disk full")
        self.puts.append((threading.current_thread().name, step))
        return super().put(config, checkpoint, metadata, new_versions)


def test_async_durability_writes_in_order_behind_the_run() -> None:
    saver = RecordingSaver(":memory:")
    graph = loop_graph(10).compile(checkpointer=saver)
    out = graph.invoke(INPUTS, CONFIG, durability="async")
    assert [step for _, step in saver.puts] == list(range(-1, 21))
    assert {name for name, _ in saver.puts} == {"foldgraph-writer"}
    # Everything is stored by the time invoke returns.
    assert graph.get_state(CONFIG).values == out
    assert len(list(graph.get_state_history(CONFIG))) == 22
    sync_saver = RecordingSaver(":memory:")
    loop_graph(10).compile(checkpointer=sync_saver).invoke(INPUTS, CONFIG, durability="sync")
    assert {name for name, _ in sync_saver.puts} == {threading.current_thread().name}


def test_a_failed_background_write_fails_the_run_and_stops_later_writes() -> None:
    saver = RecordingSaver(":memory:", fail_at_step=4)
    graph = loop_graph(10).compile(checkpointer=saver)
    with pytest.raises(OSError, match="disk full"):
        graph.invoke(INPUTS, CONFIG, durability="async")
    assert [step for _, step in saver.puts] == [-1, 0, 1, 2, 3]
    assert graph.get_state(CONFIG).metadata["step"] == 3


CHILD = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, sys.argv[3])
    from langchain_core.messages import HumanMessage
    from test_durable_savers import loop_graph
    from foldgraph.checkpoint.sqlite import SqliteSaver
    from foldgraph.errors import GraphDrained
    from foldgraph.runtime import RunControl

    def on_turn(n):
        print(f"turn {n}", flush=True)
        time.sleep(0.01)

    config = {"configurable": {"thread_id": "s"}, "recursion_limit": 500}
    rc = RunControl()
    rc.install_signal_handler()  # SIGTERM -> request_drain("SIGTERM")
    with SqliteSaver.from_conn_string(sys.argv[1]) as saver:
        graph = loop_graph(60, on_turn=on_turn).compile(checkpointer=saver)
        inputs = {"messages": [HumanMessage("hi", id="h")]} if sys.argv[2] == "start" else None
        try:
            out = graph.invoke(inputs, config, control=rc, durability="sync")
        except GraphDrained as exc:
            print(f"drained {exc.reason}", flush=True)
            sys.exit(0)
        print(f"final {out['turn']} {len(out['messages'])} {sum(out['log'])}", flush=True)
    """
)


@pytest.mark.timeout(120)
def test_sigterm_drains_and_a_new_process_finishes_the_same_thread(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    db = str(tmp_path / "threads.db")
    here = str(Path(__file__).parent)
    child = subprocess.Popen(
        [sys.executable, str(script), db, "start", here], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        lines = []
        for line in child.stdout:
            lines.append(line.strip())
            if line.startswith("turn 10"):
                child.send_signal(signal.SIGTERM)
                break
        lines.extend(line.strip() for line in child.stdout)
        assert child.wait(60) == 0
    finally:  # stopped by its own pid even when the test fails before it exits
        if child.poll() is None:
            child.kill()
            child.wait(30)
    assert lines[-1] == "drained SIGTERM"
    drained_at = int([x for x in lines if x.startswith("turn ")][-1].split()[1])
    assert 10 <= drained_at < 59
    with SqliteSaver.from_conn_string(db) as saver:
        state = (
            loop_graph(60)
            .compile(checkpointer=saver)
            .get_state({"configurable": {"thread_id": "s"}})
        )
        assert (state.values["turn"], state.next) == (drained_at + 1, ("b",))
    resumed = subprocess.run(
        [sys.executable, str(script), db, "resume", here],
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert resumed.returncode == 0, resumed.stderr
    expected = loop_graph(60).compile(checkpointer=InMemorySaver()).invoke(INPUTS, CONFIG)
    assert resumed.stdout.splitlines()[-1] == (
        f"final 60 {len(expected['messages'])} {sum(expected['log'])}"
    )
    assert sum(expected["log"]) == sum(range(60))
