"""PostgreSQL checkpoint tables (foldgraph's `PostgresSaver` and LangGraph's) read through
the same model, in read-only sessions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse

import pytest
from thread_dbs import HERE

from foldgraph.ui.source import ReadError, open_source


def _dsn() -> str:
    dsn = os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        reason = "NO POSTGRESQL SERVER: FOLDGRAPH_PG_DSN is not set; run `make test`"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return dsn


def _database(kind: str, tmp_path_factory) -> tuple[str, dict]:
    import psycopg

    dsn = _dsn()
    name = f"fg_viewer_{kind}_{os.getpid()}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    parts = dict(p.split("=", 1) for p in dsn.split())
    query = urllib.parse.urlencode({"host": parts["host"], "port": parts["port"]})
    url = f"postgresql://{parts.get('user', 'postgres')}@/{name}?{query}"
    expected = tmp_path_factory.mktemp("pg") / "expected.json"
    subprocess.run(
        [sys.executable, str(HERE / "make_threads.py"), kind, url, str(expected)],
        check=True,
        timeout=120,
        capture_output=True,
    )
    return url, json.loads(expected.read_text())


def _drop(url: str) -> None:
    import psycopg

    name = url.split("@/", 1)[1].split("?", 1)[0]
    with psycopg.connect(_dsn(), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="module", params=["foldgraph", "langgraph"])
def pg_url(request, tmp_path_factory):
    if request.param == "langgraph":
        from thread_dbs import _need_langgraph

        _need_langgraph()
    url, expected = _database(request.param, tmp_path_factory)
    yield url, expected
    _drop(url)


def test_threads_history_and_values_from_postgres(pg_url) -> None:
    url, expected = pg_url
    src = open_source(url)
    try:
        assert src.kind in ("foldgraph-postgres", "langgraph-postgres")
        assert {r.thread_id: r.status for r in src.threads()} == {
            "t-done": "done",
            "t-fork": "interrupted",
            "t-fail": "failed",
        }
        rows = src.history("t-fork", ns="")
        assert [(r.checkpoint_id, r.next) for r in rows] == [
            (s["checkpoint_id"], tuple(s["next"])) for s in expected["t-fork"]
        ]
        for snapshot in expected["t-done"]:
            values = src.values("t-done", snapshot["checkpoint_id"])
            assert values == {k: v for k, v in snapshot["values"].items() if k in values}
        assert src.checkpoint("t-done").values["draft"] == "v1:yes"
        assert len(src.history("t-done")) == 9
        assert "the agent was told to fail" in str(src.checkpoint("t-fail").tasks[0].error)
    finally:
        src.close()


def test_the_session_is_read_only(pg_url) -> None:
    import psycopg

    url, _ = pg_url
    src = open_source(url)
    try:
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            src._query(f"DELETE FROM {src.cp_table}")
    finally:
        src.close()


def test_cli_reads_a_postgres_url(pg_url) -> None:
    url, expected = pg_url
    done = subprocess.run(
        [sys.executable, "-m", "foldgraph.cli", "history", url, "t-done", "--ns", "", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert [r["checkpoint_id"] for r in json.loads(done.stdout)] == [
        s["checkpoint_id"] for s in expected["t-done"]
    ]


def test_a_database_without_tables(pg_url) -> None:
    import psycopg

    url, _ = pg_url
    name = f"fg_viewer_empty_{os.getpid()}"
    with psycopg.connect(_dsn(), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        query = url.split("?", 1)[1]
        with pytest.raises(ReadError, match="holds no checkpoint tables"):
            open_source(f"postgresql://postgres@/{name}?{query}")
    finally:
        with psycopg.connect(_dsn(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
