"""Reach the current run from inside a node: its config, store and custom stream writer."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from foldgraph._context import TASK_SCOPE, current_config
from foldgraph._kernel.names import CONFIG_KEY_RUNTIME  # noqa: F401
from foldgraph.constants import CONF  # noqa: F401
from foldgraph.store.base import BaseStore  # noqa: F401

__all__ = ["get_config", "get_store", "get_stream_writer"]


def get_config() -> RunnableConfig:
    """The config of the node currently running; raises `RuntimeError` outside a run."""
    return current_config()  # type: ignore[return-value]


def get_store() -> Any:
    """The store given to `compile(store=...)`, or None."""
    scope = TASK_SCOPE.get()
    return scope.runtime.store if scope is not None else None


def get_stream_writer() -> Any:
    """The writer for the `custom` stream mode (a no-op when that mode is off)."""
    scope = TASK_SCOPE.get()
    if scope is None:
        return lambda _chunk: None
    return scope.runtime.stream_writer
