"""`--url`: a running server (foldgraph's own `foldgraph dev`) read through langgraph-sdk,
agreeing with the same threads read from the server's database file."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from foldgraph.ui.source import NotFound, open_source

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "server"))

from server_process import Server  # noqa: E402


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from langgraph_sdk import get_sync_client

    folder = tmp_path_factory.mktemp("served")
    (folder / "langgraph.json").write_text(
        json.dumps({"graphs": {"threads": str(HERE / "threads_graph.py") + ":graph"}})
    )
    db = folder / "server.sqlite"
    server = Server(["dev", "--config", str(folder / "langgraph.json"), "--database-url", str(db)])
    server.start()
    try:
        client = get_sync_client(url=server.url)
        human = {"messages": [{"type": "human", "content": "weather?", "id": "h-1"}]}
        done = client.threads.create(metadata={"purpose": "done"})["thread_id"]
        client.runs.wait(done, "threads", input=human)
        client.runs.wait(done, "threads", command={"resume": "yes"})
        waiting = client.threads.create(metadata={"purpose": "waiting"})["thread_id"]
        client.runs.wait(waiting, "threads", input=human)
        yield server.url, db, {"done": done, "waiting": waiting}
    finally:
        server.stop()


def test_threads_and_history_agree_with_the_database(served) -> None:
    url, db, ids = served
    remote = open_source(url)
    local = open_source(db)
    try:
        rows = {r.thread_id: r for r in remote.threads()}
        assert {rows[ids["done"]].status, rows[ids["waiting"]].status} == {"done", "interrupted"}
        assert rows[ids["done"]].metadata["step"] == 4
        assert [r.thread_id for r in remote.threads(search="waiting")] == [ids["waiting"]]
        for thread_id in ids.values():
            theirs = local.history(thread_id, ns="")
            mine = remote.history(thread_id, limit=3)
            while len(mine) < len(theirs):
                page = remote.history(thread_id, limit=3, before=mine[-1].checkpoint_id)
                assert page
                mine.extend(page)
            assert [
                (r.checkpoint_id, r.parent_checkpoint_id, r.step, r.source, r.next) for r in mine
            ] == [
                (r.checkpoint_id, r.parent_checkpoint_id, r.step, r.source, r.next) for r in theirs
            ]
            assert [r.writes for r in mine[:-2]] == [r.writes for r in theirs[:-2]]
        view = remote.checkpoint(ids["waiting"])
        assert view.values == local.checkpoint(ids["waiting"]).values
        assert [i["value"] for i in view.interrupts] == [{"question": "publish?", "draft": "v1"}]
        with pytest.raises(NotFound):
            remote.history("00000000-0000-0000-0000-000000000000")
    finally:
        remote.close()
        local.close()


def test_cli_reads_a_server(served) -> None:
    url, _, ids = served
    done = subprocess.run(
        [sys.executable, "-m", "foldgraph.cli", "show", "--url", url, ids["done"], "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    view = json.loads(done.stdout)
    assert view["values"]["draft"] == "v1:yes" and view["next"] == []
    missing = subprocess.run(
        [sys.executable, "-m", "foldgraph.cli", "threads", "--url", "http://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 2 and "no LangGraph-compatible server answers" in missing.stderr
