"""The thread event protocol's pure parts: log names, subscription filters, event conversion."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AIMessageChunk, ToolMessage

from foldgraph.server.protocol import wire

segments = st.text(alphabet=st.characters(blacklist_characters="|#"), min_size=1, max_size=8)
channels = st.sampled_from(sorted(wire.CHANNELS)) | st.builds(
    lambda name: f"custom:{name}", st.text(min_size=1, max_size=8)
)


@given(
    channels,
    st.lists(segments, max_size=3),
    st.none() | st.sampled_from(["completed", "running:r1"]),
)
def test_a_name_reads_back_as_written(channel, namespace, marker) -> None:
    name = wire.parse_name(wire.event_name(channel, namespace, marker))
    assert (name.channel, name.namespace, name.marker) == (channel, tuple(namespace), marker)


def test_filters_match_channels_namespaces_and_depth() -> None:
    def match(filter_params: dict, channel: str, namespace: list[str]) -> bool:
        wanted, _since = wire.parse_filter(filter_params)
        return wanted.matches(wire.parse_name(wire.event_name(channel, namespace)))

    assert match({"channels": ["values"]}, "values", ["a:1", "b:2"])
    assert not match({"channels": ["values"]}, "updates", [])
    assert match({"channels": ["custom"]}, "custom:nodes", [])
    assert not match({"channels": ["custom:other"]}, "custom:nodes", [])
    root = {"channels": ["values"], "namespaces": [[]], "depth": 0}
    assert match(root, "values", []) and not match(root, "values", ["a:1"])
    # A prefix segment without a task id matches every call of that node.
    by_node = {"channels": ["values"], "namespaces": [["agent"]], "depth": 1}
    assert match(by_node, "values", ["agent:1"]) and match(by_node, "values", ["agent:2", "x:3"])
    assert not match(by_node, "values", ["agent:2", "x:3", "y:4"])
    assert not match({"channels": ["values"], "namespaces": [["agent:1"]]}, "values", ["agent:2"])
    assert match({"channels": ["values"], "depth": 1}, "values", ["a:1"])
    assert not match({"channels": ["values"], "depth": 1}, "values", ["a:1", "b:2"])


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, '"channels" must be a non-empty list'),
        ({"channels": ["nope"]}, "'nope' is not a channel"),
        ({"channels": ["values"], "namespaces": ["a"]}, '"namespaces" must be a list'),
        ({"channels": ["values"], "depth": -1}, '"depth" must be a non-negative integer'),
        ({"channels": ["values"], "since": "3"}, '"since" must be a non-negative integer'),
    ],
)
def test_a_bad_subscription_names_its_field(params, message) -> None:
    with pytest.raises(wire.FilterError, match=message):
        wire.parse_filter(params)


def event(method: str, data, namespace=()) -> dict:
    return {
        "method": method,
        "params": {"namespace": list(namespace), "timestamp": 0, "data": data},
    }


def test_conversion_of_a_runs_events() -> None:
    convert = wire.WireConverter().convert
    lifecycle = {"event": "started", "namespace": ["inner:1"], "graph_name": "inner"}
    assert list(convert(event("lifecycle", lifecycle))) == [("lifecycle", ["inner:1"], lifecycle)]
    assert list(convert(event("custom:nodes", "a"))) == [
        ("custom:nodes", [], {"name": "nodes", "payload": "a"})
    ]
    assert list(convert(event("custom", {"x": 1}, ["s:1"]))) == [
        ("custom", ["s:1"], {"payload": {"x": 1}})
    ]
    assert list(convert(event("debug", {}))) == []
    meta = {"langgraph_node": "reply", "run_id": "r1"}
    start = {"event": "message-start", "role": "ai", "message_id": "m1"}
    assert list(convert(event("messages", (start, meta)))) == [
        ("messages", [], {**start, "id": "m1", "metadata": {"langgraph_node": "reply"}})
    ]
    # A tool's own message events are left out, as the local `run.messages` leaves them out.
    tool_meta = {"langgraph_node": "tools", "run_id": "t1"}
    for part in ({"event": "message-start", "role": "tool"}, {"event": "message-finish"}):
        assert list(convert(event("messages", (part, tool_meta)))) == []
    assert list(convert(event("messages", (ToolMessage("x", tool_call_id="c"), meta)))) == []
    assert list(convert(event("messages", (AIMessageChunk("x"), meta)))) == []
    whole = list(convert(event("messages", (AIMessage("hi there", id="ai-1"), meta))))
    kinds = [data["event"] for _, _, data in whole]
    assert kinds[0] == "message-start" and kinds[-1] == "message-finish"
    assert whole[0][2]["id"] == "ai-1"


def test_framing() -> None:
    data = wire.event_data("input", [], {"interrupt_id": "i", "payload": 1})
    framed = json.loads(wire.frame("7", data))
    assert (framed["type"], framed["event_id"], framed["seq"], framed["method"]) == (
        "event",
        "7",
        7,
        "input.requested",
    )
    sse = wire.sse("input", "7", data).decode()
    assert sse.startswith("event: input.requested\r\ndata: {") and sse.endswith("\r\nid: 7\r\n\r\n")
