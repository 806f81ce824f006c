"""Durable storage: bytes on disk and time per step of the 2-node message loop.

    python -m benchmarks.storage [--steps 1000 5000] [--langgraph-max 5000]

Runs the checkpoints workload's message loop (one AIMessage with a tool call,
then one ToolMessage, per pair of steps; every checkpoint kept) on
foldgraph's `SqliteSaver` (a file, durability "sync") and, when LangGraph and
langgraph-checkpoint-sqlite are importable, on LangGraph's `SqliteSaver` with
its default channels and with its beta `DeltaChannel`. Reports the database
size (all files: main, -wal, -shm), the mean time per step, and the time to
read one old state (`get_state` of the checkpoint halfway through) with a
fresh saver, which for foldgraph replays at most `full_every - 1` deltas per channel.
"""

import argparse
import contextlib
import importlib.util
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks._harness import Lib
from benchmarks.checkpoints import _inputs, build_loop

THREAD = {"configurable": {"thread_id": "bench-thread"}, "recursion_limit": 100_000}


def _db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


@contextlib.contextmanager
def _foldgraph_saver(path: Path, full_every: int) -> Iterator[Any]:
    from foldgraph.checkpoint.sqlite import SqliteSaver

    with SqliteSaver.from_conn_string(str(path), full_every=full_every) as saver:
        yield saver


@contextlib.contextmanager
def _langgraph_saver(path: Path) -> Iterator[Any]:
    from langgraph.checkpoint.sqlite import SqliteSaver

    with SqliteSaver.from_conn_string(str(path)) as saver:
        yield saver


def _langgraph_delta_graph(n: int, checkpointer: Any) -> Any:
    """The same loop on LangGraph with `messages` as a beta DeltaChannel."""
    from typing import Annotated, TypedDict

    from langchain_core.messages import AIMessage, ToolMessage
    from langgraph.channels.delta import DeltaChannel
    from langgraph.graph import END, START, StateGraph
    from langgraph.graph.message import add_messages

    def add_all(state: Any, writes: Any) -> Any:
        for write in writes:
            state = add_messages(state, write)
        return state

    class LoopState(TypedDict):
        messages: Annotated[list, DeltaChannel(add_all)]

    def agent(state: Any) -> dict[str, Any]:
        k = len(state["messages"])
        call = {"name": "lookup", "args": {"q": k}, "id": f"call-{k}"}
        return {"messages": [AIMessage(content=f"step {k}", id=f"ai-{k}", tool_calls=[call])]}

    def tools(state: Any) -> dict[str, Any]:
        k = len(state["messages"])
        call_id = state["messages"][-1].tool_calls[0]["id"]
        return {
            "messages": [ToolMessage(content=f"result {k}", id=f"tool-{k}", tool_call_id=call_id)]
        }

    builder = StateGraph(LoopState)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges(
        "agent", lambda s: END if len(s["messages"]) > n else "tools", ["tools", END]
    )
    builder.add_conditional_edges(
        "tools", lambda s: END if len(s["messages"]) > n else "agent", ["agent", END]
    )
    return builder.compile(checkpointer=checkpointer)


def measure(
    label: str,
    n: int,
    open_saver: Callable[[Path], contextlib.AbstractContextManager[Any]],
    make_graph: Callable[[int, Any], Any],
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "threads.db"
        with open_saver(path) as saver:
            graph = make_graph(n, saver)
            start = time.perf_counter()
            graph.invoke(_inputs(), THREAD, durability="sync")
            total = time.perf_counter() - start
        size = _db_bytes(path)
        # Read the checkpoint halfway through with a fresh saver (nothing cached).
        with open_saver(path) as saver:
            middle = next(iter(saver.list(THREAD, filter={"step": n // 2})))
            cfg = middle.config
        # What a user pays to see an old state: `get_state` on a fresh saver, so that
        # LangGraph's DeltaChannel replays its ancestors' writes too.
        reads = []
        for _ in range(5):
            with open_saver(path) as saver:
                saver.setup()  # schema checks are not part of a read
                reader = make_graph(n, saver)
                start = time.perf_counter()
                found = reader.get_state(cfg)
                reads.append(time.perf_counter() - start)
                assert len(found.values["messages"]) == n // 2 + 1
        depth = None
        if label.startswith("foldgraph"):
            conn = sqlite3.connect(path)
            depth = conn.execute("SELECT max(depth) FROM fg_blobs").fetchone()[0]
            conn.close()
    return {
        "label": label,
        "steps": n,
        "bytes": size,
        "total_s": total,
        "per_step_us": total / n * 1e6,
        "read_old_ms": statistics.median(reads) * 1e3,
        "max_delta_depth": depth,
    }


def _mib(b: int) -> str:
    return f"{b / 2**20:,.2f} MiB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--full-every", type=int, default=100)
    parser.add_argument(
        "--langgraph-max",
        type=int,
        default=5000,
        help="skip LangGraph's default-channel saver above this many steps",
    )
    args = parser.parse_args(argv)
    have_langgraph = (
        importlib.util.find_spec("langgraph") is not None
        and importlib.util.find_spec("langgraph.checkpoint.sqlite") is not None
    )
    fold = Lib("foldgraph")
    lang = Lib("langgraph")
    rows = []
    for n in args.steps:
        rows.append(
            measure(
                f"foldgraph SqliteSaver (full_every={args.full_every})",
                n,
                lambda p: _foldgraph_saver(p, args.full_every),
                lambda n, s: build_loop(fold, n, s),
            )
        )
        print(rows[-1], file=sys.stderr, flush=True)
        if not have_langgraph:
            continue
        if n <= args.langgraph_max:
            rows.append(
                measure(
                    "LangGraph SqliteSaver, default channels",
                    n,
                    _langgraph_saver,
                    lambda n, s: build_loop(lang, n, s),
                )
            )
            print(rows[-1], file=sys.stderr, flush=True)
        try:
            rows.append(
                measure(
                    "LangGraph SqliteSaver, DeltaChannel (beta)",
                    n,
                    _langgraph_saver,
                    _langgraph_delta_graph,
                )
            )
            print(rows[-1], file=sys.stderr, flush=True)
        except Exception as exc:  # an older LangGraph without DeltaChannel
            print(f"DeltaChannel run skipped: {exc!r}", file=sys.stderr)
    print("| saver | steps | database | per step | read old checkpoint | max delta chain |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        depth = "-" if r["max_delta_depth"] is None else str(r["max_delta_depth"])
        print(
            f"| {r['label']} | {r['steps']:,} | {_mib(r['bytes'])} | "
            f"{r['per_step_us']:,.0f} µs | {r['read_old_ms']:.2f} ms | {depth} |"
        )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LANGGRAPH_STRICT_MSGPACK", "false")
    raise SystemExit(main())
