"""The compat corpus's programs with a checkpointer, served through the API (issue 23).

Each program's top-level graph calls are recorded in-process and replayed through
`langgraph-sdk` against one `foldgraph dev --alias-langgraph` server that serves the
same programs' graphs (`tools/served_compat.py`); every thread's final state and
history must equal the in-process ones. Programs the replay cannot reproduce, for a
reason outside the server, are strict xfails with that reason.
"""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from server_process import Server, dev_args

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import served_compat  # noqa: E402

pytestmark = pytest.mark.timeout(180)

_MODEL = (
    "its fake model counts its calls in a closure, and the server process ran the program "
    "once to build its graphs, so the served model answers from a later position"
)
_SCRIPTED = (
    "its fake chat models answer from a script by position, and the server process ran the "
    "program once to build its graphs, so the served models answer from a later position"
)
KNOWN: dict[str, str] = {
    "agent_call_limits": _SCRIPTED,
    "agent_hitl_middleware": _SCRIPTED,
    "agent_summarization": _SCRIPTED,
    "agent_memory_time_travel": (
        "update_state with an AIMessage sent through langgraph-sdk: the served history's "
        "message has invalid_tool_calls in additional_kwargs, the in-process one not"
    ),
    "hitl_review_tool_calls": _MODEL,
    "manage_message_history": _MODEL,
    "memory_store_cross_thread": (
        "a server has one store for all its graphs (as LangGraph's server); the program gives "
        "each graph an InMemoryStore of its own"
    ),
    "persistence_sqlite": (
        "the program closes its SqliteSaver when main() returns, so the in-process history "
        "cannot be read afterwards"
    ),
    "subgraph_edit_fork_replay": "forks from a subgraph's checkpoint; only root ids are mapped",
    "subgraph_manage_state": "forks from a subgraph's checkpoint; only root ids are mapped",
    "subgraph_time_travel": "forks from a subgraph's checkpoint; only root ids are mapped",
    "updates_as_input": (
        "threads begun by update_state, with no run: the replay creates a served thread only "
        "for a run (the server answers 404 for an update to a thread it does not have)"
    ),
}
NAMES = served_compat.served_programs()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("served_corpus")
    config = served_compat.write_config(folder, NAMES)
    env = {"FOLDGRAPH_SERVED_COMPAT": str(folder / "served_names.json")}
    server = Server([*dev_args(folder / "db.sqlite", config), "--alias-langgraph"], env=env)
    server.start(timeout=120)
    try:
        yield get_sync_client(url=server.url, api_key=None)
    finally:
        server.stop()


def test_the_corpus_has_programs_with_a_checkpointer() -> None:
    assert len(NAMES) >= 40


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN[n])) if n in KNOWN else n
        for n in NAMES
    ],
)
def test_served_program_matches_its_in_process_run(client, name: str) -> None:
    assert served_compat.compare(client, name) is None
