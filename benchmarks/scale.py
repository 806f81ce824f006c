"""Scale-out: runs per second with 1, 2 and 4 worker processes, and per-run overhead.

    python -m benchmarks.scale [--runs 300] [--workers 1 2 4] [--jobs 2] [--apis 2]
                               [--signals postgres redis] [--overhead-runs 60]

A deployment of `foldgraph serve --role api` instances and `--role worker` processes
(each executing `--jobs` runs at once) on one PostgreSQL database serves a 3-node
graph whose nodes sleep 20-50 ms, standing in for model calls (I/O-bound runs).
Async SDK clients queue `--runs` runs over `--runs / 5` threads (5 per thread, in
order) on random API instances, then join them all; runs per second is runs over
the wall time from the first submission to the last run's end. Each worker count
gets a fresh database and fresh processes. The table also gives the CPU time spent
per run by the server processes, by the PostgreSQL backends serving them, and by
the clients, and the runs per second those would allow if they had every core of
the machine ("CPU ceiling"): more workers add throughput only below that ceiling,
and less when other work shares the machine (the load average is printed).

Per-run overhead: one client runs the same graph with nodes that do not sleep, one
run after another (`runs.wait`), on the single-process server (`serve`, SQLite and
PostgreSQL) and on an API instance plus a worker (each kind of signals): the median
time per run, and the server CPU per run.

PostgreSQL comes from FOLDGRAPH_PG_DSN (`.ci/with_postgres.sh` sets it; `make
bench-scale` runs this under it and `.ci/with_redis.sh`), Redis from
FOLDGRAPH_REDIS_URL; without Redis its rows are left out. Everything listens on
127.0.0.1 and every process is stopped by its pid.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pathlib
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Iterator, Sequence

GRAPH = """
import asyncio, operator, random
from typing import Annotated
from typing_extensions import TypedDict
from foldgraph.graph import StateGraph, START, END

class State(TypedDict, total=False):
    log: Annotated[list, operator.add]
    run: int
    pause: float

def _node(name):
    async def node(state):
        pause = state.get("pause")
        await asyncio.sleep(pause if pause is not None else random.uniform(0.02, 0.05))
        return {"log": [f"{state.get('run', 0)}:{name}"]}
    return node

builder = StateGraph(State)
previous = START
for name in ("a", "b", "c"):
    builder.add_node(name, _node(name))
    builder.add_edge(previous, name)
    previous = name
builder.add_edge(previous, END)
graph = builder.compile()
"""

PER_THREAD = 5


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _database_cpu(database: str) -> float:
    """CPU time of the PostgreSQL backends serving `database` (named in their titles)."""
    total = 0.0
    marker = f" {database} ".encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                title = f.read()
        except OSError:
            continue
        if title.startswith(b"postgres:") and marker in title.replace(b"\0", b" ") + b" ":
            total += _cpu_seconds(int(entry.name))
    return total


class Server:
    """One `foldgraph serve` process on a free 127.0.0.1 port; its output in a file."""

    def __init__(self, args: list[str], log_dir: pathlib.Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [*args, "--port", str(self.port)]
        self.log = log_dir / f"serve-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "foldgraph.cli", "serve", *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        return self

    def ready(self, timeout: float = 120.0) -> Server:
        import httpx

        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/ok", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"server not ready in {timeout}s:\n{self.log.read_text()[-3000:]}")

    def cpu(self) -> float:
        return _cpu_seconds(self.proc.pid) if self.proc is not None else 0.0

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@contextlib.contextmanager
def servers(arg_lists: Sequence[list[str]], log_dir: pathlib.Path) -> Iterator[list[Server]]:
    started = [Server(args, log_dir).start() for args in arg_lists]
    try:
        for server in started:
            server.ready()
        yield started
    finally:
        for server in started:
            server.stop()


@contextlib.contextmanager
def fresh_database(dsn: str) -> Iterator[str]:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    name = f"fg_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    parts = conninfo_to_dict(dsn)
    query = {k: str(v) for k, v in parts.items() if k in ("host", "port", "password")}
    user = urllib.parse.quote(str(parts.get("user", "")))
    try:
        yield f"postgresql://{user}@/{name}?{urllib.parse.urlencode(query)}"
    finally:
        with contextlib.suppress(Exception), psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


async def _throughput(urls: list[str], runs: int) -> float:
    """Queue `runs` runs (5 per thread, in order) on random API instances; seconds taken."""
    from langgraph_sdk import get_client

    clients = [get_client(url=u, api_key=None, timeout=300) for u in urls]
    threads = [(await clients[0].threads.create())["thread_id"] for _ in range(runs // PER_THREAD)]
    gate = asyncio.Semaphore(64)
    made: list[tuple[str, str]] = []
    started = time.monotonic()

    async def queue_thread(thread_id: str) -> None:
        for k in range(PER_THREAD):
            async with gate:
                run = await random.choice(clients).runs.create(thread_id, "graph", input={"run": k})
            made.append((thread_id, run["run_id"]))

    await asyncio.gather(*(queue_thread(t) for t in threads))

    async def join(thread_id: str, run_id: str) -> None:
        async with gate:
            await random.choice(clients).runs.join(thread_id, run_id)

    await asyncio.gather(*(join(t, r) for t, r in made))
    took = time.monotonic() - started
    check = await clients[0].threads.get_state(threads[0])
    expected = [f"{k}:{n}" for k in range(PER_THREAD) for n in "abc"]
    if check["values"]["log"] != expected:
        raise AssertionError(f"wrong state: {check['values']}")
    return took


async def _overhead(url: str, runs: int) -> list[float]:
    """Seconds per run, one run after another, nodes that do not sleep."""
    from langgraph_sdk import get_client

    client = get_client(url=url, api_key=None, timeout=120)
    thread = (await client.threads.create())["thread_id"]
    times = []
    for k in range(runs + 3):
        started = time.monotonic()
        out = await client.runs.wait(thread, "graph", input={"run": k, "pause": 0.0})
        if out["log"][-1] != f"{k}:c":
            raise AssertionError(f"wrong output: {out}")
        if k >= 3:  # the first runs warm the processes up
            times.append(time.monotonic() - started)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scale", description=__doc__)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--jobs", type=int, default=2, help="runs each worker executes at once")
    parser.add_argument("--apis", type=int, default=2)
    parser.add_argument("--signals", nargs="+", default=["postgres", "redis"])
    parser.add_argument("--overhead-runs", type=int, default=60)
    args = parser.parse_args(argv)
    dsn = os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        print("benchmarks.scale needs PostgreSQL: run `make bench-scale`", file=sys.stderr)
        return 2
    redis = os.environ.get("FOLDGRAPH_REDIS_URL")
    signals = [s for s in args.signals if s == "postgres" or redis]
    work = pathlib.Path(tempfile.mkdtemp(prefix="fg-bench-scale-"))
    (work / "graph.py").write_text(GRAPH)
    project = '{"dependencies": ["."], "graphs": {"graph": "./graph.py:graph"}}'
    (work / "langgraph.json").write_text(project)
    config = ["--config", str(work / "langgraph.json")]
    load = os.getloadavg()[0]
    print(
        f"# {args.runs} runs of a 3-node graph (nodes sleep 20-50 ms), {args.apis} API "
        f"instances, --jobs {args.jobs} per worker; {os.cpu_count()} cores, load average "
        f"{load:.1f} at start\n"
    )
    print(
        f"{'signals':<9} {'workers':>7} {'runs/s':>8} {'speed-up':>9} {'seconds':>8} "
        f"{'CPU ms/run: server':>19} {'PostgreSQL':>10} {'clients':>8} {'CPU ceiling':>12}"
    )
    cores = os.cpu_count() or 1
    for kind in signals:
        base = None
        for n in args.workers:
            with fresh_database(dsn) as url:
                database = url.split("@/", 1)[1].split("?", 1)[0]
                common = [*config, "--database-url", url, "--jobs", str(args.jobs)]
                if kind == "redis":
                    common += ["--redis-url", f"{redis.rstrip('/')}/0"]
                roles = [["--role", "api"]] * args.apis + [["--role", "worker"]] * n
                with servers([[*common, *r] for r in roles], work) as procs:
                    apis = procs[: args.apis]
                    cpu0 = sum(p.cpu() for p in procs)
                    db0, client0 = _database_cpu(database), time.process_time()
                    took = asyncio.run(_throughput([a.url for a in apis], args.runs))
                    client = time.process_time() - client0
                    db = _database_cpu(database) - db0
                    cpu = sum(p.cpu() for p in procs) - cpu0
            rate = args.runs / took
            base = base or rate
            # The most runs per second this machine's cores could give if the
            # deployment, its database and its clients had them all to themselves.
            ceiling = cores / ((cpu + db + client) / args.runs)
            print(
                f"{kind:<9} {n:>7} {rate:>8.1f} {rate / base:>8.2f}x {took:>8.1f} "
                f"{cpu / args.runs * 1000:>19.1f} {db / args.runs * 1000:>10.1f} "
                f"{client / args.runs * 1000:>8.1f} {ceiling:>12.1f}",
                flush=True,
            )
    print(f"\n# per-run overhead: {args.overhead_runs} runs one after another, nodes not sleeping")
    print(f"{'server':<44} {'ms/run p50':>11} {'p90':>7} {'server CPU ms/run':>18}")
    setups = [("one process (serve, SQLite)", "sqlite"), ("one process (serve, PostgreSQL)", "one")]
    setups += [(f"api + worker ({kind} signals)", kind) for kind in signals]
    for label, setup in setups:
        with contextlib.ExitStack() as stack:
            if setup == "sqlite":
                arg_lists = [[*config, "--database-url", str(work / f"{uuid.uuid4().hex}.db")]]
            else:
                url = stack.enter_context(fresh_database(dsn))
                common = [*config, "--database-url", url]
                if setup == "one":
                    arg_lists = [common]
                else:
                    if setup == "redis":
                        common += ["--redis-url", f"{redis.rstrip('/')}/0"]
                    arg_lists = [[*common, "--role", "api"], [*common, "--role", "worker"]]
            procs = stack.enter_context(servers(arg_lists, work))
            cpu0 = sum(p.cpu() for p in procs)
            times = asyncio.run(_overhead(procs[0].url, args.overhead_runs))
            cpu = sum(p.cpu() for p in procs) - cpu0
        times.sort()
        p50 = statistics.median(times) * 1000
        p90 = times[int(len(times) * 0.9) - 1] * 1000
        per = cpu / (len(times) + 3) * 1000
        print(f"{label:<44} {p50:>11.1f} {p90:>7.1f} {per:>18.1f}", flush=True)
    print(f"\n# load average at the end: {os.getloadavg()[0]:.1f}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
