"""The thread event protocol (SDK 0.4's `client.threads.stream()`, `RemoteGraph.stream_events`).

A client sends commands to `POST /threads/{id}/commands` (or over a WebSocket) and
reads the thread's events from `/threads/{id}/stream/events` (server-sent events or
WebSocket frames), filtered by channel and namespace. The events come from
foldgraph's own v3 run streams (`graph.astream_events(..., version="v3")`).

- `wire`: event names, filters, the v3 event -> wire event conversion, framing (pure);
- `log`: a thread's event log on the run queue (numbering, replay, following);
- `execution`: a v3 run executed by the worker, published to the log;
- `commands`: `run.start`, `input.respond`, `state.*`, `agent.getTree`, `subscription.*`.
"""
