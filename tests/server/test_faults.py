"""Faults: a server killed mid-run, and a config or graph that cannot be served."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from langgraph_sdk import get_sync_client
from server_process import PROJECT, Server, dev_args

pytestmark = pytest.mark.timeout(90)


def test_sigkill_mid_run_loses_no_committed_step(tmp_path) -> None:
    db = tmp_path / "server.sqlite"
    server = Server(dev_args(db)).start()
    try:
        client = get_sync_client(url=server.url, api_key=None)
        thread = client.threads.create()
        tid = thread["thread_id"]
        run = client.runs.create(tid, "steps", input={"n": 60})
        deadline = time.monotonic() + 20
        while client.threads.get_state(tid)["next"] != ["slow"]:
            assert time.monotonic() < deadline, "node a never committed"
            time.sleep(0.05)
        server.kill()
    finally:
        server.stop()
    server = Server(dev_args(db)).start()
    try:
        client = get_sync_client(url=server.url, api_key=None)
        assert client.runs.get(tid, run["run_id"])["status"] == "interrupted"
        assert client.threads.get(tid)["status"] == "idle"
        state = client.threads.get_state(tid)
        assert (state["values"], state["next"]) == ({"items": ["a"], "n": 61}, ["slow"])
        client.threads.update_state(tid, {"n": 0.01}, as_node="a")
        assert client.runs.wait(tid, "steps", input=None) == {
            "items": ["a", "slow", "c"],
            "n": 0.01,
        }
    finally:
        server.stop()


def _dev(config_path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "foldgraph.cli", "dev", "--config", str(config_path), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_a_missing_config_file_is_a_clear_error(tmp_path) -> None:
    out = _dev(tmp_path / "nope.json")
    assert out.returncode == 2
    assert "no config file at" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_graph_path_without_attribute_is_named(tmp_path) -> None:
    (tmp_path / "langgraph.json").write_text(json.dumps({"graphs": {"g": "./graphs.py"}}))
    out = _dev(tmp_path / "langgraph.json")
    assert out.returncode == 2
    assert "graph 'g' must be given as './file.py:attribute'" in out.stderr


def test_a_missing_attribute_is_named(tmp_path) -> None:
    (tmp_path / "graphs.py").write_text("x = 1\n")
    config = {"graphs": {"g": "./graphs.py:graph"}, "unknown_key": 1}
    (tmp_path / "langgraph.json").write_text(json.dumps(config))
    out = _dev(tmp_path / "langgraph.json")
    assert out.returncode == 2
    assert "unknown key 'unknown_key' is ignored" in out.stderr
    assert "graphs.py has no attribute 'graph'" in out.stderr


def test_the_test_project_config_has_no_warnings() -> None:
    from foldgraph.server.config import load_config

    assert load_config(PROJECT / "langgraph.json").warnings == ()


LANGGRAPH_FILE = """
import operator
from typing import Annotated
from typing_extensions import TypedDict
from langgraph.graph import StateGraph, START

class State(TypedDict):
    items: Annotated[list, operator.add]

def hello(state):
    return {"items": ["hello"]}

builder = StateGraph(State)
builder.add_node(hello)
builder.add_edge(START, "hello")
graph = builder.compile()
"""


def test_a_langgraph_file_needs_the_alias_and_runs_with_it(tmp_path) -> None:
    (tmp_path / "agent.py").write_text(LANGGRAPH_FILE)
    (tmp_path / "langgraph.json").write_text(json.dumps({"graphs": {"agent": "./agent.py:graph"}}))
    refused = _dev(tmp_path / "langgraph.json")
    assert refused.returncode == 2
    assert "start the server with --alias-langgraph" in refused.stderr
    args = [*dev_args(tmp_path / "db.sqlite", tmp_path / "langgraph.json"), "--alias-langgraph"]
    server = Server(args).start()
    try:
        client = get_sync_client(url=server.url, api_key=None)
        assert client.runs.wait(None, "agent", input={"items": []}) == {"items": ["hello"]}
    finally:
        server.stop()


def test_unsupported_settings_are_reported(tmp_path) -> None:
    from foldgraph.server.config import parse_config

    raw = {
        "graphs": {"g": "./g.py:graph"},
        "checkpointer": {"ttl": {"default_ttl": 60, "sweep_every": 5}, "backend": "redis"},
        "store": {"index": {}, "bogus": 1},
        "http": {"disable_mcp": True},
        "python_version": "3.11",
    }
    assert parse_config(raw, tmp_path).warnings == (
        "langgraph.json: 'http.disable_mcp' is not supported by foldgraph and is ignored",
        "langgraph.json: unknown key 'checkpointer.backend' is ignored",
        "langgraph.json: unknown key 'checkpointer.ttl.sweep_every' is ignored",
        "langgraph.json: unknown key 'store.bogus' is ignored",
    )
