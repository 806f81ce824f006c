"""Many processes on one PostgreSQL database: `foldgraph serve --role api|worker`, driven
with the official SDK through either API instance.

One deployment (2 API instances, 2 workers, all started at once on an empty database)
serves every test of this module, once with signals over PostgreSQL and once over Redis;
the tests that kill or stop processes are in `test_scale_faults.py`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from cluster import Cluster, cluster, db_rows, fresh_database, redis_url, sdk, wait_for
from langgraph_sdk.errors import ConflictError, NotFoundError

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", params=["postgres", "redis"])
def deployment(request, tmp_path_factory) -> Iterator[Cluster]:
    with fresh_database() as db:
        redis = redis_url() if request.param == "redis" else None
        log_dir = tmp_path_factory.mktemp("deployment")
        with cluster(db, log_dir, apis=2, workers=2, redis=redis) as made:
            yield made


def test_processes_started_together_on_an_empty_database(deployment) -> None:
    for api in deployment.apis:
        found = sdk(api).assistants.search(limit=100)
        assert sorted(a["graph_id"] for a in found) == ["long", "sleepy"]
    rows = db_rows(deployment.database_url, "SELECT component, version FROM srv_schema")
    assert rows == [("scale", 1)]
    for worker in deployment.workers:
        health = httpx.get(f"{worker.url}/ok").json()
        assert health["ok"] is True and health["role"] == "worker"
        # A worker serves its health check only.
        assert httpx.get(f"{worker.url}/assistants/search").status_code == 404


def test_cancel_through_one_instance_stops_a_run_within_a_second(deployment) -> None:
    a, b = sdk(deployment.apis[0]), sdk(deployment.apis[1])
    thread = b.threads.create()["thread_id"]
    run = b.runs.create(thread, "long", input={"pause": 0.4})
    wait_for(lambda: b.threads.get_state(thread)["values"].get("log"), 20, "a first step")
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


def test_reject_gives_409_from_every_instance(deployment) -> None:
    a = sdk(deployment.apis[0])
    thread = a.threads.create()["thread_id"]
    run = a.runs.create(thread, "long", input={"pause": 0.3})
    for api in deployment.apis:
        with pytest.raises(ConflictError, match="Thread is already running a task") as err:
            sdk(api).runs.create(thread, "long", input={"pause": 0.0}, multitask_strategy="reject")
        assert err.value.response.status_code == 409
    a.runs.cancel(thread, run["run_id"], wait=True)
    done = sdk(deployment.apis[1]).runs.wait(
        thread, "sleepy", input={"run": 7}, multitask_strategy="reject"
    )
    assert done["log"][-3:] == ["7:a", "7:b", "7:c"]


@pytest.mark.parametrize("strategy", ["interrupt", "rollback"])
def test_interrupt_and_rollback_reach_a_run_queued_through_the_other_instance(
    deployment, strategy
) -> None:
    a, b = sdk(deployment.apis[0]), sdk(deployment.apis[1])
    thread = a.threads.create()["thread_id"]
    a.runs.wait(thread, "sleepy", input={"run": 0, "pause": 0.0})
    first = a.runs.create(thread, "long", input={"run": 1, "pause": 0.3})
    wait_for(lambda: "1:s00" in b.threads.get_state(thread)["values"]["log"], 20, "a step")
    second = b.runs.create(
        thread, "sleepy", input={"run": 2, "pause": 0.0}, multitask_strategy=strategy
    )
    b.runs.join(thread, second["run_id"])
    assert b.runs.get(thread, second["run_id"])["status"] == "success"
    log = a.threads.get_state(thread)["values"]["log"]
    if strategy == "interrupt":  # the first run's committed steps stay, then the second's
        assert a.runs.get(thread, first["run_id"])["status"] == "interrupted"
        cut = log.index("2:a")
        assert log[:4] == ["0:a", "0:b", "0:c", "1:s00"]
        assert log[3:cut] == [f"1:s{i:02d}" for i in range(cut - 3)] and cut - 3 < 12
        assert log[cut:] == ["2:a", "2:b", "2:c"]
        steps = [h["metadata"]["step"] for h in a.threads.get_history(thread, limit=100)]
        assert steps == list(range(steps[0], -2, -1))  # one chain, each step once
    else:  # the first run is gone, and so are its steps from the thread's state
        for client in (a, b):
            with pytest.raises(NotFoundError):
                client.runs.get(thread, first["run_id"])
        assert log == ["0:a", "0:b", "0:c", "2:a", "2:b", "2:c"]


def test_crons_fire_once_across_instances(deployment) -> None:
    client = sdk(deployment.apis[0])
    thread = client.threads.create()["thread_id"]
    cron = client.crons.create_for_thread(
        thread, "sleepy", schedule="* * * * * *", input={"run": 0, "pause": 0.0}
    )
    time.sleep(4.2)
    client.crons.delete(cron["cron_id"])
    runs = client.runs.list(thread, limit=100)
    for run in runs:
        client.runs.join(thread, run["run_id"])
    seconds = [r["created_at"][:19] for r in runs]
    assert 3 <= len(runs) <= 5
    assert len(set(seconds)) == len(seconds), seconds  # once per firing, not per instance


def test_history_pages_give_every_checkpoint_once(deployment) -> None:
    a, b = sdk(deployment.apis[0]), sdk(deployment.apis[1])
    thread = a.threads.create()["thread_id"]
    for k in range(4):
        a.runs.wait(thread, "sleepy", input={"run": k, "pause": 0.0})
    every = [h["checkpoint"]["checkpoint_id"] for h in a.threads.get_history(thread, limit=100)]
    assert len(every) == 4 * 5
    for shape in ("id", "flat", "configurable"):
        pages, before = [], None
        for turn in range(10):
            client = (a, b)[turn % 2]  # pages from alternating instances
            page = client.threads.get_history(thread, limit=6, before=before)
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
    # GET .../history?before=<id> too.
    page = httpx.get(
        f"{deployment.apis[1].url}/threads/{thread}/history",
        params={"limit": 5, "before": every[9]},
    ).json()
    assert [h["checkpoint"]["checkpoint_id"] for h in page] == every[10:15]
