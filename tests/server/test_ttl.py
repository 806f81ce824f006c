"""Thread TTLs: langgraph.json's `checkpointer.ttl`, a thread's own `ttl`, and the sweeper.

The sweeper is driven in-process with a clock of its own (`sweep(now=...)`) over a real
SQLite storage and saver; the API (`ttl` on create and update, `include=ttl`) through
the SDK against the module's server.
"""

from __future__ import annotations

import asyncio
import datetime
import operator
import pathlib
import time
import uuid
from typing import Annotated

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import UnprocessableEntityError
from typing_extensions import TypedDict

from foldgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from foldgraph.server.config import ConfigError
from foldgraph.server.queue.local import LocalQueue
from foldgraph.server.service import Service
from foldgraph.server.storage.sqlite import SqliteStorage
from foldgraph.server.ttl import ThreadSweeper, ThreadTTLPolicy

pytestmark = pytest.mark.timeout(60)


# -- the sweeper -------------------------------------------------------------------------------


class _State(TypedDict):
    items: Annotated[list, operator.add]


def _chain():
    from foldgraph.graph import START, StateGraph

    State = _State
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"items": ["a"]})
    builder.add_node("b", lambda s: {"items": ["b"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder


def test_the_sweeper_deletes_prunes_and_spares(tmp_path: pathlib.Path) -> None:
    async def scenario() -> dict:
        path = str(tmp_path / "server.sqlite")
        storage = SqliteStorage(path)
        await storage.setup()
        async with AsyncSqliteSaver.from_conn_string(path) as saver:
            await saver.setup()
            graph = _chain().compile(checkpointer=saver)
            policy = ThreadTTLPolicy(default_ttl=1.0)
            service = Service(
                config=None,
                storage=storage,
                queue=LocalQueue(storage),
                graphs=None,  # type: ignore[arg-type]
                executor=None,  # type: ignore[arg-type]
                checkpointer=saver,
                store=None,
                ttl=policy,
            )
            ids = {}
            for name in ("default", "kept", "used", "busy", "none"):
                thread = service.new_thread()
                await storage.put_thread(thread)
                ids[name] = thread["thread_id"]
                await graph.ainvoke(
                    {"items": []}, {"configurable": {"thread_id": thread["thread_id"]}}
                )
            await service.default_thread_ttl(ids["default"])
            await service.set_thread_ttl(ids["kept"], {"ttl": 2, "strategy": "keep_latest"})
            await service.default_thread_ttl(ids["kept"])  # its own TTL stays
            await service.default_thread_ttl(ids["used"])
            await service.default_thread_ttl(ids["busy"])
            later = time.time() + 90
            # "used" was used after its TTL was set: it lives on until a minute after that use.
            used_at = datetime.datetime.fromtimestamp(later - 30, datetime.UTC).isoformat()
            await storage.patch_thread(ids["used"], {"updated_at": used_at})
            await storage.put_run(
                {
                    "run_id": str(uuid.uuid4()),
                    "thread_id": ids["busy"],
                    "assistant_id": "a",
                    "metadata": {},
                    "status": "pending",
                    "kwargs": {},
                    "multitask_strategy": "enqueue",
                    "created_at": used_at,
                    "updated_at": used_at,
                },
                runnable_at=later + 3600,
            )
            sweeper = ThreadSweeper(service, policy)
            first = await sweeper.sweep(now=later)
            second = await sweeper.sweep(now=later + 130)
            history = {
                name: len([c async for c in saver.alist({"configurable": {"thread_id": tid}})])
                for name, tid in ids.items()
            }
            alive = {name: await storage.get_thread(tid) is not None for name, tid in ids.items()}
            await storage.close()
        return {"ids": ids, "first": first, "second": second, "history": history, "alive": alive}

    got = asyncio.run(scenario())
    ids = got["ids"]
    assert got["first"] == [ids["default"]]
    assert sorted(got["second"]) == sorted([ids["kept"], ids["used"]])
    assert got["alive"] == {
        "default": False,
        "kept": True,
        "used": False,
        "busy": True,
        "none": True,
    }
    # keep_latest keeps the thread and its newest checkpoint; delete drops the history.
    assert got["history"] == {"default": 0, "kept": 1, "used": 0, "busy": 4, "none": 4}


def test_checkpointer_ttl_settings_are_checked() -> None:
    assert ThreadTTLPolicy.from_config(
        {"strategy": "keep_latest", "default_ttl": 60, "sweep_interval_minutes": 1}, "lg.json"
    ) == ThreadTTLPolicy("keep_latest", 60.0, 1.0, 1000)
    assert ThreadTTLPolicy.from_config(None, "lg.json") == ThreadTTLPolicy()
    for section, message in (
        ({"strategy": "archive"}, 'strategy must be "delete" or "keep_latest"'),
        ({"default_ttl": -1}, "default_ttl must be a positive number of minutes"),
        ({"sweep_interval_minutes": "5"}, "sweep_interval_minutes must be a positive number"),
        ({"sweep_limit": 0}, "sweep_limit must be a positive integer"),
    ):
        with pytest.raises(ConfigError, match=message):
            ThreadTTLPolicy.from_config(section, "lg.json")


# -- the API ----------------------------------------------------------------------------------


def test_a_threads_own_ttl_through_the_api(server) -> None:
    client = get_sync_client(url=server.url)
    before = time.time()
    thread = client.threads.create(ttl={"ttl": 5, "strategy": "delete"})
    assert "ttl" not in thread
    shown = client.threads.get(thread["thread_id"], include=["ttl"])["ttl"]
    expires = datetime.datetime.fromisoformat(shown["expires_at"]).timestamp()
    assert (shown["strategy"], shown["ttl"]) == ("delete", 5.0)
    assert before + 300 <= expires <= time.time() + 300
    client.threads.update(thread["thread_id"], metadata={"k": 1}, ttl=30)
    shown = client.threads.get(thread["thread_id"], include=["ttl"])["ttl"]
    assert (shown["strategy"], shown["ttl"]) == ("delete", 30.0)
    assert (
        client.threads.update(thread["thread_id"], metadata={"k": 2}, return_minimal=True) is None
    )
    assert client.threads.get(thread["thread_id"])["metadata"] == {"k": 2}
    plain = client.threads.create()
    assert client.threads.get(plain["thread_id"], include=["ttl"])["ttl"] is None

    for ttl, message in (
        ({"ttl": 5, "strategy": "archive"}, "\"ttl.strategy\": 'archive' is not one of"),
        ({"strategy": "delete"}, '"ttl.ttl" \\(minutes\\) is required'),
        ({"ttl": 0}, '"ttl.ttl" must be a positive number'),
        ({"ttl": 5, "when": 1}, "\"ttl\" has unknown key\\(s\\) \\['when'\\]"),
    ):
        with pytest.raises(UnprocessableEntityError, match=message):
            client.threads.create(ttl=ttl)
    r = httpx.post(f"{server.url}/threads", json={"ttl": 5})
    assert r.status_code == 422 and r.json()["detail"].startswith('"ttl" must be an object')
