"""Graph lifecycle callbacks: be told when a run pauses for interrupts and when it
resumes from a checkpoint.

Pass a `GraphCallbackHandler` in `config["callbacks"]` as any LangChain
handler; only handlers of this class receive these events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal, TypeAlias
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler, BaseCallbackManager
from langchain_core.callbacks.manager import ahandle_event, handle_event
from langchain_core.runnables import RunnableConfig

from foldgraph.types import Interrupt

__all__ = (
    "GraphCallbackHandler",
    "GraphInterruptEvent",
    "GraphLifecycleEvent",
    "GraphLifecycleStatus",
    "GraphResumeEvent",
    "get_async_graph_callback_manager_for_config",
    "get_sync_graph_callback_manager_for_config",
)

GraphLifecycleStatus: TypeAlias = Literal[
    "input", "pending", "done", "interrupt_before", "interrupt_after", "out_of_steps"
]
"""Where the run loop was when the event happened."""


@dataclasses.dataclass(frozen=True)
class GraphInterruptEvent:
    """The run paused: these interrupts wait for an answer."""

    run_id: UUID | None
    status: GraphLifecycleStatus
    checkpoint_id: str
    checkpoint_ns: tuple[str, ...]
    interrupts: tuple[Interrupt, ...]


@dataclasses.dataclass(frozen=True)
class GraphResumeEvent:
    """The run resumed from a saved checkpoint."""

    run_id: UUID | None
    status: GraphLifecycleStatus
    checkpoint_id: str
    checkpoint_ns: tuple[str, ...]


GraphLifecycleEvent: TypeAlias = GraphInterruptEvent | GraphResumeEvent


class GraphCallbackHandler(BaseCallbackHandler):
    """Subclass and override `on_interrupt` / `on_resume` to observe a graph's pauses."""

    def on_interrupt(self, event: GraphInterruptEvent) -> Any:
        """Called when the run pauses for one or more interrupts."""

    def on_resume(self, event: GraphResumeEvent) -> Any:
        """Called when the run resumes from a saved checkpoint."""


def _graph_handlers(callbacks: Any) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """The graph handlers in `callbacks` (a handler, a list or a manager), and manager fields."""
    if callbacks is None:
        return [], [], {}
    if isinstance(callbacks, BaseCallbackManager):
        keep = [h for h in callbacks.handlers if isinstance(h, GraphCallbackHandler)]
        inherit = [h for h in callbacks.inheritable_handlers if isinstance(h, GraphCallbackHandler)]
        fields = {
            "parent_run_id": callbacks.parent_run_id,
            "tags": list(callbacks.tags),
            "inheritable_tags": list(callbacks.inheritable_tags),
            "metadata": dict(callbacks.metadata),
            "inheritable_metadata": dict(callbacks.inheritable_metadata),
        }
        return keep, inherit, fields
    if isinstance(callbacks, GraphCallbackHandler):
        return [callbacks], [callbacks], {}
    if isinstance(callbacks, str | bytes) or not isinstance(callbacks, Sequence):
        raise TypeError("callbacks must be a handler, sequence, or manager")
    handlers = [h for h in callbacks if isinstance(h, GraphCallbackHandler)]
    return handlers, list(handlers), {}


class _GraphCallbackManager(BaseCallbackManager):
    """Sends lifecycle events to the graph handlers of a config, in order. A handler
    that raises is logged and skipped unless it sets `raise_error` (LangChain's rule)."""

    def __init__(
        self,
        handlers: Sequence[GraphCallbackHandler] | None = None,
        inheritable_handlers: Sequence[GraphCallbackHandler] | None = None,
        parent_run_id: UUID | None = None,
        *,
        tags: list[str] | None = None,
        inheritable_tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        inheritable_metadata: dict[str, Any] | None = None,
        run_id: UUID | None = None,
    ) -> None:
        super().__init__(
            handlers=list(handlers or ()),
            inheritable_handlers=list(inheritable_handlers or ()),
            parent_run_id=parent_run_id,
            tags=tags,
            inheritable_tags=inheritable_tags,
            metadata=metadata,
            inheritable_metadata=inheritable_metadata,
        )
        self.run_id = run_id

    @classmethod
    def configure(cls, callbacks: Any = None, *, run_id: UUID | None = None) -> Any:
        handlers, inheritable, fields = _graph_handlers(callbacks)
        return cls(handlers, inheritable, run_id=run_id, **fields)

    def on_interrupt(self, event: GraphInterruptEvent) -> None:
        handle_event(self.handlers, "on_interrupt", None, event)

    def on_resume(self, event: GraphResumeEvent) -> None:
        handle_event(self.handlers, "on_resume", None, event)


class _AsyncGraphCallbackManager(_GraphCallbackManager):
    """Async twin: awaits handlers whose methods are coroutines."""

    async def on_interrupt(self, event: GraphInterruptEvent) -> None:  # type: ignore[override]
        await ahandle_event(self.handlers, "on_interrupt", None, event)

    async def on_resume(self, event: GraphResumeEvent) -> None:  # type: ignore[override]
        await ahandle_event(self.handlers, "on_resume", None, event)


def get_sync_graph_callback_manager_for_config(
    config: RunnableConfig, *, run_id: UUID | None = None
) -> _GraphCallbackManager:
    """A manager for the `GraphCallbackHandler`s in `config["callbacks"]`, bound to `run_id`."""
    return _GraphCallbackManager.configure(config.get("callbacks"), run_id=run_id)


def get_async_graph_callback_manager_for_config(
    config: RunnableConfig, *, run_id: UUID | None = None
) -> _AsyncGraphCallbackManager:
    """Async twin of `get_sync_graph_callback_manager_for_config`."""
    return _AsyncGraphCallbackManager.configure(config.get("callbacks"), run_id=run_id)
