"""The HTTP server: runs per second and latency for N concurrent SDK clients.

    python -m benchmarks.server [--clients 1 10 50] [--runs 200] [--langgraph-dev PATH]

Serves a 3-node graph (a -> b -> c, each appending to a list) with `foldgraph dev`
(its default SQLite file, every checkpoint kept) and, when a `langgraph` CLI with
`langgraph-api` is given (`--langgraph-dev`, default: `.venv-lgdev/bin/langgraph`
when it exists; `make bench-server` makes it), with `langgraph dev` (in memory), each
on a free 127.0.0.1 port, one after the other, in the same run.

Each client is an async `langgraph-sdk` client with a thread of its own; it
streams runs (`runs.stream`, mode `values`) one after another until the level's
`--runs` are done. Reported per server and client count: runs per second, the
time from sending the request to the first SSE event (p50/p99) and to the run's
last event (p50/p99). Clients and servers share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

GRAPH = """
import operator
from typing import Annotated
from typing_extensions import TypedDict
from {root}.graph import StateGraph, START, END

class State(TypedDict, total=False):
    items: Annotated[list, operator.add]

def a(state):
    return {{"items": ["a"]}}

def b(state):
    return {{"items": ["b"]}}

def c(state):
    return {{"items": ["c"]}}

builder = StateGraph(State)
for node in (a, b, c):
    builder.add_node(node)
builder.add_edge(START, "a")
builder.add_edge("a", "b")
builder.add_edge("b", "c")
builder.add_edge("c", END)
graph = builder.compile()
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _project(root: str) -> pathlib.Path:
    folder = pathlib.Path(tempfile.mkdtemp(prefix=f"bench-server-{root}-"))
    (folder / "graph.py").write_text(GRAPH.format(root=root))
    (folder / "langgraph.json").write_text(
        json.dumps({"dependencies": ["."], "graphs": {"bench": "./graph.py:graph"}})
    )
    return folder


class Served:
    """A server process on a free port, stopped by its pid."""

    def __init__(self, name: str, cmd: list[str], cwd: pathlib.Path, port: int) -> None:
        self.name, self.url = name, f"http://127.0.0.1:{port}"
        self.log = open(cwd / "server.log", "wb")
        self.proc = subprocess.Popen(
            cmd, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def wait_ready(self, timeout: float = 120) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.url}/ok", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer /ok within {timeout}s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)
        self.log.close()


async def _level(url: str, clients: int, runs: int) -> dict[str, float]:
    from langgraph_sdk import get_client

    client = get_client(url=url, api_key=None)
    threads = [(await client.threads.create())["thread_id"] for _ in range(clients)]
    # One warm-up run per thread (imports, first checkpoint).
    await asyncio.gather(*(client.runs.wait(t, "bench", input={"items": []}) for t in threads))
    todo = iter(range(runs))
    first: list[float] = []
    total: list[float] = []

    async def worker(thread_id: str) -> None:
        for _ in todo:
            start = time.perf_counter()
            seen_first = False
            last = None
            async for part in client.runs.stream(
                thread_id, "bench", input={"items": []}, stream_mode="values"
            ):
                if not seen_first:
                    first.append(time.perf_counter() - start)
                    seen_first = True
                if part.event == "values":
                    last = part
            total.append(time.perf_counter() - start)
            assert last is not None and last.data["items"][-3:] == ["a", "b", "c"], last

    began = time.perf_counter()
    await asyncio.gather(*(worker(t) for t in threads))
    wall = time.perf_counter() - began
    return {
        "runs_per_s": len(total) / wall,
        "first_p50": _pct(first, 50),
        "first_p99": _pct(first, 99),
        "run_p50": _pct(total, 50),
        "run_p99": _pct(total, 99),
    }


def _pct(values: Sequence[float], p: int) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    if len(ordered) == 1:
        return ordered[0]
    return (
        statistics.quantiles(ordered, n=100, method="inclusive")[p - 1] if p < 100 else ordered[-1]
    )


def measure(name: str, cmd: list[str], root: str, levels: Sequence[int], runs: int) -> dict:
    project = _project(root)
    port = _free_port()
    server = Served(name, [*cmd, "--port", str(port)], project, port)
    try:
        server.wait_ready()
        return {n: asyncio.run(_level(server.url, n, max(runs, n))) for n in levels}
    finally:
        server.stop()
        shutil.rmtree(project, ignore_errors=True)


def _table(results: dict[str, dict[int, dict[str, float]]], levels: Sequence[int]) -> str:
    rows = [
        "| clients | server | runs/s | first event p50 / p99 (ms) | run p50 / p99 (ms) |",
        "|---|---|---|---|---|",
    ]
    for n in levels:
        for name, by_level in results.items():
            r = by_level[n]
            rows.append(
                f"| {n} | {name} | {r['runs_per_s']:.1f} | "
                f"{r['first_p50'] * 1e3:.1f} / {r['first_p99'] * 1e3:.1f} | "
                f"{r['run_p50'] * 1e3:.1f} / {r['run_p99'] * 1e3:.1f} |"
            )
    names = list(results)
    if len(names) == 2:
        rows.append("")
        for n in levels:
            a, b = results[names[0]][n], results[names[1]][n]
            rows.append(
                f"{n} clients: {names[0]} {a['runs_per_s'] / b['runs_per_s']:.1f}x the runs/s of "
                f"{names[1]}; run p99 {a['run_p99'] * 1e3:.0f} vs {b['run_p99'] * 1e3:.0f} ms"
            )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--runs", type=int, default=200, help="runs per client count")
    parser.add_argument("--langgraph-dev", default=None, help="path of a `langgraph` CLI")
    parser.add_argument("--jobs", type=int, default=10, help="foldgraph's --jobs")
    args = parser.parse_args(argv)
    results: dict[str, dict[int, dict[str, float]]] = {}
    results["foldgraph dev"] = measure(
        "foldgraph dev",
        [sys.executable, "-m", "foldgraph.cli", "dev", "--jobs", str(args.jobs)],
        "foldgraph",
        args.clients,
        args.runs,
    )
    lg = args.langgraph_dev
    if lg is None and pathlib.Path(".venv-lgdev/bin/langgraph").exists():
        lg = str(pathlib.Path(".venv-lgdev/bin/langgraph").resolve())
    if lg:
        results["langgraph dev"] = measure(
            "langgraph dev",
            [lg, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1"],
            "langgraph",
            args.clients,
            args.runs,
        )
    else:
        print("langgraph dev not found (make bench-server installs it): foldgraph only\n")
    print(_table(results, args.clients))
    return 0


if __name__ == "__main__":
    sys.exit(main())
