"""The store endpoints and crons, through the SDK."""

from __future__ import annotations

import time

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import NotFoundError, UnprocessableEntityError

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def client(server):
    return get_sync_client(url=server.url, api_key=None)


def test_store_items_put_get_search_delete(client) -> None:
    client.store.put_item(["users", "u1"], "prefs", {"theme": "dark", "size": 3})
    client.store.put_item(["users", "u2"], "prefs", {"theme": "light", "size": 5})
    item = client.store.get_item(["users", "u1"], "prefs")
    assert (item["namespace"], item["key"], item["value"]) == (
        ["users", "u1"],
        "prefs",
        {"theme": "dark", "size": 3},
    )
    assert item["created_at"].endswith("+00:00")
    found = client.store.search_items(["users"], filter={"theme": "light"})
    assert [(i["namespace"], i["value"]) for i in found["items"]] == [
        (["users", "u2"], {"theme": "light", "size": 5})
    ]
    assert client.store.list_namespaces(prefix=["users"]) == {
        "namespaces": [["users", "u1"], ["users", "u2"]]
    }
    assert client.store.list_namespaces(prefix=["users"], max_depth=1) == {
        "namespaces": [["users"]]
    }
    client.store.delete_item(["users", "u1"], "prefs")
    assert client.store.get_item(["users", "u1"], "prefs") is None
    assert client.store.list_namespaces(prefix=["users"]) == {"namespaces": [["users", "u2"]]}


def test_store_bad_input(server) -> None:
    import httpx

    raw = httpx.Client(base_url=server.url, timeout=10)
    empty = raw.put("/store/items", json={"namespace": [], "key": "x", "value": {}})
    assert (empty.status_code, empty.json()) == (400, {"detail": "Namespace cannot be empty."})
    not_object = raw.put("/store/items", json={"namespace": ["a"], "key": "x", "value": 5})
    assert not_object.status_code == 422
    assert not_object.json()["detail"].startswith('"value" must be object, got an integer')
    no_key = raw.put("/store/items", json={"namespace": ["a"], "value": {}})
    assert no_key.json() == {"detail": '"key" is a required property'}


def test_a_cron_fires_on_its_thread(client) -> None:
    thread = client.threads.create()
    cron = client.crons.create_for_thread(
        thread["thread_id"], "chain", schedule="* * * * * */1", input={"n": 1}
    )
    assert cron["thread_id"] == thread["thread_id"]
    assert cron["next_run_date"] is not None
    deadline = time.monotonic() + 15
    while not client.runs.list(thread["thread_id"]):
        assert time.monotonic() < deadline, "the cron never fired"
        time.sleep(0.1)
    client.crons.delete(cron["cron_id"])
    run = client.runs.list(thread["thread_id"])[-1]
    assert client.runs.join(thread["thread_id"], run["run_id"])["items"][:3] == ["a", "b", "c"]
    assert run["kwargs"]["config"]["configurable"]["cron_id"] == cron["cron_id"]


def test_crons_search_count_update_delete(client) -> None:
    cron = client.crons.create("chain", schedule="*/5 * * * *", input={"n": 1}, metadata={"m": 1})
    assert (cron["thread_id"], cron["on_run_completed"], cron["enabled"]) == (None, "delete", True)
    found = client.crons.search(assistant_id="chain")
    assert cron["cron_id"] in [c["cron_id"] for c in found]
    assert client.crons.count(assistant_id="chain") >= 1
    updated = client.crons.update(cron["cron_id"], schedule="0 * * * *", enabled=False)
    assert (updated["schedule"], updated["enabled"], updated["next_run_date"]) == (
        "0 * * * *",
        False,
        None,
    )
    client.crons.delete(cron["cron_id"])
    with pytest.raises(NotFoundError):
        client.crons.delete(cron["cron_id"])
    with pytest.raises(UnprocessableEntityError, match="Invalid cron schedule: 'bad'"):
        client.crons.create("chain", schedule="bad")
