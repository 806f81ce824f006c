"""Context variables that let code inside a node reach its run (config, runtime, writer)."""

from __future__ import annotations

import contextvars
from typing import Any

from foldgraph.runtime import Runtime

__all__ = ["RUN_CONFIG", "RUN_RUNTIME", "current_config", "current_runtime"]

RUN_CONFIG: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "foldgraph_config", default=None
)
RUN_RUNTIME: contextvars.ContextVar[Runtime[Any] | None] = contextvars.ContextVar(
    "foldgraph_runtime", default=None
)


def current_config() -> dict[str, Any]:
    config = RUN_CONFIG.get()
    if config is None:
        raise RuntimeError("Called get_config outside of a runnable context")
    return config


def current_runtime() -> Runtime[Any]:
    runtime = RUN_RUNTIME.get()
    if runtime is None:
        raise RuntimeError("Called get_runtime outside of a runnable context")
    return runtime
