"""From a graph's stream chunks to the API's server-sent events, and their framing.

A run streams `(namespace, mode, chunk)` from `astream(..., subgraphs=True)`;
each becomes zero or more SSE events named as LangGraph's server names them:
the mode, then `|node:task_id` per subgraph level when `stream_subgraphs` is on.
`messages-tuple` is the graph's `messages` mode as `[message, metadata]`; the
legacy `messages` mode re-assembles chunks into `messages/metadata`,
`messages/partial` and `messages/complete` events.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from foldgraph.server import serde

STREAM_MODES = (
    "values",
    "updates",
    "debug",
    "messages",
    "messages-tuple",
    "custom",
    "checkpoints",
    "tasks",
    "events",
)


def graph_modes(modes: Iterable[str]) -> list[str]:
    """The graph stream modes that serve the requested API modes (always `values`)."""
    out = ["values"]
    for mode in modes:
        mode = "messages" if mode in ("messages-tuple", "messages") else mode
        if mode != "events" and mode not in out:
            out.append(mode)
    return out


class EventShaper:
    """Turns one run's graph chunks into `(event, data)` pairs."""

    def __init__(self, modes: Sequence[str] | str, subgraphs: bool) -> None:
        self.modes = [modes] if isinstance(modes, str) else list(modes)
        self.subgraphs = subgraphs
        self._requested = set(self.modes)
        self._tuples = "messages-tuple" in self._requested
        self._legacy = "messages" in self._requested
        self._partial: dict[str, Any] = {}

    def shape(
        self, ns: tuple[str, ...], mode: str, chunk: Any, config: Mapping[str, Any]
    ) -> Iterator[tuple[str, bytes]]:
        if ns and not self.subgraphs and mode != "messages":
            return
        suffix = "|" + "|".join(ns) if ns and self.subgraphs else ""
        if mode == "messages":
            yield from self._messages(chunk, suffix)
            return
        if mode not in self._requested:
            return
        if mode == "debug" and isinstance(chunk, dict) and chunk.get("type") == "checkpoint":
            payload = chunk.get("payload") or {}
            chunk = {
                **chunk,
                "payload": {
                    **payload,
                    "checkpoint": serde.checkpoint_json(payload.get("config")),
                    "parent_checkpoint": serde.checkpoint_json(payload.get("parent_config")),
                },
            }
        yield mode + suffix, serde.dumps(chunk)

    def _messages(self, chunk: Any, suffix: str) -> Iterator[tuple[str, bytes]]:
        message, metadata = chunk
        if self._tuples:
            yield "messages" + suffix, serde.dumps((message, metadata))
        if not self._legacy:
            return
        msg_id = getattr(message, "id", None) or ""
        is_chunk = type(message).__name__.endswith("Chunk")
        if msg_id not in self._partial:
            yield "messages/metadata" + suffix, serde.dumps({msg_id: {"metadata": metadata}})
        if is_chunk:
            previous = self._partial.get(msg_id)
            merged = message if previous is None else previous + message
            self._partial[msg_id] = merged
            yield "messages/partial" + suffix, serde.dumps([merged])
        else:
            self._partial[msg_id] = message
            yield "messages/complete" + suffix, serde.dumps([message])


def sse_frame(event: str, data: bytes, event_id: str | None = None) -> bytes:
    """One server-sent event, framed as LangGraph's server frames it (CRLF line ends)."""
    head = b"event: " + event.encode() + b"\r\ndata: " + data + b"\r\n"
    if event_id is not None:
        head += b"id: " + event_id.encode() + b"\r\n"
    return head + b"\r\n"


HEARTBEAT = b": heartbeat\r\n\r\n"
