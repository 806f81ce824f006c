"""`Runtime`: what a node may ask for besides its state (context, store, stream writer)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from foldgraph._context import current_runtime

__all__ = [
    "DEFAULT_RUNTIME",
    "BaseUser",
    "ExecutionInfo",
    "Runtime",
    "ServerInfo",
    "get_runtime",
]

ContextT = TypeVar("ContextT")


def _no_op(*_: Any, **__: Any) -> None:
    return None


@runtime_checkable
class BaseUser(Protocol):
    """An authenticated user as a LangGraph server describes it (attribute or key access)."""

    @property
    def is_authenticated(self) -> bool: ...

    @property
    def display_name(self) -> str: ...

    @property
    def identity(self) -> str: ...

    @property
    def permissions(self) -> Sequence[str]: ...

    def __getitem__(self, key: str) -> Any: ...

    def __contains__(self, key: str) -> bool: ...

    def __iter__(self) -> Any: ...


@dataclasses.dataclass(frozen=True, slots=True)
class ServerInfo:
    """Which assistant and graph a server run belongs to, and who asked.

    Only a LangGraph server fills it in; a local run has `runtime.server_info`
    None.
    """

    assistant_id: str
    graph_id: str
    user: BaseUser | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ExecutionInfo:
    """Where a node runs: checkpoint, namespace, task, thread and attempt."""

    checkpoint_id: str
    checkpoint_ns: str
    task_id: str
    thread_id: str | None = None
    run_id: str | None = None
    node_attempt: int = 1
    node_first_attempt_time: float | None = None

    def patch(self, **fields: Any) -> ExecutionInfo:
        return dataclasses.replace(self, **fields)


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Runtime(Generic[ContextT]):
    """Run-scoped, immutable dependencies injected into nodes through a `runtime` parameter.

    >>> def node(state, runtime: Runtime[Context]):
    ...     return {"user": runtime.context.user_id}
    """

    context: ContextT = None  # type: ignore[assignment]
    store: Any = None
    stream_writer: Callable[[Any], None] = _no_op
    heartbeat: Callable[[], None] = _no_op
    previous: Any = None
    execution_info: ExecutionInfo | None = None
    server_info: ServerInfo | None = None

    def merge(self, other: Runtime[Any]) -> Runtime[Any]:
        """Fields set in `other` win."""
        return Runtime(
            context=other.context if other.context is not None else self.context,
            store=other.store if other.store is not None else self.store,
            stream_writer=(
                other.stream_writer if other.stream_writer is not _no_op else self.stream_writer
            ),
            heartbeat=other.heartbeat if other.heartbeat is not _no_op else self.heartbeat,
            previous=other.previous if other.previous is not None else self.previous,
            execution_info=other.execution_info or self.execution_info,
            server_info=other.server_info or self.server_info,
        )

    def override(self, **fields: Any) -> Self:
        return dataclasses.replace(self, **fields)


DEFAULT_RUNTIME: Runtime[Any] = Runtime()


def get_runtime(context_schema: Any = None) -> Runtime[Any]:
    """The runtime of the node currently running (raises outside a run)."""
    return current_runtime()
