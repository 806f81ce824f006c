"""LangChain callbacks for a run and its nodes: tracing, `astream_events`, token streaming.

Only used when the run's config carries callbacks, so the common path pays
nothing. The graph opens a chain run named after itself; each task opens a
child chain run named after its node, whose own children (models, tools)
inherit the callbacks through the task's config.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables.config import (
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
)

__all__ = [
    "achain_run",
    "achild_run",
    "astream_chunk",
    "chain_run",
    "child_run",
    "has_callbacks",
    "stream_chunk",
]


def has_callbacks(config: dict[str, Any]) -> bool:
    return bool(config.get("callbacks"))


def _tagged(manager: Any, tag: str | None) -> Any:
    if tag is None:
        return manager
    manager = manager.copy()
    manager.add_tags([tag], inherit=False)
    return manager


def chain_run(
    config: dict[str, Any],
    inputs: Any,
    name: str,
    *,
    tag: str | None = None,
    child_tag: str | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Start a chain run; return its manager and the config its children should use.

    `tag` marks this run only (LangGraph's `graph:step:N` on a node's run);
    `child_tag` marks the runs of its direct children (`seq:step:1` on what a node
    calls), neither inherited further down.
    """
    manager = _tagged(get_callback_manager_for_config(config), tag)  # type: ignore[arg-type]
    run = manager.on_chain_start(None, inputs, name=name, run_id=config.get("run_id"))
    child = {k: v for k, v in config.items() if k != "run_id"}
    child["callbacks"] = run.get_child(child_tag)
    return run, child


async def achain_run(
    config: dict[str, Any],
    inputs: Any,
    name: str,
    *,
    tag: str | None = None,
    child_tag: str | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Async twin of `chain_run`."""
    manager = _tagged(get_async_callback_manager_for_config(config), tag)  # type: ignore[arg-type]
    run = await manager.on_chain_start(None, inputs, name=name, run_id=config.get("run_id"))
    child = {k: v for k, v in config.items() if k != "run_id"}
    child["callbacks"] = run.get_child(child_tag)
    return run, child


def child_run(parent: Any, inputs: Any, name: str, tag: str, output: Any) -> None:
    """A finished child run of `parent` (a conditional edge's call), tagged `tag`."""
    run = parent.get_child(tag).on_chain_start(None, inputs, name=name)
    run.on_chain_end(output)


async def achild_run(parent: Any, inputs: Any, name: str, tag: str, output: Any) -> None:
    """Async twin of `child_run`."""
    run = await parent.get_child(tag).on_chain_start(None, inputs, name=name)
    await run.on_chain_end(output)


def stream_chunk(run: Any, chunk: Any) -> None:
    """Report `chunk` as the run's streamed output (`on_chain_stream` in `astream_events`)."""
    for handler in run.handlers:
        tap = getattr(handler, "tap_output_iter", None)
        if tap is not None:
            for _ in tap(run.run_id, iter([chunk])):
                pass


async def astream_chunk(run: Any, chunk: Any) -> None:
    """Async twin of `stream_chunk`."""

    async def one() -> Any:
        yield chunk

    for handler in run.handlers:
        tap = getattr(handler, "tap_output_aiter", None)
        if tap is not None:
            async for _ in tap(run.run_id, one()):
                pass
