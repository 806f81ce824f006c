"""`--database-url postgresql://...`: threads, runs, checkpoints in PostgreSQL, over a restart."""

from __future__ import annotations

import os
import urllib.parse
import uuid
from collections.abc import Iterator

import pytest
from langgraph_sdk import get_sync_client
from server_process import Server, dev_args

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def database_url() -> Iterator[str]:
    """A URL of a fresh database on the test cluster, dropped afterwards."""
    dsn = os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        reason = "NO POSTGRESQL SERVER: FOLDGRAPH_PG_DSN is not set (run `make test`)."
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    name = f"fg_server_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    parts = conninfo_to_dict(dsn)
    query = {k: str(v) for k, v in parts.items() if k in ("host", "port", "password")}
    user = urllib.parse.quote(str(parts.get("user", "")))
    yield f"postgresql://{user}@/{name}?{urllib.parse.urlencode(query)}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_threads_live_in_postgres_across_a_restart(tmp_path, database_url) -> None:
    args = [
        a if a != str(tmp_path / "unused") else database_url for a in dev_args(tmp_path / "unused")
    ]
    server = Server(args).start()
    try:
        client = get_sync_client(url=server.url, api_key=None)
        thread = client.threads.create(metadata={"kind": "pg"})
        assert client.runs.wait(thread["thread_id"], "human", input={"n": 1})["items"] == ["a"]
        marker = client.threads.search(metadata={"kind": "pg"})
        assert [t["status"] for t in marker] == ["interrupted"]
    finally:
        server.stop()
    server = Server(args).start()
    try:
        client = get_sync_client(url=server.url, api_key=None)
        done = client.runs.wait(thread["thread_id"], "human", command={"resume": "ok"})
        assert done == {"items": ["a", "answer:ok", "c"], "n": 2}
        steps = [s["metadata"]["step"] for s in client.threads.get_history(thread["thread_id"])]
        assert steps == [3, 2, 1, 0, -1]
        assert [r["status"] for r in client.runs.list(thread["thread_id"])] == [
            "success",
            "success",
        ]
    finally:
        server.stop()
