"""langgraph.json's `checkpointer.path` and `checkpointer.serde`, applied or refused by name.

Each project is served in this process (Starlette's test client runs the app's lifespan),
so a custom saver's object can be looked at directly.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import uuid

import pytest
from starlette.testclient import TestClient

from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.errors import UnregisteredTypeError
from foldgraph.server.app import ServeOptions, create_app
from foldgraph.server.config import ConfigError, apply_environment, load_config

pytestmark = pytest.mark.timeout(60)

GRAPH = """
from typing import Annotated
import operator
from typing_extensions import TypedDict
from foldgraph.graph import START, StateGraph

class State(TypedDict):
    items: Annotated[list, operator.add]

builder = StateGraph(State)
builder.add_node("a", lambda s: {"items": ["a"]})
builder.add_edge(START, "a")
graph = builder.compile()
"""

SAVERS = """
import contextlib
import dataclasses

EVENTS = []

@contextlib.asynccontextmanager
async def foldgraph_saver():
    from foldgraph.checkpoint.memory import InMemorySaver
    saver = InMemorySaver()
    EVENTS.append(("opened", saver))
    yield saver
    EVENTS.append(("closed", saver))

# Stands for langgraph.checkpoint.memory.InMemorySaver: importing the real one here would
# put LangGraph in the test process, where foldgraph.alias's tests need it absent.
class LangGraphsSaver:
    pass

LangGraphsSaver.__module__ = "langgraph.checkpoint.memory"
LangGraphsSaver.__name__ = "InMemorySaver"

@contextlib.asynccontextmanager
async def langgraph_saver():
    yield LangGraphsSaver()

def not_a_context_manager():
    return object()

@dataclasses.dataclass
class Point:
    x: int
"""


def project(tmp_path: pathlib.Path, checkpointer: dict) -> pathlib.Path:
    """A project whose helper module has a name of its own (modules load by file stem)."""
    stem = f"savers_{uuid.uuid4().hex[:8]}"
    (tmp_path / "graph.py").write_text(GRAPH)
    (tmp_path / f"{stem}.py").write_text(SAVERS)
    text = json.dumps(checkpointer).replace("SAVERS", stem)
    config = {"graphs": {"chain": "./graph.py:graph"}, "checkpointer": json.loads(text)}
    (tmp_path / "langgraph.json").write_text(json.dumps(config))
    return tmp_path / "langgraph.json"


def serve(path: pathlib.Path) -> TestClient:
    config = load_config(path)
    apply_environment(config)
    return TestClient(create_app(config, ServeOptions(in_memory=True)))


def test_a_saver_of_ones_own_keeps_the_threads(tmp_path) -> None:
    path = project(tmp_path, {"path": "./SAVERS.py:foldgraph_saver"})
    config = load_config(path)
    assert config.warnings == ()
    stem = config.checkpointer["path"].split(":")[0][2:-3]
    with serve(path) as client:
        thread = client.post("/threads", json={}).json()["thread_id"]
        done = client.post(
            f"/threads/{thread}/runs/wait", json={"assistant_id": "chain", "input": {"items": []}}
        )
        assert done.json() == {"items": ["a"]}
        [(_, saver)] = sys.modules[stem].EVENTS
        assert client.app.state.service.checkpointer is saver
        steps = [t.metadata["step"] for t in saver.list({"configurable": {"thread_id": thread}})]
        assert steps == [1, 0, -1]
    assert [event for event, _ in sys.modules[stem].EVENTS] == ["opened", "closed"]


def test_serde_sets_the_built_in_savers_serializer(tmp_path) -> None:
    serde = {"allowed_json_modules": [["SAVERS", "Point"]], "pickle_fallback": True}
    path = project(tmp_path, {"serde": serde})
    module = json.loads(path.read_text())["checkpointer"]["serde"]["allowed_json_modules"][0][0]
    with serve(path) as client:
        serializer = client.app.state.service.checkpointer.serde
        assert serializer.pickle_fallback is True
        point = importlib.import_module(module).Point
        stored = JsonPlusSerializer(allowed_types=[point]).dumps_typed(point(3))
        # The listed type is decoded; a serializer without the list refuses the same row.
        assert serializer.loads_typed(stored).x == 3
        with pytest.raises(UnregisteredTypeError, match="Refused to deserialize"):
            JsonPlusSerializer(learn=False).loads_typed(stored)


@pytest.mark.parametrize(
    ("checkpointer", "message"),
    [
        ({"serde": {"allowed_msgpack_modules": True}}, "allowed_msgpack_modules is true"),
        ({"serde": {"allowed_json_modules": "all"}}, "must be a list of"),
        ({"serde": {"pickle_fallback": "yes"}}, "pickle_fallback must be true or false"),
        (
            {"path": "./SAVERS.py:foldgraph_saver", "serde": {"pickle_fallback": True}},
            "remove one of the two",
        ),
        ({"path": "./SAVERS.py:nowhere"}, "has no attribute 'nowhere'"),
        ({"path": "no-colon"}, "checkpointer.path must be"),
        ({"ttl": {"strategy": "archive"}}, 'strategy must be "delete" or "keep_latest"'),
    ],
)
def test_settings_that_cannot_apply_are_refused_before_serving(tmp_path, checkpointer, message):
    with pytest.raises(ConfigError, match=message):
        serve(project(tmp_path, checkpointer))


@pytest.mark.parametrize(
    ("checkpointer", "message"),
    [
        (
            {"path": "./SAVERS.py:langgraph_saver"},
            "yielded langgraph.checkpoint.memory.InMemorySaver, not a foldgraph checkpointer",
        ),
        ({"path": "./SAVERS.py:not_a_context_manager"}, "must name an async context manager"),
        ({"ttl": {"strategy": "keep_latest"}}, '"keep_latest" prunes old checkpoints'),
    ],
)
def test_settings_refused_when_the_server_starts(tmp_path, checkpointer, message):
    app = serve(project(tmp_path, checkpointer))
    with pytest.raises(ConfigError, match=message), app:
        pass


def test_unknown_checkpointer_keys_are_reported(tmp_path) -> None:
    path = project(tmp_path, {"ttl": {"default_ttl": 5, "every": 1}, "backend": "x"})
    assert load_config(path).warnings == (
        f"{path}: unknown key 'checkpointer.backend' is ignored",
        f"{path}: unknown key 'checkpointer.ttl.every' is ignored",
    )
