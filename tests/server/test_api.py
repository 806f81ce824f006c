"""The LangGraph Server API, driven through the official `langgraph-sdk` clients.

One server serves the whole module (see conftest); every test makes its own threads.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import pytest
from langgraph_sdk import get_client, get_sync_client
from langgraph_sdk.errors import ConflictError, NotFoundError, UnprocessableEntityError

pytestmark = pytest.mark.timeout(60)

CHAIN_ID = str(uuid.uuid5(uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8"), "chain"))


@pytest.fixture
def client(server):
    return get_sync_client(url=server.url, api_key=None)


def events(parts) -> list[tuple[str, object]]:
    return [(p.event, p.data) for p in parts]


# -- assistants --------------------------------------------------------------------------


def test_every_graph_has_a_system_assistant_found_by_graph_name(client) -> None:
    found = client.assistants.search(graph_id="chain")
    assert [(a["assistant_id"], a["graph_id"], a["name"]) for a in found] == [
        (CHAIN_ID, "chain", "chain")
    ]
    assert found[0]["metadata"] == {"created_by": "system"}
    assert found[0]["version"] == 1
    assert client.assistants.get("chain")["assistant_id"] == CHAIN_ID
    assert client.assistants.count(graph_id="nested") == 1


def test_assistant_versions_and_latest(client) -> None:
    made = client.assistants.create("chain", config={"tags": ["x"]}, metadata={"k": 1}, name="m")
    patched = client.assistants.update(made["assistant_id"], metadata={"k": 2})
    assert (patched["version"], patched["metadata"]) == (2, {"k": 2})
    versions = client.assistants.get_versions(made["assistant_id"])
    assert [(v["version"], v["metadata"]) for v in versions] == [(2, {"k": 2}), (1, {"k": 1})]
    back = client.assistants.set_latest(made["assistant_id"], 1)
    assert (back["version"], back["metadata"]) == (1, {"k": 1})
    client.assistants.delete(made["assistant_id"])
    with pytest.raises(NotFoundError):
        client.assistants.get(made["assistant_id"])


def test_assistant_graph_schemas_and_subgraphs(client) -> None:
    drawing = client.assistants.get_graph("chain")
    assert [n["id"] for n in drawing["nodes"]] == ["__start__", "a", "b", "c", "__end__"]
    assert drawing["edges"][0] == {"source": "__start__", "target": "a"}
    schemas = client.assistants.get_schemas("chain")
    assert schemas["graph_id"] == "chain"
    assert set(schemas["state_schema"]["properties"]) == {"items", "n"}
    assert list(client.assistants.get_subgraphs("nested")) == ["inner"]


# -- threads -----------------------------------------------------------------------------


def test_run_metadata_merges_the_assistants_and_the_threads(client) -> None:
    # As LangGraph's server: the assistant's metadata, the thread's (with the graph and
    # assistant stamped), then the run's own; each checkpoint of the run carries it.
    thread = client.threads.create(metadata={"owner": "x", "shared": "thread"})
    thread_id = thread["thread_id"]
    client.runs.wait(thread_id, "chain", input={"n": 1}, metadata={"tag": 1, "shared": "run"})
    [run] = client.runs.list(thread_id)
    assistant_id = run["assistant_id"]  # the graph's system assistant
    assert run["metadata"] == {
        "created_by": "system",
        "owner": "x",
        "shared": "run",
        "graph_id": "chain",
        "assistant_id": assistant_id,
        "tag": 1,
    }
    newest = client.threads.get_history(thread_id, limit=1)[0]["metadata"]
    assert {k: newest[k] for k in ("created_by", "owner", "shared", "tag", "run_id")} == {
        "created_by": "system",
        "owner": "x",
        "shared": "run",
        "tag": 1,
        "run_id": run["run_id"],
    }
    assert client.threads.get(thread_id)["metadata"] == {
        "owner": "x",
        "shared": "thread",
        "graph_id": "chain",
        "assistant_id": assistant_id,
    }


def test_threads_create_search_copy_delete(client) -> None:
    marker = str(uuid.uuid4())
    thread = client.threads.create(metadata={"marker": marker})
    assert (thread["status"], thread["values"], thread["metadata"]) == (
        "idle",
        None,
        {"marker": marker},
    )
    client.runs.wait(thread["thread_id"], "chain", input={"n": 1})
    found = client.threads.search(metadata={"marker": marker})
    assert [t["thread_id"] for t in found] == [thread["thread_id"]]
    assert found[0]["values"] == {"items": ["a", "b", "c"], "n": 2}
    assert found[0]["metadata"] == {"marker": marker, "graph_id": "chain", "assistant_id": CHAIN_ID}
    copy = client.threads.copy(thread["thread_id"])
    assert copy["thread_id"] != thread["thread_id"]
    copied = client.threads.get_state(copy["thread_id"])
    assert copied["values"] == {"items": ["a", "b", "c"], "n": 2}
    original_history = client.threads.get_history(thread["thread_id"])
    copied_history = client.threads.get_history(copy["thread_id"])
    assert [s["checkpoint"]["checkpoint_id"] for s in copied_history] == [
        s["checkpoint"]["checkpoint_id"] for s in original_history
    ]
    client.threads.delete(thread["thread_id"])
    with pytest.raises(NotFoundError):
        client.threads.get(thread["thread_id"])
    assert client.threads.search(metadata={"marker": marker}) == [] or [
        t["thread_id"] for t in client.threads.search(metadata={"marker": marker})
    ] == [copy["thread_id"]]


def test_thread_create_if_exists(client) -> None:
    thread = client.threads.create()
    again = client.threads.create(thread_id=thread["thread_id"], if_exists="do_nothing")
    assert again["thread_id"] == thread["thread_id"]
    with pytest.raises(ConflictError):
        client.threads.create(thread_id=thread["thread_id"])


# -- runs --------------------------------------------------------------------------------


def test_stream_several_modes(client) -> None:
    thread = client.threads.create()
    got = list(
        client.runs.stream(
            thread["thread_id"],
            "chain",
            input={"n": 1},
            stream_mode=["values", "updates", "custom"],
        )
    )
    assert got[0].event == "metadata"
    assert set(got[0].data) == {"run_id", "attempt"}
    assert got[-1].event == "end"
    assert got[-1].data == {"run_id": got[0].data["run_id"], "status": "success"}
    assert events(got[1:-1]) == [
        ("values", {"items": [], "n": 1}),
        ("updates", {"a": {"items": ["a"], "n": 2}}),
        ("values", {"items": ["a"], "n": 2}),
        ("custom", {"from": "b"}),
        ("updates", {"b": {"items": ["b"]}}),
        ("values", {"items": ["a", "b"], "n": 2}),
        ("updates", {"c": {"items": ["c"]}}),
        ("values", {"items": ["a", "b", "c"], "n": 2}),
    ]


def test_stream_subgraphs_names_events_by_namespace(client) -> None:
    thread = client.threads.create()
    got = list(
        client.runs.stream(
            thread["thread_id"],
            "nested",
            input={"n": 1},
            stream_mode="updates",
            stream_subgraphs=True,
        )
    )
    names = [p.event.split(":")[0] for p in got[1:]]
    assert names == ["updates", "updates|inner", "updates|inner", "updates", "end"]
    assert got[2].data == {"b": {"items": ["b"]}}
    assert got[4].data == {"inner": {"items": ["a", "b", "c"], "n": 2}}


def test_async_client_stream_and_wait(server) -> None:
    async def scenario() -> tuple[list, dict, dict]:
        client = get_client(url=server.url, api_key=None)
        thread = await client.threads.create()
        parts = [p async for p in client.runs.stream(thread["thread_id"], "chain", input={"n": 1})]
        again = await client.runs.wait(thread["thread_id"], "chain", input={"n": 1})
        stateless = await client.runs.wait(None, "chain", input={"n": 0})
        return parts, again, stateless

    parts, again, stateless = asyncio.run(scenario())
    assert parts[-2].data == {"items": ["a", "b", "c"], "n": 2}
    assert again == {"items": ["a", "b", "c", "a", "b", "c"], "n": 2}
    assert stateless == {"items": ["a", "b", "c"], "n": 1}


def test_background_run_and_join(client) -> None:
    thread = client.threads.create()
    created: list[dict] = []
    run = client.runs.create(
        thread["thread_id"], "slow", input={"n": 0.3}, on_run_created=created.append
    )
    assert run["status"] == "pending"
    assert created == [{"run_id": run["run_id"], "thread_id": thread["thread_id"]}]
    assert client.threads.get(thread["thread_id"])["status"] == "busy"
    assert client.runs.join(thread["thread_id"], run["run_id"]) == {
        "items": ["slow", "c"],
        "n": 0.3,
    }
    assert client.runs.get(thread["thread_id"], run["run_id"])["status"] == "success"
    assert client.threads.get(thread["thread_id"])["status"] == "idle"
    listed = client.runs.list(thread["thread_id"])
    assert [r["run_id"] for r in listed] == [run["run_id"]]


def test_join_stream_resumes_after_last_event_id(client) -> None:
    thread = client.threads.create()
    run = client.runs.create(
        thread["thread_id"],
        "slow",
        input={"n": 0.5},
        stream_mode=["values", "updates"],
        stream_resumable=True,
    )
    first = next(
        iter(client.runs.join_stream(thread["thread_id"], run["run_id"], last_event_id="0"))
    )
    assert (first.event, first.id) == ("metadata", "1")
    rest = list(client.runs.join_stream(thread["thread_id"], run["run_id"], last_event_id=first.id))
    assert [(p.event, p.id) for p in rest] == [
        ("values", "2"),
        ("updates", "3"),
        ("values", "4"),
        ("updates", "5"),
        ("values", "6"),
        ("end", "7"),
    ]
    assert rest[-2].data == {"items": ["slow", "c"], "n": 0.5}


def test_interrupt_then_resume_with_command(client) -> None:
    thread = client.threads.create()
    out = client.runs.wait(thread["thread_id"], "human", input={"n": 1})
    pending = out["__interrupt__"]
    assert [i["value"] for i in pending] == [{"question": "ok?"}]
    stored = client.threads.get(thread["thread_id"])
    assert stored["status"] == "interrupted"
    assert [[i["value"] for i in v] for v in stored["interrupts"].values()] == [
        [{"question": "ok?"}]
    ]
    state = client.threads.get_state(thread["thread_id"])
    assert state["next"] == ["ask"]
    assert state["interrupts"] == [{"id": pending[0]["id"], "value": {"question": "ok?"}}]
    done = client.runs.wait(thread["thread_id"], "human", command={"resume": "yes"})
    assert done == {"items": ["a", "answer:yes", "c"], "n": 2}
    assert client.threads.get(thread["thread_id"])["status"] == "idle"


def test_interrupt_before_then_continue(client) -> None:
    thread = client.threads.create()
    out = client.runs.wait(thread["thread_id"], "chain", input={"n": 1}, interrupt_before=["b"])
    assert out == {"items": ["a"], "n": 2}
    assert client.threads.get_state(thread["thread_id"])["next"] == ["b"]
    assert client.threads.get(thread["thread_id"])["status"] == "interrupted"
    assert client.runs.wait(thread["thread_id"], "chain", input=None) == {
        "items": ["a", "b", "c"],
        "n": 2,
    }


def test_update_state_then_run_from_the_fork(client) -> None:
    thread = client.threads.create()
    client.runs.wait(thread["thread_id"], "chain", input={"n": 1}, interrupt_before=["c"])
    updated = client.threads.update_state(thread["thread_id"], {"items": ["edited"]}, as_node="b")
    assert set(updated["checkpoint"]) == {"thread_id", "checkpoint_ns", "checkpoint_id"}
    state = client.threads.get_state(thread["thread_id"])
    assert state["values"] == {"items": ["a", "b", "edited"], "n": 2}
    assert state["checkpoint"]["checkpoint_id"] == updated["checkpoint_id"]
    assert state["metadata"]["source"] == "update"
    assert client.runs.wait(thread["thread_id"], "chain", input=None) == {
        "items": ["a", "b", "edited", "c"],
        "n": 2,
    }


def test_run_from_a_past_checkpoint_replays_and_forks(client) -> None:
    thread = client.threads.create()
    client.runs.wait(thread["thread_id"], "chain", input={"n": 1})
    history = client.threads.get_history(thread["thread_id"])
    assert [s["metadata"]["step"] for s in history] == [3, 2, 1, 0, -1]
    after_a = history[2]
    assert after_a["next"] == ["b"]
    again = client.runs.wait(
        thread["thread_id"],
        "chain",
        input=None,
        checkpoint_id=after_a["checkpoint"]["checkpoint_id"],
    )
    assert again == {"items": ["a", "b", "c"], "n": 2}
    newest = client.threads.get_history(thread["thread_id"], limit=1)[0]
    assert newest["parent_checkpoint"]["checkpoint_id"] != history[0]["checkpoint"]["checkpoint_id"]
    by_checkpoint = client.threads.get_state(
        thread["thread_id"], checkpoint_id=after_a["checkpoint"]["checkpoint_id"]
    )
    assert by_checkpoint["values"] == {"items": ["a"], "n": 2}
    page = client.threads.get_history(
        thread["thread_id"], limit=2, before={"configurable": history[1]["checkpoint"]}
    )
    assert [s["metadata"]["step"] for s in page] == [1, 0]


def test_cancel_interrupt_keeps_the_thread_usable(client) -> None:
    thread = client.threads.create()
    run = client.runs.create(thread["thread_id"], "slow", input={"n": 5})
    _wait_status(client, thread["thread_id"], run["run_id"], "running")
    client.runs.cancel(thread["thread_id"], run["run_id"], wait=True, action="interrupt")
    assert client.runs.get(thread["thread_id"], run["run_id"])["status"] == "interrupted"
    assert client.threads.get(thread["thread_id"])["status"] in ("idle", "interrupted")
    assert client.runs.wait(thread["thread_id"], "chain", input={"n": 1})["items"][-1] == "c"


def test_cancel_rollback_deletes_the_run_and_restores_the_state(client) -> None:
    thread = client.threads.create()
    client.runs.wait(thread["thread_id"], "slow", input={"n": 0.01})
    before = client.threads.get_state(thread["thread_id"])["values"]
    run = client.runs.create(thread["thread_id"], "slow", input={"n": 5})
    _wait_status(client, thread["thread_id"], run["run_id"], "running")
    client.runs.cancel(thread["thread_id"], run["run_id"], wait=True, action="rollback")
    with pytest.raises(NotFoundError):
        client.runs.get(thread["thread_id"], run["run_id"])
    assert client.threads.get_state(thread["thread_id"])["values"] == before


def test_multitask_reject_gives_409(client) -> None:
    thread = client.threads.create()
    run = client.runs.create(thread["thread_id"], "slow", input={"n": 2})
    with pytest.raises(ConflictError, match="already running"):
        client.runs.create(thread["thread_id"], "slow", input={"n": 1}, multitask_strategy="reject")
    client.runs.cancel(thread["thread_id"], run["run_id"], wait=True)


def test_multitask_interrupt_and_rollback(client) -> None:
    for strategy, survives in (("interrupt", True), ("rollback", False)):
        thread = client.threads.create()
        first = client.runs.create(thread["thread_id"], "slow", input={"n": 5})
        _wait_status(client, thread["thread_id"], first["run_id"], "running")
        second = client.runs.create(
            thread["thread_id"], "slow", input={"n": 0.01}, multitask_strategy=strategy
        )
        out = client.runs.join(thread["thread_id"], second["run_id"])
        assert out["items"][-2:] == ["slow", "c"]
        if survives:
            assert client.runs.get(thread["thread_id"], first["run_id"])["status"] == "interrupted"
        else:
            with pytest.raises(NotFoundError):
                client.runs.get(thread["thread_id"], first["run_id"])


def test_multitask_enqueue_runs_in_order(client) -> None:
    thread = client.threads.create()
    first = client.runs.create(thread["thread_id"], "slow", input={"n": 0.3})
    second = client.runs.create(thread["thread_id"], "slow", input={"n": 0.01})
    assert client.runs.get(thread["thread_id"], second["run_id"])["status"] == "pending"
    client.runs.join(thread["thread_id"], second["run_id"])
    assert client.runs.get(thread["thread_id"], first["run_id"])["status"] == "success"
    assert client.threads.get_state(thread["thread_id"])["values"]["items"] == [
        "slow",
        "c",
        "slow",
        "c",
    ]


# -- failures and bad input ----------------------------------------------------------------


def test_a_failing_graph_ends_the_run_with_an_error_event(client) -> None:
    thread = client.threads.create()
    parts = list(client.runs.stream(thread["thread_id"], "failing", input={"n": 1}))
    got_run_id = parts[0].data["run_id"]
    got = events(parts[1:])
    assert got == [
        ("values", {"items": [], "n": 1}),
        ("values", {"items": ["a"], "n": 2}),
        ("error", {"error": "ValueError", "message": "boom happened"}),
        ("end", {"run_id": got_run_id, "status": "error"}),
    ]
    stored = client.threads.get(thread["thread_id"])
    assert stored["status"] == "error"
    assert stored["error"] == {"error": "ValueError", "message": "boom happened"}
    history = client.threads.get_history(thread["thread_id"])
    assert [s["metadata"]["step"] for s in history] == [1, 0, -1]
    assert history[0]["tasks"][0]["error"] == "ValueError('boom happened')"
    assert [r["status"] for r in client.runs.list(thread["thread_id"])] == ["error"]
    assert client.runs.wait(thread["thread_id"], "chain", input={"n": 1})["items"][-1] == "c"


def test_bad_input_gets_langgraphs_status_codes(server, client) -> None:
    thread = client.threads.create()
    tid = thread["thread_id"]
    raw = httpx.Client(base_url=server.url, timeout=10)
    bad_json = raw.post(f"/threads/{tid}/runs/wait", content=b"{nope")
    assert (bad_json.status_code, bad_json.json()) == (
        422,
        {"detail": "Invalid JSON in request body"},
    )
    wrong_type = raw.post(f"/threads/{tid}/runs", json={"assistant_id": 5})
    assert wrong_type.status_code == 422
    assert '"assistant_id"' in wrong_type.json()["detail"]
    missing = raw.post(f"/threads/{tid}/runs", json={"input": {}})
    assert missing.json() == {"detail": '"assistant_id" is a required property'}
    with pytest.raises(UnprocessableEntityError, match="stream_mode"):
        client.runs.create(tid, "chain", stream_mode="nosuch")
    with pytest.raises(UnprocessableEntityError, match="registered graphs: chain"):
        client.runs.create(tid, "nosuch")
    with pytest.raises(NotFoundError):
        client.runs.create(tid, str(uuid.uuid4()))
    with pytest.raises(NotFoundError, match="not found"):
        client.runs.create(str(uuid.uuid4()), "chain")
    with pytest.raises(NotFoundError):
        client.runs.get(tid, str(uuid.uuid4()))
    assert raw.get(f"/threads/{tid}/state/{uuid.uuid4()}").status_code in (200, 404)
    too_big = raw.post(
        f"/threads/{tid}/runs", json={"assistant_id": "chain", "input": {"x": "y" * 200_000}}
    )
    assert too_big.status_code == 413
    assert client.runs.wait(tid, "chain", input={"n": 1})["items"] == ["a", "b", "c"]


def test_factory_graph_is_built_per_run(client) -> None:
    assert client.runs.wait(None, "factory", input={"n": 0}) == {"items": ["a", "b", "c"], "n": 1}


def _wait_status(client, thread_id: str, run_id: str, status: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.runs.get(thread_id, run_id)["status"] == status:
            return
        time.sleep(0.02)
    raise AssertionError(f"run {run_id} never reached {status!r}")


def test_events_mode_streams_callback_events(client) -> None:
    thread = client.threads.create()
    parts = list(
        client.runs.stream(thread["thread_id"], "chain", input={"n": 1}, stream_mode=["events"])
    )
    kinds = [(p.data["event"], p.data["name"]) for p in parts if p.event == "events"]
    assert kinds[0] == ("on_chain_start", "LangGraph")
    assert ("on_chain_end", "a") in kinds
    assert kinds[-1] == ("on_chain_end", "LangGraph")
    assert {p.event for p in parts} == {"metadata", "events", "end"}


def test_messages_modes_stream_model_tokens(client) -> None:
    thread = client.threads.create()
    tid = thread["thread_id"]
    parts = list(
        client.runs.stream(
            tid,
            "chat",
            input={"messages": [{"role": "user", "content": "hi"}]},
            stream_mode="messages-tuple",
        )
    )
    tokens = [p.data for p in parts if p.event == "messages"]
    assert "".join(chunk["content"] for chunk, _ in tokens) == "hello there"
    assert {meta["langgraph_node"] for _, meta in tokens} == {"reply"}
    legacy = list(
        client.runs.stream(
            tid,
            "chat",
            input={"messages": [{"role": "user", "content": "again"}]},
            stream_mode="messages",
        )
    )
    names = [p.event for p in legacy]
    assert names[1] == "messages/metadata"
    partials = [p.data[0]["content"] for p in legacy if p.event == "messages/partial"]
    assert partials[-1] == "hello there"
    assert partials[0] != partials[-1]


def test_meta_endpoints(server) -> None:
    raw = httpx.Client(base_url=server.url, timeout=10)
    assert raw.get("/ok").json() == {"ok": True, "services": {}}
    assert raw.get("/info").json()["flags"]["assistants"] is True
    spec = raw.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert "post" in spec["paths"]["/threads/{thread_id}/runs/stream"]
    docs = raw.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text


def test_after_seconds_delays_the_run(client) -> None:
    thread = client.threads.create()
    started = time.monotonic()
    run = client.runs.create(thread["thread_id"], "chain", input={"n": 1}, after_seconds=1)
    time.sleep(0.3)
    assert client.runs.get(thread["thread_id"], run["run_id"])["status"] == "pending"
    client.runs.join(thread["thread_id"], run["run_id"])
    assert time.monotonic() - started >= 1.0
    assert client.runs.get(thread["thread_id"], run["run_id"])["status"] == "success"


def test_on_disconnect_cancel_stops_the_run(server, client) -> None:
    thread = client.threads.create()
    body = {"assistant_id": "slow", "input": {"n": 5}, "on_disconnect": "cancel"}
    with httpx.Client(base_url=server.url, timeout=10) as raw:
        with raw.stream("POST", f"/threads/{thread['thread_id']}/runs/stream", json=body) as r:
            run_id = r.headers["content-location"].rsplit("/", 1)[-1]
            next(r.iter_raw())
    _wait_status(client, thread["thread_id"], run_id, "interrupted")


def test_an_unknown_checkpoint_reads_as_an_empty_state(client) -> None:
    thread = client.threads.create()
    client.runs.wait(thread["thread_id"], "chain", input={"n": 1})
    missing = str(uuid.uuid4())
    state = client.threads.get_state(thread["thread_id"], checkpoint_id=missing)
    assert (state["values"], state["next"], state["checkpoint_id"]) == ({}, [], missing)


def test_thread_stream_follows_every_run_on_the_thread(server, client) -> None:
    import threading

    thread = client.threads.create()
    seen: list[tuple[str, object]] = []
    listening = threading.Event()

    def listen() -> None:
        with httpx.Client(base_url=server.url, timeout=20) as raw:
            url = f"/threads/{thread['thread_id']}/stream"
            with raw.stream("GET", url, params={"stream_mode": "values"}) as r:
                listening.set()
                lines = r.iter_lines()
                for line in lines:
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                        data = next(lines).removeprefix("data: ")
                        seen.append((event, json.loads(data)))
                        if sum(e == "end" for e, _ in seen) == 2:
                            return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert listening.wait(10)
    time.sleep(0.2)
    client.runs.wait(thread["thread_id"], "chain", input={"n": 1})
    client.runs.wait(thread["thread_id"], "chain", input={"n": 5})
    listener.join(timeout=20)
    assert not listener.is_alive()
    values = [data["n"] for event, data in seen if event == "values"]
    assert values == [1, 2, 2, 2, 5, 6, 6, 6]
    assert [e for e, _ in seen if e not in ("values",)] == ["end", "end"]
