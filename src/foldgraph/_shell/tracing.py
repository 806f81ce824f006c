"""LangChain callbacks for a run and its nodes: tracing, `astream_events`, token streaming.

Only used when the run's config carries callbacks, so the common path pays
nothing. The graph opens a chain run named after itself; each task opens a
child chain run named after its node, whose own children (models, tools)
inherit the callbacks through the task's config.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from langchain_core.runnables.config import (
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
)
from langchain_core.tracers._streaming import _StreamingCallbackHandler

__all__ = [
    "achain_run",
    "achild_run",
    "aend_chain_run",
    "astream_chunk",
    "chain_run",
    "child_run",
    "end_chain_run",
    "has_callbacks",
    "stream_chunk",
]

logger = logging.getLogger("foldgraph.tracing")


def has_callbacks(config: dict[str, Any]) -> bool:
    return bool(config.get("callbacks"))


def chain_run(
    config: dict[str, Any],
    inputs: Any,
    name: str,
    *,
    tag: str | None = None,
    policy: Any = None,
    child_tag: str | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Start a chain run; return its manager and the config its children should use.

    `tag` is a tag of this run only (a node's `graph:step:N`); a `TracePolicy`
    changes what tracers record of the inputs, other handlers see them as they are.
    """
    manager = get_callback_manager_for_config(config)  # type: ignore[arg-type]
    if tag is None and "ls_integration" not in manager.metadata:
        # A graph's own run: its runs and all below carry LangGraph's integration key.
        manager.add_metadata({"ls_integration": "langgraph"})
    if tag is not None:
        manager = manager.copy()
        manager.add_tags([tag], inherit=False)
    run_id = config.get("run_id")
    recorded = _processed(inputs, policy, "process_inputs")
    if recorded is inputs:
        run = manager.on_chain_start(None, inputs, name=name, run_id=run_id)
    else:
        real, tracers = _split(manager)
        run = real.on_chain_start(None, inputs, name=name, run_id=run_id)
        tracers.on_chain_start(None, recorded, name=name, run_id=run.run_id)
        run.handlers = manager.handlers
    child = {k: v for k, v in config.items() if k != "run_id"}
    # `child_tag` marks the direct children only (a node's `seq:step:1`), as LangGraph.
    child["callbacks"] = run.get_child(child_tag)
    return run, child


async def achain_run(
    config: dict[str, Any],
    inputs: Any,
    name: str,
    *,
    tag: str | None = None,
    policy: Any = None,
    child_tag: str | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Async twin of `chain_run`."""
    manager = get_async_callback_manager_for_config(config)  # type: ignore[arg-type]
    if tag is None and "ls_integration" not in manager.metadata:
        # A graph's own run: its runs and all below carry LangGraph's integration key.
        manager.add_metadata({"ls_integration": "langgraph"})
    if tag is not None:
        manager = manager.copy()
        manager.add_tags([tag], inherit=False)
    run_id = config.get("run_id")
    recorded = _processed(inputs, policy, "process_inputs")
    if recorded is inputs:
        run = await manager.on_chain_start(None, inputs, name=name, run_id=run_id)
    else:
        real, tracers = _split(manager)
        run = await real.on_chain_start(None, inputs, name=name, run_id=run_id)
        await tracers.on_chain_start(None, recorded, name=name, run_id=run.run_id)
        run.handlers = manager.handlers
    child = {k: v for k, v in config.items() if k != "run_id"}
    # `child_tag` marks the direct children only (a node's `seq:step:1`), as LangGraph.
    child["callbacks"] = run.get_child(child_tag)
    return run, child


def end_chain_run(run: Any, output: Any, policy: Any = None) -> None:
    """End a node's chain run; tracers record the output as its `TracePolicy` says."""
    recorded = _processed(output, policy, "process_outputs")
    if recorded is output:
        run.on_chain_end(output)
        return
    real, tracers = _split(run)
    tracers.on_chain_end(recorded)
    real.on_chain_end(output)


async def aend_chain_run(run: Any, output: Any, policy: Any = None) -> None:
    recorded = _processed(output, policy, "process_outputs")
    if recorded is output:
        await run.on_chain_end(output)
        return
    real, tracers = _split(run)
    await tracers.on_chain_end(recorded)
    await real.on_chain_end(output)


def _processed(value: Any, policy: Any, which: str) -> Any:
    """What a tracer records of `value`: the policy's processor applied (never failing)."""
    process = getattr(policy, which, None) if policy is not None else None
    if process is None:
        return value
    try:
        return process(value)
    except Exception:
        logger.exception("trace input/output processor raised; recording untransformed payload")
        return value


def _split(manager: Any) -> tuple[Any, Any]:
    """The manager's handlers split into tracers (they get the processed payload) and others."""
    from langchain_core.tracers.base import BaseTracer
    from langchain_core.tracers.log_stream import LogStreamCallbackHandler

    real, tracers = copy.copy(manager), copy.copy(manager)
    tracers.handlers = [
        h
        for h in manager.handlers
        if isinstance(h, BaseTracer) and not isinstance(h, LogStreamCallbackHandler)
    ]
    real.handlers = [h for h in manager.handlers if h not in tracers.handlers]
    return real, tracers


def child_run(parent: Any, inputs: Any, name: str, tag: str, output: Any) -> None:
    """A finished child run of `parent` (a conditional edge's call), tagged `tag`."""
    run = parent.get_child(tag).on_chain_start(None, inputs, name=name)
    run.on_chain_end(output)


async def achild_run(parent: Any, inputs: Any, name: str, tag: str, output: Any) -> None:
    """Async twin of `child_run`."""
    run = await parent.get_child(tag).on_chain_start(None, inputs, name=name)
    await run.on_chain_end(output)


def _streaming(handler: Any) -> bool:
    """Whether `handler` takes a run's streamed output: as LangGraph decides it, only a
    class derived from langchain-core's streaming handler (`astream_events`' own, the
    messages and tools handlers), not any handler that happens to define the taps."""
    return _StreamingCallbackHandler in type(handler).__mro__


def stream_chunk(run: Any, chunk: Any) -> None:
    """Report `chunk` as the run's streamed output (`on_chain_stream` in `astream_events`)."""
    for handler in run.handlers:
        if _streaming(handler):
            for _ in handler.tap_output_iter(run.run_id, iter([chunk])):
                pass


async def astream_chunk(run: Any, chunk: Any) -> None:
    """Async twin of `stream_chunk`."""

    async def one() -> Any:
        yield chunk

    for handler in run.handlers:
        if _streaming(handler):
            async for _ in handler.tap_output_aiter(run.run_id, one()):
                pass
