"""The checkpoint viewer at /ui of `foldgraph dev`: the server's own threads, read-only."""

from __future__ import annotations

import json
import pathlib

import httpx
import pytest
from langgraph_sdk import get_sync_client

from foldgraph.server.app import ServeOptions
from foldgraph.server.config import parse_config
from foldgraph.server.viewer import database_target, is_loopback, why_not_mounted

pytestmark = pytest.mark.timeout(60)


def test_the_viewer_shows_the_servers_threads_read_only(server) -> None:
    client = get_sync_client(url=server.url)
    thread = client.threads.create(metadata={"owner": "ui-test"})
    thread_id = thread["thread_id"]
    client.runs.wait(thread_id, "chain", input={"n": 1})
    with httpx.Client(base_url=server.url, timeout=10) as http:
        page = http.get("/ui/")
        assert page.status_code == 200
        # The page carries its settings, and its links resolve under the mount.
        assert '"writable": false' in page.text and '"reason": "opened read-only"' in page.text
        assert '"/ui/"' in page.text and "/*BASE*/" not in page.text

        listed = {t["thread_id"]: t for t in http.get("/ui/api/threads").json()}
        row = listed[thread_id]
        assert (row["status"], row["metadata"]["owner"]) == ("done", "ui-test")
        history = http.get(f"/ui/api/threads/{thread_id}/history").json()
        assert len(history) == row["checkpoints"] == 5  # input, a, b, c and the first
        newest = http.get(f"/ui/api/threads/{thread_id}/checkpoints/latest").json()
        assert newest["values"] == client.threads.get_state(thread_id)["values"]

        svg = http.get("/ui/api/graph.svg", params={"thread": thread_id})
        assert svg.status_code == 200 and svg.text.lstrip().startswith("<svg")
        refused = http.post(
            f"/ui/api/threads/{thread_id}/fork",
            json={"checkpoint_id": row["checkpoint_id"], "values": {}},
        )
        assert refused.status_code == 403
        assert json.loads(refused.text) == {"error": "read-only: opened read-only"}
        # The API is untouched by the mount.
        assert http.get("/ok").json()["ok"] is True


def _options(**changes) -> ServeOptions:
    return ServeOptions(**changes)


@pytest.mark.parametrize(
    ("raw", "options", "reason"),
    [
        ({}, _options(), None),
        ({}, _options(host="localhost"), None),
        ({}, _options(host="::1"), None),
        ({}, _options(ui=False), "--no-ui"),
        ({}, _options(host="0.0.0.0"), "--host 0.0.0.0 is reachable from other machines"),
        ({}, _options(in_memory=True), "--in-memory keeps no database the viewer can read"),
        ({"auth": {"path": "./auth.py:auth"}}, _options(), "langgraph.json has auth"),
        (
            {"checkpointer": {"path": "./saver.py:saver"}},
            _options(),
            "checkpointer.path keeps the checkpoints in a saver of its own",
        ),
    ],
)
def test_where_the_viewer_is_not_mounted(tmp_path: pathlib.Path, raw, options, reason) -> None:
    config = parse_config({"graphs": {"g": "./g.py:graph"}, **raw}, tmp_path)
    found = why_not_mounted(config, options)
    assert found == reason if reason is None else found.startswith(reason)


def test_the_viewer_reads_the_servers_database() -> None:
    assert database_target(None, "/p/.foldgraph/server.sqlite") == "/p/.foldgraph/server.sqlite"
    assert database_target("sqlite:///tmp/x.sqlite", "d") == "tmp/x.sqlite"
    assert database_target("postgresql://u@h/db", "d") == "postgresql://u@h/db"
    assert [is_loopback(h) for h in ("127.0.0.2", "[::1]", "192.168.1.4", "example.com")] == [
        True,
        True,
        False,
        False,
    ]
