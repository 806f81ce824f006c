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

__all__ = ["achain_run", "chain_run", "has_callbacks"]


def has_callbacks(config: dict[str, Any]) -> bool:
    return bool(config.get("callbacks"))


def chain_run(config: dict[str, Any], inputs: Any, name: str) -> tuple[Any, dict[str, Any]]:
    """Start a chain run; return its manager and the config its children should use."""
    manager = get_callback_manager_for_config(config)  # type: ignore[arg-type]
    run = manager.on_chain_start(None, inputs, name=name, run_id=config.get("run_id"))
    child = {k: v for k, v in config.items() if k != "run_id"}
    child["callbacks"] = run.get_child()
    return run, child


async def achain_run(config: dict[str, Any], inputs: Any, name: str) -> tuple[Any, dict[str, Any]]:
    """Async twin of `chain_run`."""
    manager = get_async_callback_manager_for_config(config)  # type: ignore[arg-type]
    run = await manager.on_chain_start(None, inputs, name=name, run_id=config.get("run_id"))
    child = {k: v for k, v in config.items() if k != "run_id"}
    child["callbacks"] = run.get_child()
    return run, child
