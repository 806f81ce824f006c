"""Many processes on one PostgreSQL database: `foldgraph serve --role api|worker`, driven
with the official SDK through the API instances (directly, or behind a load balancer)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import psycopg
import pytest
from cluster import Cluster, cluster, fresh_database, redis_url
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import ConflictError

pytestmark = pytest.mark.timeout(120)

LONG = [f"s{i:02d}" for i in range(12)]


@pytest.fixture
def db() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture(params=["postgres", "redis"])
def signals(request) -> str | None:
    """The signals' carrier: PostgreSQL alone (None) or a Redis URL."""
    return redis_url() if request.param == "redis" else None


def client(process):
    return get_sync_client(url=process.url, api_key=None, timeout=30)


def wait_for(predicate, timeout: float, what: str, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout}s"
        time.sleep(every)


def db_rows(url: str, sql: str, params=()) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def check_thread(c, thread_id: str, runs: int, nodes: list[str]) -> None:
    """The thread's state shows each run's steps once, in enqueue order, and its history
    is one chain with every superstep once, in order (no branch, nothing repeated)."""
    state = c.threads.get_state(thread_id)
    assert state["values"]["log"] == [f"{r}:{n}" for r in range(runs) for n in nodes]
    history = c.threads.get_history(thread_id, limit=1000)
    steps = [h["metadata"]["step"] for h in history]
    per_run = len(nodes) + 2  # the input checkpoint, __start__'s step, one per node
    assert steps == list(range(runs * per_run - 2, -2, -1))
    for newer, older in zip(history, history[1:], strict=False):
        assert newer["parent_checkpoint"]["checkpoint_id"] == older["checkpoint"]["checkpoint_id"]


def test_processes_started_together_on_an_empty_database(db, tmp_path) -> None:
    with cluster(db, tmp_path, apis=2, workers=2) as c:
        for api in c.apis:
            found = client(api).assistants.search(limit=100)
            assert sorted(a["graph_id"] for a in found) == ["long", "sleepy"]
        assert db_rows(db, "SELECT component, version FROM srv_schema") == [("scale", 1)]
        ok = [__import__("httpx").get(f"{w.url}/ok").json() for w in c.workers]
        assert ok == [{"ok": True, "role": "worker", "running": 0}] * 2
        # A worker serves its health check only.
        assert __import__("httpx").get(f"{c.workers[0].url}/assistants/search").status_code in (
            404,
            405,
        )


def test_a_run_stays_pending_until_a_worker_starts(db, tmp_path) -> None:
    with cluster(db, tmp_path, apis=1, workers=0) as c:
        sdk = client(c.apis[0])
        thread = sdk.threads.create()["thread_id"]
        run = sdk.runs.create(thread, "sleepy", input={"run": 0})
        time.sleep(1.5)
        assert sdk.runs.get(thread, run["run_id"])["status"] == "pending"
        c.add_worker()
        sdk.runs.join(thread, run["run_id"])
        assert sdk.runs.get(thread, run["run_id"])["status"] == "success"
        check_thread(sdk, thread, 1, ["a", "b", "c"])


def test_cancel_through_one_instance_stops_a_run_within_a_second(db, tmp_path, signals) -> None:
    with cluster(db, tmp_path, apis=2, workers=1, redis=signals) as c:
        a, b = client(c.apis[0]), client(c.apis[1])
        thread = b.threads.create()["thread_id"]
        run = b.runs.create(thread, "long", input={"pause": 0.4})
        wait_for(lambda: b.threads.get_state(thread)["values"].get("log"), 10, "a first step")
        started = time.monotonic()
        a.runs.cancel(thread, run["run_id"])
        wait_for(
            lambda: b.runs.get(thread, run["run_id"])["status"] == "interrupted",
            5,
            "the run's end",
            every=0.01,
        )
        took = time.monotonic() - started
        assert took < 1.0, f"the cancel took {took:.2f}s"
        log = b.threads.get_state(thread)["values"]["log"]
        time.sleep(0.6)
        assert b.threads.get_state(thread)["values"]["log"] == log  # nothing ran since
        assert b.threads.get(thread)["status"] != "busy"


def test_reject_gives_409_from_every_instance(db, tmp_path) -> None:
    with cluster(db, tmp_path, apis=2, workers=1) as c:
        a = client(c.apis[0])
        thread = a.threads.create()["thread_id"]
        run = a.runs.create(thread, "long", input={"pause": 0.3})
        for api in c.apis:
            with pytest.raises(ConflictError, match="Thread is already running a task") as err:
                client(api).runs.create(
                    thread, "long", input={"pause": 0.0}, multitask_strategy="reject"
                )
            assert err.value.response.status_code == 409
        a.runs.cancel(thread, run["run_id"], wait=True)
        assert client(c.apis[1]).runs.wait(
            thread, "sleepy", input={"run": 7}, multitask_strategy="reject"
        )["log"][-3:] == ["7:a", "7:b", "7:c"]


def test_runs_of_a_killed_worker_finish_on_another(db, tmp_path, signals) -> None:
    with cluster(db, tmp_path, apis=1, workers=2, lease=2.0, jobs=4, redis=signals) as c:
        sdk = client(c.apis[0])
        threads = [sdk.threads.create()["thread_id"] for _ in range(4)]
        runs = [sdk.runs.create(t, "long", input={"run": 0, "pause": 0.25}) for t in threads]
        for t in threads:  # every run has committed some steps
            wait_for(lambda t=t: len(sdk.threads.get_state(t)["values"].get("log") or []) >= 2,
                     20, "two steps")  # fmt: skip
        owners = dict(db_rows(db, "SELECT run_id, worker_id FROM srv_runs"))
        by_worker = {w: [r for r, o in owners.items() if f"-{w.proc.pid}-" in o] for w in c.workers}
        victim = max(c.workers, key=lambda w: len(by_worker[w]))
        victim.kill()
        for t, run in zip(threads, runs, strict=True):
            sdk.runs.join(t, run["run_id"])
            assert sdk.runs.get(t, run["run_id"])["status"] == "success"
            check_thread(sdk, t, 1, LONG)
        attempts = dict(db_rows(db, "SELECT run_id, attempt FROM srv_runs"))
        assert {attempts[r] for r in by_worker[victim]} == {2}
        assert all(attempts[r["run_id"]] == 1 for r in runs if r["run_id"] not in by_worker[victim])


def test_sigterm_drains_a_worker_and_another_resumes_its_runs(db, tmp_path) -> None:
    extra = ["--drain-seconds", "10"]
    with cluster(db, tmp_path, apis=1, workers=1, lease=30.0, extra=extra) as c:
        sdk = client(c.apis[0])
        threads = [sdk.threads.create()["thread_id"] for _ in range(3)]
        runs = [sdk.runs.create(t, "long", input={"run": 0, "pause": 0.3}) for t in threads]
        for t in threads:
            wait_for(lambda t=t: sdk.threads.get_state(t)["values"].get("log"), 20, "a step")
        worker = c.workers[0]
        started = time.monotonic()
        worker.signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then dies of the signal it caught, as told.
        assert worker.proc.wait(timeout=20) in (0, -signal.SIGTERM)
        assert time.monotonic() - started < 5  # a step boundary, not the lease
        rows = db_rows(db, "SELECT status, drains, worker_id FROM srv_runs")
        assert rows == [("pending", 1, None)] * 3
        done = [len(sdk.threads.get_state(t)["values"]["log"]) for t in threads]
        assert all(0 < n < len(LONG) for n in done)
        c.add_worker()
        for t, run in zip(threads, runs, strict=True):
            sdk.runs.join(t, run["run_id"])
            assert sdk.runs.get(t, run["run_id"])["status"] == "success"
            check_thread(sdk, t, 1, LONG)


def test_crons_fire_once_across_instances(db, tmp_path) -> None:
    with cluster(db, tmp_path, apis=2, workers=2) as c:
        sdk = client(c.apis[0])
        thread = sdk.threads.create()["thread_id"]
        cron = sdk.crons.create_for_thread(
            thread, "sleepy", schedule="* * * * * *", input={"run": 0, "pause": 0.0}
        )
        time.sleep(4.2)
        sdk.crons.delete(cron["cron_id"])
        runs = sdk.runs.list(thread, limit=100)
        for run in runs:
            sdk.runs.join(thread, run["run_id"])
        seconds = [r["created_at"][:19] for r in runs]
        assert 3 <= len(runs) <= 5
        assert len(set(seconds)) == len(seconds), seconds  # once per firing, not per instance


def test_history_pages_give_every_checkpoint_once(db, tmp_path) -> None:
    with cluster(db, tmp_path, apis=2, workers=1) as c:
        a, b = client(c.apis[0]), client(c.apis[1])
        thread = a.threads.create()["thread_id"]
        for k in range(4):
            a.runs.wait(thread, "sleepy", input={"run": k, "pause": 0.0})
        every = [h["checkpoint"]["checkpoint_id"] for h in a.threads.get_history(thread, limit=100)]
        assert len(every) == 4 * 5
        for shape in ("id", "flat", "configurable"):
            pages, before = [], None
            for turn in range(10):
                sdk = (a, b)[turn % 2]  # pages from alternating instances
                page = sdk.threads.get_history(thread, limit=6, before=before)
                if not page:
                    break
                pages += [h["checkpoint"]["checkpoint_id"] for h in page]
                last = page[-1]["checkpoint"]
                before = {
                    "id": last["checkpoint_id"],
                    "flat": last,
                    "configurable": {"configurable": last},
                }[shape]
            assert pages == every, shape


def test_a_stream_cut_by_a_dying_api_instance_resumes_on_another(db, tmp_path, signals) -> None:
    with cluster(db, tmp_path, apis=2, workers=1, redis=signals) as c:
        setup = client(c.apis[0])
        thread = setup.threads.create()["thread_id"]
        sdk = get_sync_client(url=c.balancer.url, api_key=None, timeout=30)
        parts = []
        killed = None
        for part in sdk.runs.stream(
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
        live = client(next(a for a in c.apis if a.alive))
        replay = list(live.runs.join_stream(thread, run_id, last_event_id="0"))
        assert [(p.event, p.data, p.id) for p in replay] == [
            (p.event, p.data, p.id) for p in parts
        ]
        updates = [next(iter(p.data)) for p in parts if p.event == "updates"]
        assert updates == LONG
