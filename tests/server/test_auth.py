"""Auth: a `langgraph_sdk.Auth` object from langgraph.json guards every resource."""

from __future__ import annotations

import pathlib
import uuid
from collections.abc import Iterator

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import AuthenticationError, NotFoundError
from server_process import Server, dev_args

pytestmark = pytest.mark.timeout(90)

CONFIG = pathlib.Path(__file__).parent / "auth_project" / "langgraph.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("auth") / "server.sqlite"
    srv = Server(dev_args(db, CONFIG)).start()
    try:
        yield srv
    finally:
        srv.stop()


def as_user(server: Server, name: str):
    return get_sync_client(
        url=server.url, api_key=None, headers={"Authorization": f"Bearer token-{name}"}
    )


def test_an_unauthenticated_request_gets_401(server) -> None:
    raw = httpx.Client(base_url=server.url, timeout=10)
    assert raw.get("/ok").status_code == 200
    missing = raw.post("/threads/search", json={})
    assert (missing.status_code, missing.json()) == (401, {"detail": "missing bearer token"})
    wrong = raw.post("/threads", json={}, headers={"Authorization": "Bearer nope"})
    assert (wrong.status_code, wrong.json()) == (401, {"detail": "unknown token"})
    with pytest.raises(AuthenticationError):
        get_sync_client(url=server.url, api_key=None).threads.create()


def test_a_user_never_sees_another_users_threads_or_runs(server) -> None:
    alice, bob = as_user(server, "alice"), as_user(server, "bob")
    thread = alice.threads.create(metadata={"topic": "x"})
    tid = thread["thread_id"]
    assert thread["metadata"] == {"topic": "x", "owner": "alice"}
    assert alice.runs.wait(tid, "chain", input={"n": 1})["items"] == ["a", "b", "c"]
    run = alice.runs.list(tid)[0]
    for attempt in (
        lambda: bob.threads.get(tid),
        lambda: bob.threads.get_state(tid),
        lambda: bob.threads.get_history(tid),
        lambda: bob.threads.update(tid, metadata={"owner": "bob"}),
        lambda: bob.threads.update_state(tid, {"n": 5}, as_node="c"),
        lambda: bob.threads.copy(tid),
        lambda: bob.threads.delete(tid),
        lambda: bob.runs.list(tid),
        lambda: bob.runs.get(tid, run["run_id"]),
        lambda: bob.runs.join(tid, run["run_id"]),
        lambda: list(bob.runs.join_stream(tid, run["run_id"])),
        lambda: bob.runs.create(tid, "chain", input={"n": 1}),
        lambda: list(bob.runs.stream(tid, "chain", input={"n": 1})),
    ):
        # join and cancel(wait=True) go through the SDK's reconnecting request, which raises
        # httpx's own error type; both carry the 404.
        with pytest.raises((NotFoundError, httpx.HTTPStatusError)) as caught:
            attempt()
        assert caught.value.response.status_code == 404
    assert [t["thread_id"] for t in bob.threads.search()] == []
    assert bob.threads.count() == 0
    assert [t["thread_id"] for t in alice.threads.search()] == [tid]
    mine = bob.threads.create()
    assert bob.runs.wait(mine["thread_id"], "chain", input={"n": 1})["n"] == 2
    assert alice.threads.get_state(tid)["values"]["n"] == 2


def test_a_user_cannot_cancel_another_users_run(server) -> None:
    alice, bob = as_user(server, "alice"), as_user(server, "bob")
    thread = alice.threads.create()
    run = alice.runs.create(thread["thread_id"], "slow", input={"n": 0.5})
    with pytest.raises(NotFoundError):
        bob.runs.cancel(thread["thread_id"], run["run_id"])
    with pytest.raises(NotFoundError):
        bob.runs.cancel_many(thread_id=thread["thread_id"], run_ids=[run["run_id"]])
    assert alice.runs.join(thread["thread_id"], run["run_id"])["items"] == ["slow", "c"]


def test_store_items_live_in_each_users_namespace(server) -> None:
    alice, bob = as_user(server, "alice"), as_user(server, "bob")
    key = str(uuid.uuid4())
    alice.store.put_item(["prefs"], key, {"theme": "dark"})
    assert alice.store.get_item(["prefs"], key)["namespace"] == ["alice", "prefs"]
    assert bob.store.get_item(["prefs"], key) is None
    assert bob.store.search_items(["prefs"])["items"] == []
    assert ["alice", "prefs"] not in bob.store.list_namespaces()["namespaces"]


def test_the_thread_event_protocol_is_guarded_too(server) -> None:
    from websockets.exceptions import ConnectionClosedError
    from websockets.sync.client import connect

    alice = as_user(server, "alice")
    with alice.threads.stream(assistant_id="chain") as thread:
        thread.run.start(input={"n": 1})
        assert thread.output == {"items": ["a", "b", "c"], "n": 2}
        tid = thread.thread_id
    assert alice.threads.get(tid)["metadata"]["owner"] == "alice"

    bob = {"Authorization": "Bearer token-bob"}
    base = f"{server.url}/threads/{tid}"
    stream = httpx.post(f"{base}/stream/events", json={"channels": ["values"]}, headers=bob)
    assert (stream.status_code, stream.json()) == (
        404,
        {"detail": f"Thread with ID {tid} not found"},
    )
    for method, params in (
        ("state.get", {"namespace": []}),
        ("run.start", {"assistant_id": "chain", "input": {"n": 1}}),
    ):
        body = {"id": 1, "method": method, "params": params}
        answer = httpx.post(f"{base}/commands", json=body, headers=bob).json()
        assert (answer["error"], answer["message"]) == (
            "invalid_argument",
            f"Thread with ID {tid} not found",
        )
    unknown = httpx.post(f"{base}/commands", json={"id": 1, "method": "state.get"})
    assert unknown.status_code == 401

    ws_url = base.replace("http", "ws") + "/stream/events"
    for headers, code in ((bob, 4404), ({}, 4401)):
        with connect(ws_url, additional_headers=headers, open_timeout=10) as ws:
            # The server accepts, then closes with 4000 + the status it would have answered.
            with pytest.raises(ConnectionClosedError) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd.code == code
