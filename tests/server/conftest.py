"""A real server for the test session: `foldgraph dev` in a subprocess on a free 127.0.0.1 port.

The server serves `project/langgraph.json` with its data in a temporary SQLite file;
it is stopped by its pid when the session's tests are done, whatever happened. Every
module that asks for `server` shares it (starting one takes seconds on a loaded
machine): tests make their own threads, assistants and store namespaces, and never
assume the server holds nothing else. A module needing another server makes its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_process import Server, dev_args

# Every test here exercises foldgraph's own parts (see tests/conftest.py).
FOLDGRAPH_ONLY = "foldgraph's own server (foldgraph dev / serve); LangGraph's is another product"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("server") / "server.sqlite"
    srv = Server(dev_args(db), env={"FOLDGRAPH_MAX_BODY_BYTES": "100000"}).start()
    try:
        yield srv
    finally:
        srv.stop()
