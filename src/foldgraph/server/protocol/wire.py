"""The protocol's events on the wire: names, filters, conversion and framing (pure).

An event is kept in the thread's log under a *name* that says what a filter needs
without decoding its JSON: the channel a client subscribes to (`values`, `messages`,
`lifecycle`, `input`, `custom:<name>`, ...), the namespace (`|node:task_id` per
level), and for the root run's lifecycle a marker (`#running:<run_id>`,
`#completed`, ...) that tells where each run begins and ends. Its data is the JSON
of `{"method", "params"}`; `type`, `event_id` and `seq` are added when it is sent,
from the id the log gave it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from foldgraph.server import serde

#: The channels of the protocol (`custom:<name>` selects one named custom stream).
CHANNELS = frozenset(
    "values updates messages tools lifecycle input checkpoints tasks custom".split()
)
#: Root lifecycle events that end a run (for the client: `completed` and `failed`).
RUN_ENDS = frozenset({"completed", "failed", "interrupted"})


# -- names -------------------------------------------------------------------------------


def event_name(channel: str, namespace: list[str], marker: str | None = None) -> str:
    """The log name of an event: channel, namespace levels, and a root-run marker."""
    name = channel.replace("|", "%7C").replace("#", "%23")
    if namespace:
        name += "|" + "|".join(namespace)
    if marker is not None:
        name += "#" + marker
    return name


@attrs.frozen(slots=True)
class Name:
    """A parsed log name."""

    channel: str
    namespace: tuple[str, ...]
    marker: str | None


def parse_name(name: str) -> Name:
    head, _, marker = name.partition("#")
    channel, *namespace = head.split("|")
    return Name(channel.replace("%7C", "|").replace("%23", "#"), tuple(namespace), marker or None)


def wire_method(channel: str) -> str:
    """The `method` of an event on `channel`."""
    if channel == "input":
        return "input.requested"
    if channel.startswith("custom:"):
        return "custom"
    return channel


# -- filters -----------------------------------------------------------------------------


class FilterError(ValueError):
    """A subscription that cannot be served; the message names the field."""


@attrs.frozen(slots=True)
class Filter:
    """Which events a subscription wants: channels, namespace prefixes, depth below them.

    A namespace prefix segment without `:` also matches a segment `name:<task id>`,
    so `["agent"]` follows every call of the subgraph node `agent`.
    """

    channels: frozenset[str]
    namespaces: tuple[tuple[str, ...], ...] | None = None
    depth: int | None = None

    def matches(self, name: Name) -> bool:
        channel = name.channel
        if channel not in self.channels and not (
            channel.startswith("custom:") and "custom" in self.channels
        ):
            return False
        if self.namespaces is None:
            return self.depth is None or len(name.namespace) <= self.depth
        for prefix in self.namespaces:
            if _starts_with(name.namespace, prefix) and (
                self.depth is None or len(name.namespace) - len(prefix) <= self.depth
            ):
                return True
        return False


def _starts_with(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    if len(prefix) > len(namespace):
        return False
    for want, have in zip(prefix, namespace, strict=False):
        if want != have and (":" in want or have.partition(":")[0] != want):
            return False
    return True


def parse_filter(params: Any) -> tuple[Filter, int | None]:
    """A subscription's `Filter` and its `since` (replay after that seq) from its params."""
    if not isinstance(params, Mapping):
        raise FilterError('a subscription must be an object with "channels"')
    channels = params.get("channels")
    if not isinstance(channels, list) or not channels:
        raise FilterError('"channels" must be a non-empty list of channel names')
    for channel in channels:
        if not isinstance(channel, str) or not (
            channel in CHANNELS or (channel.startswith("custom:") and len(channel) > 7)
        ):
            known = ", ".join(sorted(CHANNELS))
            raise FilterError(
                f'"channels": {channel!r} is not a channel (one of {known}, or custom:<name>)'
            )
    namespaces = params.get("namespaces")
    if namespaces is not None:
        if not isinstance(namespaces, list) or not all(
            isinstance(ns, list) and all(isinstance(s, str) for s in ns) for ns in namespaces
        ):
            raise FilterError('"namespaces" must be a list of namespaces (lists of strings)')
        namespaces = tuple(tuple(ns) for ns in namespaces)
    depth = params.get("depth")
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 0):
        raise FilterError(f'"depth" must be a non-negative integer, got {depth!r}')
    since = params.get("since")
    if since is not None and (not isinstance(since, int) or isinstance(since, bool) or since < 0):
        raise FilterError(f'"since" must be a non-negative integer (an event seq), got {since!r}')
    return Filter(frozenset(channels), namespaces, depth), since


# -- events ------------------------------------------------------------------------------


def event_data(channel: str, namespace: list[str], data: Any) -> bytes:
    """The stored JSON of one event (what follows `type`, `event_id` and `seq`)."""
    params = {"namespace": namespace, "timestamp": int(time.time() * 1000), "data": data}
    return serde.dumps({"method": wire_method(channel), "params": params})


def frame(event_id: str, data: bytes) -> bytes:
    """The whole event as JSON: the stored data with its `type`, `event_id` and `seq`."""
    seq = event_id.encode()
    return b'{"type":"event","event_id":"' + seq + b'","seq":' + seq + b"," + data[1:]


def sse(channel: str, event_id: str, data: bytes) -> bytes:
    """One event as a server-sent event (the method as its name, the seq as its id)."""
    seq = event_id.encode()
    return (
        b"event: "
        + wire_method(channel).encode()
        + b"\r\ndata: "
        + frame(event_id, data)
        + b"\r\nid: "
        + seq
        + b"\r\n\r\n"
    )


class WireConverter:
    """Turns one run's v3 protocol events (foldgraph's main log) into wire events.

    Most pass through with their namespace. The exceptions: a lifecycle item carries
    the namespace it is about; a message arrives as `(content-block event, metadata)`
    (a whole message a node returned is replayed as its content-block events, and a
    tool's own message events are left out, as `run.messages` leaves them out); a
    named custom stream `custom:<name>` becomes `custom` with `{"name", "payload"}`.
    Stream modes that are not protocol channels (`debug`) are not sent.
    """

    def __init__(self) -> None:
        self._tool_runs: set[str] = set()

    def convert(self, event: Mapping[str, Any]) -> Iterator[tuple[str, list[str], Any]]:
        """`(channel, namespace, data)` for each wire event `event` makes."""
        method = event["method"]
        params = event["params"]
        namespace = list(params.get("namespace") or ())
        data = params.get("data")
        if method in ("values", "updates", "checkpoints", "tasks", "tools"):
            yield method, namespace, data
        elif method == "messages":
            yield from self._messages(namespace, data)
        elif method == "lifecycle":
            if isinstance(data, Mapping) and data.get("namespace") is not None:
                namespace = list(data["namespace"])
            yield "lifecycle", namespace, data
        elif method == "custom":
            yield "custom", namespace, {"payload": data}
        elif method.startswith("custom:"):
            name = method[len("custom:") :]
            yield method, namespace, {"name": name, "payload": data}

    def _messages(self, namespace: list[str], data: Any) -> Iterator[tuple[str, list[str], Any]]:
        from langchain_core.messages import AIMessageChunk, BaseMessage, ToolMessage

        payload, metadata = data
        metadata = metadata or {}
        node = metadata.get("langgraph_node")
        if isinstance(payload, Mapping) and "event" in payload:
            run_id = str(metadata.get("run_id", ""))
            kind = payload["event"]
            if kind == "message-start" and payload.get("role") == "tool":
                self._tool_runs.add(run_id)
                return
            if run_id in self._tool_runs:
                if kind == "message-finish":
                    self._tool_runs.discard(run_id)
                return
            yield "messages", namespace, _block_event(payload, node)
        elif isinstance(payload, BaseMessage) and not isinstance(
            payload, AIMessageChunk | ToolMessage
        ):
            from langchain_core.language_models._compat_bridge import message_to_events

            for part in message_to_events(payload, message_id=payload.id):
                yield "messages", namespace, _block_event(part, node)


def _block_event(event: Mapping[str, Any], node: Any) -> dict[str, Any]:
    """A content-block event as sent: `message-start` names its message and node."""
    out = dict(event)
    if out.get("event") == "message-start":
        if out.get("id") is None and out.get("message_id") is not None:
            out["id"] = str(out["message_id"])
        if node is not None and not out.get("metadata"):
            out["metadata"] = {"langgraph_node": node}
    return out
