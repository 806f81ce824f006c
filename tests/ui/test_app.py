"""The viewer's HTTP API: the same read model as JSON, and writes only with the
session's token, a graph, and a foldgraph database."""

from __future__ import annotations

import hashlib
import shutil
import time

import pytest
from starlette.testclient import TestClient
from threads_graph import graph

from foldgraph.ui import create_app

BASE = "http://127.0.0.1:8765"


def client(target, **kwargs) -> TestClient:
    return TestClient(create_app(target, **kwargs), base_url=BASE)


def test_the_page_carries_its_config_and_static_assets(db, kind) -> None:
    with client(db, token="tok") as c:
        page = c.get("/")
        assert page.status_code == 200
        assert '"token": "tok"' in page.text
        assert f'"kind": "{kind}-sqlite"' in page.text
        assert '"writable": false' in page.text
        assert '<base href="/">' in page.text
        for asset in ("static/app.js", "static/app.css"):
            assert c.get("/" + asset).status_code == 200
        # Nothing is fetched from elsewhere (the SVG namespace is a name, not a fetch).
        script = c.get("/static/app.js").text.replace("http://www.w3.org/2000/svg", "")
        assert "http://" not in script and "https://" not in script


def test_api_reads(db, expected) -> None:
    with client(db) as c:
        threads = c.get("/api/threads", params={"status": "done"}).json()
        assert [t["thread_id"] for t in threads] == ["t-done"]
        page = c.get("/api/threads/t-done/history", params={"limit": 2}).json()
        assert [r["checkpoint_id"] for r in page] == [
            expected["t-done"][0]["checkpoint_id"],
            expected["t-done"][1]["checkpoint_id"],
        ]
        newest = c.get("/api/threads/t-fork/checkpoints/latest").json()
        assert newest["values"] == expected["t-fork"][0]["values"]
        d = c.get(
            "/api/diff",
            params={
                "thread": "t-fork",
                "a": expected["t-fork"][0]["checkpoint_id"],
                "b": expected["t-done"][0]["checkpoint_id"],
                "other_thread": "t-done",
            },
        ).json()
        assert d["changed"] == {"draft": {"old": "edited", "new": "v1:yes"}}
        missing = c.get("/api/threads/nope/history")
        assert (missing.status_code, missing.json()) == (
            404,
            {"error": "no thread 'nope' in this database"},
        )


def test_without_a_graph_everything_is_read_only(db) -> None:
    with client(db, token="tok") as c:
        made = c.post(
            "/api/threads/t-done/fork",
            json={"checkpoint_id": "x", "values": {}},
            headers={"x-foldgraph-token": "tok"},
        )
        assert made.status_code == 403
        assert "read-only" in made.json()["error"]
        assert c.get("/api/graph.svg").status_code == 404


def test_foreign_databases_stay_read_only_even_with_a_graph(thread_dbs) -> None:
    with client(thread_dbs["langgraph"][0], graph=graph, token="tok") as c:
        assert '"writable": false' in c.get("/").text
        assert "foreign databases are opened read-only" in c.get("/").text
        refused = c.post(
            "/api/threads/t-fork/resume", json={"value": "x"}, headers={"x-foldgraph-token": "tok"}
        )
        assert refused.status_code == 403


def test_other_hosts_are_refused(db) -> None:
    app = create_app(db)
    with TestClient(app, base_url="http://evil.example:8765") as c:
        answer = c.get("/api/threads")
    assert answer.status_code == 403
    assert "loopback" in answer.json()["error"]


def wait_run(c: TestClient, run_id: str) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = c.get(f"/api/runs/{run_id}").json()
        if run["status"] != "running":
            return run
        time.sleep(0.05)
    raise AssertionError("run did not finish in 60 s")


def test_fork_replay_and_answer_with_the_token(thread_dbs, tmp_path) -> None:
    db = tmp_path / "work.sqlite"
    shutil.copy(thread_dbs["foldgraph"][0], db)
    expected = thread_dbs["foldgraph"][1]
    at_tools = next(s for s in expected["t-done"] if s["next"] == ["tools"])
    with client(db, graph=graph, token="tok") as c:
        body = {"checkpoint_id": at_tools["checkpoint_id"], "values": {"draft": "v9"}}
        assert c.post("/api/threads/t-done/fork", json=body).status_code == 403
        wrong = c.post("/api/threads/t-done/fork", json=body, headers={"x-foldgraph-token": "x"})
        assert wrong.status_code == 403
        made = c.post("/api/threads/t-done/fork", json=body, headers={"x-foldgraph-token": "tok"})
        assert made.status_code == 200, made.text
        new_id = made.json()["checkpoint_id"]
        assert c.get(f"/api/threads/t-done/checkpoints/{new_id}").json()["values"]["draft"] == "v9"
        started = c.post(
            "/api/threads/t-done/replay",
            json={"checkpoint_id": new_id},
            headers={"x-foldgraph-token": "tok"},
        ).json()
        run = wait_run(c, started["run_id"])
        assert run["status"] == "done", run
        assert [list(s) for s in run["steps"]] == [["tools"], ["research"], ["__interrupt__"]]
        answered = c.post(
            "/api/threads/t-done/resume", json={"value": "ok"}, headers={"x-foldgraph-token": "tok"}
        ).json()
        run = wait_run(c, answered["run_id"])
        assert run["steps"] == [{"review": {"draft": "v9:ok"}}]
        newest = c.get("/api/threads/t-done/checkpoints/latest").json()
        assert newest["checkpoint_id"] == run["checkpoint_id"]
        assert (newest["values"]["draft"], newest["next"]) == ("v9:ok", [])
        svg = c.get(
            "/api/graph.svg", params={"thread": "t-done", "checkpoint": at_tools["checkpoint_id"]}
        ).text
        assert '<g class="node next" data-node="tools">' in svg
        assert '<g class="node ran" data-node="agent">' in svg


def test_a_session_without_actions_changes_no_byte(thread_dbs, kind, tmp_path) -> None:
    db = tmp_path / "copy.sqlite"
    shutil.copy(thread_dbs[kind][0], db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    with client(db, graph=graph) as c:
        for t in c.get("/api/threads").json():
            for row in c.get(f"/api/threads/{t['thread_id']}/history").json():
                c.get(f"/api/threads/{t['thread_id']}/checkpoints/{row['checkpoint_id']}")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert [p.name for p in tmp_path.iterdir()] == ["copy.sqlite"]


@pytest.mark.parametrize("path", ["/api/threads/t-done/fork", "/api/threads/t-done/resume"])
def test_actions_are_post_only(db, path) -> None:
    with client(db) as c:
        assert c.get(path).status_code == 405


def test_several_graphs_are_told_apart_by_the_threads_graph_id(thread_dbs, tmp_path) -> None:
    from langchain_core.messages import HumanMessage

    from foldgraph.checkpoint.sqlite import SqliteSaver

    db = tmp_path / "work.sqlite"
    shutil.copy(thread_dbs["foldgraph"][0], db)
    with SqliteSaver.from_conn_string(str(db)) as saver:
        bound = graph.copy(update={"checkpointer": saver})
        config = {"configurable": {"thread_id": "t-server"}, "metadata": {"graph_id": "second"}}
        bound.invoke({"messages": [HumanMessage("hi", id="h-9")]}, config)
    with client(db, graphs={"first": graph, "second": graph}) as c:
        assert '"graph": "first, second"' in c.get("/").text
        unnamed = c.get("/api/graph.svg", params={"thread": "t-done"})
        assert unnamed.status_code == 400
        assert "names graph None" in unnamed.json()["error"]
        named = c.get("/api/graph.svg", params={"thread": "t-server"})
        assert named.status_code == 200 and named.text.startswith("<svg")


def test_read_only_keeps_the_graph_for_drawing(db, kind) -> None:
    with client(db, graph=graph, read_only=True, token="tok") as c:
        page = c.get("/").text
        assert '"writable": false' in page
        assert c.get("/api/graph.svg", params={"thread": "t-done"}).status_code == 200
        refused = c.post(
            "/api/threads/t-done/resume", json={"value": 1}, headers={"x-foldgraph-token": "tok"}
        )
        assert refused.status_code == 403
