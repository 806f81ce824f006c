"""A run started through the protocol, executed by the worker as a v3 run stream.

The graph runs as `astream_events(..., version="v3")` (its built-in transformers and
the ones it was compiled with), and every event of its main log goes to the thread's
event log as a wire event, between the root `running` and the event that ends the
run: `completed`, `interrupted` (after one `input.requested` per interrupt) or
`failed`.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from foldgraph.server import serde
from foldgraph.server.protocol.log import ThreadLog
from foldgraph.server.protocol.wire import WireConverter
from foldgraph.server.queue.base import RunQueue

# v3 run streams warn that they are experimental on every run; the server says it once,
# in its documentation, rather than in every worker's log.
warnings.filterwarnings("ignore", message="The v3 streaming protocol on Pregel is experimental")

#: What a v3 run stream sets itself (`stream_mode`, `subgraphs`) is not passed on.
_OWNED = ("stream_mode", "subgraphs")


async def protocol_run(
    queue: RunQueue,
    run: Mapping[str, Any],
    graph: Any,
    given: Any,
    config: Mapping[str, Any],
    options: Mapping[str, Any],
    ending: list[Callable[[], Awaitable[None]]],
) -> AsyncIterator[tuple[tuple[str, ...], str, Any]]:
    """Run `graph` on `given` as a v3 run, logging its events to the thread's log.

    For the worker it is a stream of one chunk, `((), "values", last root values)`: the
    run's output, which `wait` and `join` answer. A failure is raised again, so the
    worker settles the run as for any other.

    The events that end the run (`input.requested`, then `completed`, `interrupted` or
    `failed`) go to `ending`, for the worker to log once it has stored the run's status:
    a client that asks for the run as soon as its stream ends finds it settled. A cancel
    is logged at once (the worker's cancel path stores the status itself).
    """
    log = ThreadLog(queue, run["thread_id"])
    graph_name = config.get("configurable", {}).get("graph_id") or getattr(graph, "name", "")
    kwargs = {k: v for k, v in options.items() if k not in _OWNED}
    await log.begin_run(run["run_id"], graph_name)
    converter = WireConverter()
    output: Any = None
    interrupts: tuple[Any, ...] = ()
    try:
        async with await graph.astream_events(given, config, version="v3", **kwargs) as stream:
            async for event in stream:
                params = event["params"]
                if event["method"] == "values" and not params.get("namespace"):
                    output = params.get("data")
                    interrupts = tuple(params.get("interrupts") or ())
                for channel, namespace, data in converter.convert(event):
                    await log.publish(channel, namespace, data)
    except asyncio.CancelledError:
        await asyncio.shield(log.end_run("failed", graph_name, "the run was cancelled"))
        raise
    except Exception as err:
        message = str(err) or type(err).__name__
        ending.append(lambda: log.end_run("failed", graph_name, message))
        raise

    async def end() -> None:
        for interrupt in interrupts:
            value = serde.to_plain(interrupt.value)
            data = {"interrupt_id": interrupt.id, "payload": value, "value": value}
            await log.publish("input", [], data)
        await log.end_run("interrupted" if interrupts else "completed", graph_name)

    ending.append(end)
    yield (), "values", output
