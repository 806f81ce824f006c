"""Faults of a deployment on one PostgreSQL database: a worker killed or stopped mid-run,
an API instance killed under a streaming client, the database restarted under load.
Real processes on 127.0.0.1, driven with the official SDK; each test has its own."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator

import pytest
from cluster import (
    PrivatePostgres,
    PrivateRedis,
    check_thread,
    cluster,
    database_url_from,
    db_rows,
    fresh_database,
    redis_url,
    sdk,
    wait_for,
)

pytestmark = pytest.mark.timeout(180)

LONG = [f"s{i:02d}" for i in range(12)]


@pytest.fixture
def db() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture(params=["postgres", "redis"])
def signals(request) -> str | None:
    """What carries the signals: PostgreSQL alone (None) or a Redis URL."""
    return redis_url() if request.param == "redis" else None


def test_runs_of_a_killed_worker_finish_on_another(db, tmp_path, signals) -> None:
    with cluster(db, tmp_path, apis=1, workers=2, lease=2.0, jobs=4, redis=signals) as c:
        client = sdk(c.apis[0])
        threads = [client.threads.create()["thread_id"] for _ in range(4)]
        runs = [client.runs.create(t, "long", input={"run": 0, "pause": 0.25}) for t in threads]
        for t in threads:  # every run has committed some steps
            wait_for(
                lambda t=t: len(client.threads.get_state(t)["values"].get("log") or []) >= 2,
                30,
                "two steps",
            )
        owners = dict(db_rows(db, "SELECT run_id, worker_id FROM srv_runs"))
        held = {w: [r for r, o in owners.items() if f"-{w.proc.pid}-" in o] for w in c.workers}
        victim = max(c.workers, key=lambda w: len(held[w]))
        victim.kill()
        for t, run in zip(threads, runs, strict=True):
            client.runs.join(t, run["run_id"])
            assert client.runs.get(t, run["run_id"])["status"] == "success"
            check_thread(client, t, 1, LONG)
        attempts = dict(db_rows(db, "SELECT run_id, attempt FROM srv_runs"))
        assert {attempts[r] for r in held[victim]} == {2}
        survivors = [r["run_id"] for r in runs if r["run_id"] not in held[victim]]
        assert all(attempts[r] == 1 for r in survivors)


def test_sigterm_drains_a_worker_and_runs_wait_for_the_next(db, tmp_path) -> None:
    extra = ["--drain-seconds", "10"]
    with cluster(db, tmp_path, apis=1, workers=1, lease=30.0, extra=extra) as c:
        client = sdk(c.apis[0])
        threads = [client.threads.create()["thread_id"] for _ in range(3)]
        runs = [client.runs.create(t, "long", input={"run": 0, "pause": 0.3}) for t in threads]
        for t in threads:
            wait_for(lambda t=t: client.threads.get_state(t)["values"].get("log"), 30, "a step")
        worker = c.workers[0]
        started = time.monotonic()
        worker.signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then dies of the signal it caught, as told.
        assert worker.proc.wait(timeout=20) in (0, -signal.SIGTERM)
        assert time.monotonic() - started < 8  # a step boundary, not the 30 s lease
        rows = db_rows(db, "SELECT status, drains, worker_id FROM srv_runs")
        assert rows == [("pending", 1, None)] * 3
        done = [len(client.threads.get_state(t)["values"]["log"]) for t in threads]
        assert all(0 < n < len(LONG) for n in done)
        # With no worker up, a new run waits too.
        fresh = client.threads.create()["thread_id"]
        waiting = client.runs.create(fresh, "sleepy", input={"run": 0})
        time.sleep(1.0)
        assert client.runs.get(fresh, waiting["run_id"])["status"] == "pending"
        c.add_worker()
        for t, run in [*zip(threads, runs, strict=True), (fresh, waiting)]:
            client.runs.join(t, run["run_id"])
            assert client.runs.get(t, run["run_id"])["status"] == "success"
        for t in threads:
            check_thread(client, t, 1, LONG)
        check_thread(client, fresh, 1, ["a", "b", "c"])


def test_a_stream_cut_by_a_dying_api_instance_resumes_on_another(db, tmp_path, signals) -> None:
    with cluster(db, tmp_path, apis=2, workers=1, redis=signals) as c:
        thread = sdk(c.apis[0]).threads.create()["thread_id"]
        client = sdk(c.balancer)  # the SDK reconnects through the balancer, as behind any
        parts = []
        killed = None
        for part in client.runs.stream(
            thread,
            "long",
            input={"run": 0, "pause": 0.15},
            stream_mode=["values", "updates"],
            stream_resumable=True,
        ):
            parts.append(part)
            if len(parts) == 6:
                killed = c.balancer.assigned[-1]
                killed.kill()
        assert killed is not None and not killed.alive
        ids = [int(p.id) for p in parts]
        assert ids == list(range(1, len(parts) + 1)), ids  # none missed, none twice
        run_id = parts[0].data["run_id"]
        live = sdk(next(a for a in c.apis if a.alive))
        replay = list(live.runs.join_stream(thread, run_id, last_event_id="0"))
        assert [(p.event, p.data, p.id) for p in replay] == [(p.event, p.data, p.id) for p in parts]
        updates = [next(iter(p.data)) for p in parts if p.event == "updates"]
        assert updates == LONG


def test_postgres_restarted_under_load_every_run_completes(tmp_path) -> None:
    pg = PrivatePostgres().init()
    try:
        import psycopg

        with psycopg.connect(pg.dsn, autocommit=True) as admin:
            admin.execute("CREATE DATABASE scale")
        url = database_url_from(pg.dsn, "scale")
        with cluster(url, tmp_path, apis=2, workers=2, lease=4.0, jobs=6) as c:
            clients = [sdk(a) for a in c.apis]
            threads = [clients[0].threads.create()["thread_id"] for _ in range(12)]
            runs = []
            for k in range(2):
                for i, t in enumerate(threads):
                    runs.append((t, clients[i % 2].runs.create(t, "long", input={
                        "run": k, "pause": 0.08})))  # fmt: skip
            wait_for(
                lambda: (
                    db_rows(url, "SELECT count(*) FROM srv_runs WHERE status = 'success'")[0][0]
                    >= 3
                ),
                60,
                "some runs ending",
            )
            unfinished = db_rows(
                url, "SELECT count(*) FROM srv_runs WHERE status IN ('pending', 'running')"
            )[0][0]
            assert unfinished > 6  # the restart comes in the middle of the work
            restarted = threading.Event()

            def restart() -> None:
                pg.stop("fast")
                time.sleep(1.5)
                pg.start()
                restarted.set()

            restart()
            assert restarted.is_set()
            for t, run in runs:
                clients[1].runs.join(t, run["run_id"])
            statuses = db_rows(url, "SELECT status, count(*) FROM srv_runs GROUP BY status")
            assert statuses == [("success", len(runs))]
            for t in threads:
                check_thread(clients[0], t, 2, LONG)
            # and the deployment still takes new work
            more = clients[1].threads.create()["thread_id"]
            assert clients[0].runs.wait(more, "sleepy", input={"run": 0})["log"] == [
                "0:a",
                "0:b",
                "0:c",
            ]
    finally:
        pg.remove()


def test_redis_keeps_only_signals_and_a_restart_loses_no_run(db, tmp_path) -> None:
    """Redis carries wake-ups, cancels and stream events, nothing durable: every key it
    holds expires, and a restart (which empties it) under load costs no run, no step."""
    redis = PrivateRedis(tmp_path).start()
    try:
        with cluster(db, tmp_path, apis=2, workers=2, lease=4.0, jobs=6, redis=redis.url) as c:
            clients = [sdk(a) for a in c.apis]
            threads = [clients[0].threads.create()["thread_id"] for _ in range(8)]
            runs = []
            for k in range(2):
                for i, t in enumerate(threads):
                    runs.append((t, clients[i % 2].runs.create(t, "long", input={
                        "run": k, "pause": 0.08})))  # fmt: skip
            wait_for(
                lambda: (
                    db_rows(db, "SELECT count(*) FROM srv_runs WHERE status = 'success'")[0][0] >= 2
                ),
                60,
                "some runs ending",
            )
            keys = redis.client().keys("*")
            kinds = {k.decode().rsplit(":", 1)[-1] for k in keys}
            assert kinds <= {"events", "meta", "end", "base"}, kinds
            assert all(redis.client().ttl(k) > 0 for k in keys)  # each expires by itself
            unfinished = db_rows(
                db, "SELECT count(*) FROM srv_runs WHERE status IN ('pending', 'running')"
            )[0][0]
            assert unfinished > 4  # the restart comes in the middle of the work
            redis.stop()
            time.sleep(1.5)
            redis.start()
            for t, run in runs:
                clients[1].runs.join(t, run["run_id"])
            statuses = db_rows(db, "SELECT status, count(*) FROM srv_runs GROUP BY status")
            assert statuses == [("success", len(runs))]
            for t in threads:
                check_thread(clients[0], t, 2, LONG)
            more = clients[1].threads.create()["thread_id"]
            out = clients[0].runs.wait(more, "sleepy", input={"run": 0})
            assert out["log"] == ["0:a", "0:b", "0:c"]
    finally:
        redis.stop()


OWN_CONNECTIONS = """
import operator
import pathlib
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph

TRIES = pathlib.Path(__file__).parent / "tries"


class State(TypedDict, total=False):
    log: Annotated[list, operator.add]
    kind: str


def first(state: State) -> dict:
    return {"log": ["first"]}


def talks(state: State) -> dict:
    with TRIES.open("a") as f:
        f.write(state["kind"] + "\\n")
    if state["kind"] == "psycopg":
        import psycopg

        raise psycopg.OperationalError("the graph's own database is away")
    if state["kind"] == "redis":
        import redis.exceptions

        raise redis.exceptions.ConnectionError("the graph's own Redis is away")
    return {"log": ["talked"]}


builder = StateGraph(State)
builder.add_node("first", first)
builder.add_node("talks", talks)
builder.add_edge(START, "first")
builder.add_edge("first", "talks")
builder.add_edge("talks", END)
graph = builder.compile()
"""


def test_a_graph_raising_connection_errors_of_its_own_ends_error(db, tmp_path) -> None:
    """A node raising psycopg's OperationalError or Redis' ConnectionError, while the
    deployment's own database and Redis answer, is tried --max-attempts times (each
    resuming from the last checkpoint), then the run ends `error` with that exception:
    not retried without end as an outage would be."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "graphs.py").write_text(OWN_CONNECTIONS)
    (project / "langgraph.json").write_text(
        '{"dependencies": ["."], "graphs": {"talker": "./graphs.py:graph"}}'
    )
    logs = tmp_path / "logs"
    logs.mkdir()
    with cluster(
        db,
        logs,
        apis=1,
        workers=1,
        lease=2.0,
        redis=redis_url(),
        project=project / "langgraph.json",
    ) as c:
        client = sdk(c.apis[0])
        cases = [
            ("psycopg", "OperationalError", "the graph's own database is away"),
            ("redis", "ConnectionError", "the graph's own Redis is away"),
        ]
        for kind, error, message in cases:
            thread = client.threads.create()["thread_id"]
            started = time.monotonic()
            run = client.runs.create(thread, "talker", input={"kind": kind})
            out = client.runs.join(thread, run["run_id"])
            assert time.monotonic() - started < 60
            assert out == {"__error__": {"error": error, "message": message}}
            assert client.runs.get(thread, run["run_id"])["status"] == "error"
            rows = db_rows(db, "SELECT attempt FROM srv_runs WHERE run_id = %s", [run["run_id"]])
            assert rows == [(3,)]  # --max-attempts (3), then `error`
            state = client.threads.get_state(thread)
            assert state["values"]["log"] == ["first"]  # committed once, resumed after it
            assert client.threads.get(thread)["status"] == "error"
        tries = (project / "tries").read_text().split()
        assert tries == ["psycopg"] * 3 + ["redis"] * 3
        # The worker claims as before: it never took the graph's errors for an outage.
        thread = client.threads.create()["thread_id"]
        assert client.runs.wait(thread, "talker", input={"kind": "none"})["log"] == [
            "first",
            "talked",
        ]
