"""Checkpoint databases written by foldgraph and by real LangGraph, once per session
(fixtures shared by tests/ui and tests/cli through their conftest files).

LangGraph (`langgraph`, `langgraph-checkpoint-sqlite`) is a test-only extra
of the dev install; the databases are written in subprocesses, so LangGraph
and foldgraph never share an interpreter here.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest

HERE = pathlib.Path(__file__).parent
KINDS = ("foldgraph", "langgraph")


def _need_langgraph() -> None:
    # Asked of the installed distributions: finding `langgraph.checkpoint.sqlite` with
    # importlib would import the real `langgraph` into this process.
    try:
        for name in ("langgraph", "langgraph-checkpoint-sqlite", "langgraph-checkpoint-postgres"):
            importlib.metadata.version(name)
        return
    except importlib.metadata.PackageNotFoundError:
        pass
    message = (
        "real langgraph and langgraph-checkpoint-sqlite are not installed "
        "(pip install -e '.[dev]' installs them)"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip("SKIPPED LOUDLY: " + message)


def write_threads(kind: str, folder: pathlib.Path) -> tuple[pathlib.Path, dict[str, Any]]:
    """A database of `kind` with the test threads, and that library's own history."""
    if kind == "langgraph":
        _need_langgraph()
    db, expected = folder / f"{kind}.sqlite", folder / f"{kind}.json"
    subprocess.run(
        [sys.executable, str(HERE / "make_threads.py"), kind, str(db), str(expected)],
        check=True,
        timeout=120,
        capture_output=True,
    )
    return db, json.loads(expected.read_text())


@pytest.fixture(scope="session")
def thread_dbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("threads")
    return {kind: write_threads(kind, folder) for kind in KINDS}


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def db(thread_dbs: dict[str, Any], kind: str) -> pathlib.Path:
    return thread_dbs[kind][0]


@pytest.fixture
def expected(thread_dbs: dict[str, Any], kind: str) -> dict[str, Any]:
    return thread_dbs[kind][1]
