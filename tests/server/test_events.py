"""The thread event protocol (SDK 0.4's `client.threads.stream()`, `RemoteGraph.stream_events`).

Driven through the official SDK (sync and async, SSE and WebSocket), through
`foldgraph.pregel.remote.RemoteGraph`, and as raw HTTP and WebSocket messages where the
envelope itself is the contract. One server serves the module (see conftest).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import pytest
from langgraph_sdk import get_client, get_sync_client
from websockets.sync.client import connect

from foldgraph.pregel.remote import RemoteException, RemoteGraph
from foldgraph.types import Command, Interrupt

pytestmark = pytest.mark.timeout(60)

CHAIN = [
    {"items": [], "n": 1},
    {"items": ["a"], "n": 2},
    {"items": ["a", "b"], "n": 2},
    {"items": ["a", "b", "c"], "n": 2},
]
ALL = [
    "values",
    "updates",
    "messages",
    "tools",
    "lifecycle",
    "input",
    "checkpoints",
    "tasks",
    "custom",
]


def raw_events(
    server, thread_id: str, seconds: float, count: int | None = None, **subscription
) -> list[dict]:
    """The events an SSE subscription gets (the stream stays open): up to the root event
    that ends a run, or `count` events, within `seconds`."""
    body = {"channels": ALL, **subscription}
    found: list[dict] = []
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=server.url, timeout=seconds + 5) as http:
        with http.stream("POST", f"/threads/{thread_id}/stream/events", json=body) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if line.startswith("data: "):
                    found.append(json.loads(line[6:]))
                    data = found[-1]["params"]["data"]
                    ends = data.get("event") in ("completed", "failed", "interrupted")
                    if (ends and not found[-1]["params"]["namespace"]) or len(found) == count:
                        break
                if time.monotonic() > deadline:
                    break
    return found


def command(server, thread_id: str, method: str, params: dict, cid: int = 1) -> dict:
    body = {"id": cid, "method": method, "params": params}
    r = httpx.post(f"{server.url}/threads/{thread_id}/commands", json=body, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def summary(events: list[dict]) -> list[tuple]:
    """`(seq, method, namespace depth, data)` with the ids and clock taken out."""
    return [
        (e["seq"], e["method"], len(e["params"]["namespace"]), e["params"]["data"]) for e in events
    ]


# -- through the SDK -----------------------------------------------------------------------


@pytest.mark.parametrize("transport", ["sse", "websocket"])
def test_async_sdk_values_messages_and_output(server, transport) -> None:
    async def scenario() -> tuple:
        client = get_client(url=server.url)
        async with client.threads.stream(assistant_id="chain", transport=transport) as thread:
            started = await thread.run.start(input={"n": 1})
            values = [v async for v in thread.values]
            output = await thread.output
            run = await client.runs.get(thread.thread_id, started["run_id"])
        async with client.threads.stream(assistant_id="chat", transport=transport) as thread:
            await thread.run.start(input={"messages": [{"role": "user", "content": "hi"}]})
            streams = [m async for m in thread.messages]
            texts = [(m.node, await m.text) for m in streams]
            reply = (await thread.output)["messages"][-1]
        return values, output, run, texts, reply

    values, output, run, texts, reply = asyncio.run(scenario())
    # The SDK seeds `values` with the thread's state when reading begins, then each step's.
    assert len(values) == 5 and values[1:] == CHAIN
    assert output == CHAIN[-1]
    assert (run["status"], run["kwargs"]["protocol"]) == ("success", True)
    assert texts == [("reply", "hello there")]
    assert (reply["type"], reply["content"]) == (
        "ai",
        [{"type": "text", "text": "hello there", "index": 0}],
    )


@pytest.mark.parametrize("transport", ["sse", "websocket"])
def test_sync_sdk_turns_on_one_thread_each_read_their_own_run(server, transport) -> None:
    client = get_sync_client(url=server.url)
    thread_id = str(uuid.uuid4())
    outputs = []
    for _turn in range(3):
        with client.threads.stream(thread_id, assistant_id="slow", transport=transport) as thread:
            thread.run.start(input={"n": 0.2})
            outputs.append(thread.output)
    # LangGraph's dev server answers the second turn with the first turn's state: its
    # stream replays the earlier run's end to a client that opened it before run.start.
    assert outputs == [
        {"items": ["slow", "c"], "n": 0.2},
        {"items": ["slow", "c"] * 2, "n": 0.2},
        {"items": ["slow", "c"] * 3, "n": 0.2},
    ]


def eventually(condition, seconds: float = 10.0) -> bool:
    """Poll `condition` until it holds (the SDK sets `interrupted` from its watcher thread:
    a projection opened after that has happened would wait for more events)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_interrupt_then_respond_and_resume_by_run_start(server) -> None:
    client = get_sync_client(url=server.url)
    with client.threads.stream(assistant_id="human") as thread:
        thread.run.start(input={"n": 1})
        assert eventually(lambda: thread.interrupted)
        [pending] = thread.interrupts
        assert (pending["value"], pending["namespace"]) == ({"question": "ok?"}, [])
        thread.run.respond("yes")
        assert thread.output == {"items": ["a", "answer:yes", "c"], "n": 2}
        thread_id = thread.thread_id
    state = client.threads.get_state(thread_id)
    assert (state["next"], state["interrupts"]) == ([], [])

    # On a thread waiting at an interrupt, run.start's input is the answer.
    with client.threads.stream(assistant_id="human") as thread:
        thread.run.start(input={"n": 1})
        assert eventually(lambda: thread.interrupted)
        thread.run.start(input="via start")
        assert thread.output == {"items": ["a", "answer:via start", "c"], "n": 2}
        assert thread.interrupted is False


def test_subgraphs_and_a_failing_run(server) -> None:
    client = get_sync_client(url=server.url)
    with client.threads.stream(assistant_id="nested") as thread:
        thread.run.start(input={"n": 1})
        handles = list(thread.subgraphs)
        assert thread.output == {"items": ["a", "a", "b", "c"], "n": 2}
    [inner] = handles
    assert (inner.graph_name, len(inner.path), inner.path[0].split(":")[0]) == ("inner", 1, "inner")
    assert inner.status == "completed"

    with client.threads.stream(assistant_id="failing") as thread:
        thread.run.start(input={"n": 1})
        with pytest.raises(RuntimeError, match="Run errored: boom happened"):
            _ = thread.output
        run = client.runs.list(thread.thread_id)[0]
    assert run["status"] == "error"


def test_projections_a_graph_compiled_with_transformers_streams(server) -> None:
    client = get_sync_client(url=server.url)
    with client.threads.stream(assistant_id="streamed") as thread:
        thread.run.start(input={"n": 1})
        nodes = list(thread.extensions["nodes"])
        thread_id = thread.thread_id
    assert nodes == [{"name": "nodes", "payload": p} for p in ("a", "b", "c")]
    events = raw_events(server, thread_id, 5, since=0)
    # A transformer's named channel is `custom` with its name; what it pushes while it sees
    # an event comes before that event.
    assert [(m, d) for _, m, _, d in summary(events) if m in ("updates", "custom")] == [
        ("custom", {"name": "nodes", "payload": "a"}),
        ("updates", {"a": {"items": ["a"], "n": 2}}),
        ("custom", {"payload": {"from": "b"}}),
        ("custom", {"name": "nodes", "payload": "b"}),
        ("updates", {"b": {"items": ["b"]}}),
        ("custom", {"name": "nodes", "payload": "c"}),
        ("updates", {"c": {"items": ["c"]}}),
    ]


# -- the wire ---------------------------------------------------------------------------------


def test_a_run_on_the_wire_and_replay_since(server) -> None:
    thread_id = str(uuid.uuid4())
    started = command(server, thread_id, "run.start", {"assistant_id": "nested", "input": {"n": 1}})
    assert started["type"] == "success" and started["id"] == 1
    assert set(started["result"]) == {"run_id"}
    assert started["meta"] == {"applied_through_seq": 0}
    events = raw_events(server, thread_id, 10)
    rows = summary(events)
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    assert all(e["event_id"] == str(e["seq"]) and e["type"] == "event" for e in events)
    inner = events[3]["params"]["namespace"]
    assert [(m, depth, d) for _, m, depth, d in rows] == [
        ("lifecycle", 0, {"event": "running", "graph_name": "nested"}),
        ("values", 0, {"items": [], "n": 1}),
        ("values", 0, {"items": ["a"], "n": 2}),
        ("values", 1, {"items": ["a"], "n": 2}),
        (
            "lifecycle",
            1,
            {
                "event": "started",
                "namespace": inner,
                "graph_name": "inner",
                "trigger_call_id": inner[0].split(":")[1],
            },
        ),
        ("values", 1, {"items": ["a", "b"], "n": 2}),
        ("values", 1, {"items": ["a", "b", "c"], "n": 2}),
        ("lifecycle", 1, {"event": "completed", "namespace": inner}),
        ("values", 0, {"items": ["a", "a", "b", "c"], "n": 2}),
        ("lifecycle", 0, {"event": "completed", "graph_name": "nested"}),
    ]
    # `since` replays after that event; a filter keeps channels and namespace depth.
    later = raw_events(server, thread_id, 5, since=8)
    assert [e["seq"] for e in later] == [9, 10]
    root = raw_events(server, thread_id, 5, since=0, namespaces=[[]], depth=0)
    assert [e["seq"] for e in root] == [1, 2, 3, 9, 10]
    by_name = raw_events(
        server, thread_id, 5, 3, since=0, channels=["values"], namespaces=[["inner"]]
    )
    assert [e["seq"] for e in by_name] == [4, 6, 7]


def test_state_commands_and_agent_tree(server) -> None:
    thread_id = str(uuid.uuid4())
    command(server, thread_id, "run.start", {"assistant_id": "chain", "input": {"n": 1}})
    raw_events(server, thread_id, 10)
    got = command(server, thread_id, "state.get", {"namespace": [], "keys": ["items"]}, 2)
    assert got["result"]["values"] == {"items": ["a", "b", "c"]}
    listed = command(server, thread_id, "state.listCheckpoints", {"limit": 3}, 3)["result"]
    assert [(c["step"], c.get("node_name")) for c in listed["checkpoints"]] == [
        (3, "c"),
        (2, "b"),
        (1, "a"),
    ]
    assert listed["checkpoints"][0]["id"] == got["result"]["checkpoint"]["id"]
    older = command(
        server, thread_id, "state.listCheckpoints", {"before": listed["checkpoints"][2]["id"]}, 4
    )["result"]["checkpoints"]
    assert [c["step"] for c in older] == [0, -1]
    forked = command(server, thread_id, "state.fork", {"checkpoint_id": older[0]["id"]}, 5)
    assert forked["result"]["thread_id"] == thread_id
    run_id = forked["result"]["run_id"]
    joined = httpx.get(f"{server.url}/threads/{thread_id}/runs/{run_id}/join", timeout=20)
    assert joined.json() == {"items": ["a", "b", "c"], "n": 2}
    history = command(server, thread_id, "state.listCheckpoints", {"limit": 20}, 8)
    steps = [(c["step"], c["metadata"]["source"]) for c in history["result"]["checkpoints"]]
    assert steps[:5] == [(4, "loop"), (3, "loop"), (2, "loop"), (1, "fork"), (3, "loop")]
    assert len(steps) == 9  # the fork's steps (as LangGraph makes them) on the first run's

    slow = str(uuid.uuid4())
    command(server, slow, "run.start", {"assistant_id": "slow", "input": {"n": 1.5}})
    tree = None
    for _ in range(50):
        tree = command(server, slow, "agent.getTree", {}, 6)
        if tree["type"] == "success":
            break
        time.sleep(0.05)
    assert tree["result"] == {"tree": {"namespace": [], "status": "running", "graph_name": "slow"}}
    raw_events(server, slow, 10)
    ended = command(server, slow, "agent.getTree", {}, 7)
    assert (ended["error"], ended["message"]) == (
        "no_such_run",
        "No active run is bound to this thread.",
    )


def test_bad_commands_get_the_protocols_errors(server) -> None:
    thread_id = str(uuid.uuid4())

    def error(method: str, params: dict) -> tuple[str, str]:
        answer = command(server, thread_id, method, params)
        assert answer["type"] == "error" and answer["id"] == 1
        return answer["error"], answer["message"]

    assert error("run.start", {"input": {}}) == (
        "invalid_argument",
        "run.start requires an assistant_id.",
    )
    code, message = error("run.start", {"assistant_id": "nope"})
    assert code == "invalid_argument" and message.startswith("Invalid assistant: 'nope'")
    assert error("nope", {}) == ("unknown_command", "Unknown protocol command: nope")
    assert (
        error("input.inject", {"namespace": [], "message": {"role": "user", "content": "x"}})[0]
        == "not_supported"
    )
    assert error("subscription.subscribe", {"channels": ["values"]})[0] == "not_supported"
    command(server, thread_id, "run.start", {"assistant_id": "human", "input": {"n": 1}})
    raw_events(server, thread_id, 3)
    assert error("input.respond", {"namespace": [], "interrupt_id": "bogus", "response": 1}) == (
        "no_such_interrupt",
        "Unknown or already-consumed interrupt: bogus",
    )
    assert error("state.fork", {"checkpoint_id": str(uuid.uuid4())})[0] == "no_such_checkpoint"
    assert error("state.get", {"namespace": ["nowhere:1"]})[0] == "no_such_namespace"

    r = httpx.post(f"{server.url}/threads/{thread_id}/commands", json={"id": 7})
    assert (r.status_code, r.json()) == (
        400,
        {
            "type": "error",
            "id": 7,
            "error": "invalid_argument",
            "message": "Protocol commands must include an integer id and string method.",
        },
    )
    r = httpx.post(f"{server.url}/threads/{thread_id}/stream/events", json={"channels": ["nope"]})
    assert r.status_code == 422 and "'nope' is not a channel" in r.json()["detail"]
    r = httpx.post(f"{server.url}/threads/not-a-uuid/commands", json={"id": 1, "method": "x"})
    assert r.status_code == 422


def test_websocket_subscriptions(server) -> None:
    thread_id = str(uuid.uuid4())
    url = server.url.replace("http", "ws") + f"/threads/{thread_id}/stream/events"
    with connect(url, open_timeout=10) as ws:
        ws.send(
            json.dumps(
                {
                    "id": 1,
                    "method": "subscription.subscribe",
                    "params": {"channels": ["lifecycle"], "namespaces": [[]], "depth": 0},
                }
            )
        )
        subscribed = json.loads(ws.recv(timeout=10))
        assert (subscribed["type"], subscribed["id"], subscribed["result"]["replayed_events"]) == (
            "success",
            1,
            0,
        )
        ws.send("not json")
        assert json.loads(ws.recv(timeout=10)) == {
            "type": "error",
            "id": None,
            "error": "invalid_argument",
            "message": "Protocol commands must be valid JSON.",
        }
        ws.send(
            json.dumps(
                {
                    "id": 2,
                    "method": "run.start",
                    "params": {"assistant_id": "chain", "input": {"n": 1}},
                }
            )
        )
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(3)]
        answer = next(f for f in frames if f["type"] == "success")
        run_id = answer["result"]["run_id"]
        lifecycle = [f["params"]["data"]["event"] for f in frames if f["type"] == "event"]
        assert lifecycle == ["running", "completed"]
        ws.send(
            json.dumps(
                {
                    "id": 3,
                    "method": "subscription.unsubscribe",
                    "params": {"subscription_id": "nope"},
                }
            )
        )
        assert json.loads(ws.recv(timeout=10))["error"] == "no_such_subscription"
        ws.send(
            json.dumps(
                {
                    "id": 4,
                    "method": "subscription.subscribe",
                    "params": {"channels": ["values"], "since": 0},
                }
            )
        )
        frames = [json.loads(ws.recv(timeout=10)) for _ in range(5)]
        assert frames[0]["result"]["replayed_events"] == 4
        assert [f["params"]["data"] for f in frames[1:]] == CHAIN
        ws.send(
            json.dumps(
                {
                    "id": 5,
                    "method": "subscription.reconnect",
                    "params": {"run_id": run_id, "last_event_id": "0"},
                }
            )
        )
        assert json.loads(ws.recv(timeout=10))["result"] == {"restored": True, "missed_events": 0}


# -- RemoteGraph ---------------------------------------------------------------------------------


def test_remote_graph_stream_events_v3(server) -> None:
    remote = RemoteGraph("human", url=server.url)
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    with remote.stream_events({"n": 1}, config, version="v3") as run:
        # As a local run's: each step's state up to the interrupt (the state at the
        # interrupt comes twice, the second time with it), then where the run stopped.
        # The SDK ends every open projection when its lifecycle stream (a connection of
        # its own) sees the interrupt, which can be before the values stream delivered
        # the last states: what comes is a prefix of them.
        seen = list(run.values)
        assert (
            seen
            == [
                {"items": [], "n": 1},
                {"items": ["a"], "n": 2},
                {"items": ["a"], "n": 2},
            ][: len(seen)]
        )
        assert run.interrupted is True
        [interrupt] = run.interrupts
        assert interrupt == Interrupt(value={"question": "ok?"}, id=interrupt.id)
        assert run.output == {"items": ["a"], "n": 2}
    with remote.stream_events(Command(resume="yes"), config, version="v3") as run:
        assert run.output == {"items": ["a", "answer:yes", "c"], "n": 2}
        assert run.interrupted is False
    with RemoteGraph("failing", url=server.url).stream_events({"n": 1}, version="v3") as run:
        with pytest.raises(RemoteException, match="Run errored: boom happened"):
            _ = run.output

    streamed = RemoteGraph("streamed", url=server.url)
    with streamed.stream_events({"n": 1}, version="v3") as run:
        methods = [e["method"] for e in run]  # ends with the run, as a local run's events
        assert list(run.extensions) == [
            "values",
            "messages",
            "tool_calls",
            "subgraphs",
            "updates",
            "checkpoints",
            "tasks",
            "custom",
        ]
    assert methods[0] == "lifecycle" and methods[-1] == "lifecycle"
    assert methods.count("updates") == 3 and methods.count("custom") == 4  # "b"'s, 3 nodes
    with streamed.stream_events({"n": 1}, version="v3") as run:
        assert list(run.extensions["updates"]) == [
            {"a": {"items": ["a"], "n": 2}},
            {"b": {"items": ["b"]}},
            {"c": {"items": ["c"]}},
        ]

    async def scenario() -> tuple:
        chain = RemoteGraph("nested", url=server.url)
        async with await chain.astream_events({"n": 1}, version="v3") as run:
            paths = [h.graph_name async for h in run.subgraphs]
            output = await run.output()
        return paths, output

    assert asyncio.run(scenario()) == (["inner"], {"items": ["a", "a", "b", "c"], "n": 2})
    with pytest.raises(NotImplementedError, match="does not support `interrupt_before=`"):
        remote.stream_events({}, version="v3", interrupt_before=["ask"])
    with pytest.raises(NotImplementedError, match=r"Command\(resume=\.\.\.\) only"):
        remote.stream_events(Command(goto="c"), version="v3")
