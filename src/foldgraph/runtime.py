"""`Runtime`: what a node may ask for besides its state (context, store, stream writer)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
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


def server_info_from(configurable: Mapping[str, Any]) -> ServerInfo | None:
    """The `ServerInfo` a server's run config describes (`assistant_id`, `graph_id`, and
    the authenticated user under `langgraph_auth_user`), as LangGraph reads it; None for a
    local run."""
    assistant_id = configurable.get("assistant_id")
    graph_id = configurable.get("graph_id")
    found = configurable.get("langgraph_auth_user")
    # A server's proxy user answers `permissions` through __getattr__, which the
    # protocol's isinstance check does not see: having an identity is enough.
    user = found if found is not None and hasattr(found, "identity") else None
    if assistant_id is None and graph_id is None and user is None:
        return None
    return ServerInfo(
        assistant_id=str(assistant_id) if assistant_id else "",
        graph_id=str(graph_id) if graph_id else "",
        user=user,
    )


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
    control: RunControl | None = None
    """The run's `RunControl` (cooperative drain), as in LangGraph."""

    @property
    def drain_requested(self) -> bool:
        """True once someone asked this run to stop at its next superstep boundary."""
        return self.control.drain_requested if self.control is not None else False

    @property
    def drain_reason(self) -> str | None:
        return self.control.drain_reason if self.control is not None else None

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
            control=other.control or self.control,
        )

    def patch_execution_info(self, **overrides: Any) -> Runtime[ContextT]:
        """A copy whose `execution_info` has the given fields replaced."""
        if self.execution_info is None:
            raise RuntimeError("Cannot patch execution_info before it has been set")
        return dataclasses.replace(self, execution_info=self.execution_info.patch(**overrides))

    def override(self, **fields: Any) -> Self:
        return dataclasses.replace(self, **fields)


DEFAULT_RUNTIME: Runtime[Any] = Runtime()


def get_runtime(context_schema: Any = None) -> Runtime[Any]:
    """The runtime of the node currently running (raises outside a run)."""
    return current_runtime()


# -- graceful stops ----------------------------------------------------------------------

__all__ += ["RunControl"]


class RunControl:
    """Ask a running graph to stop cleanly at its next superstep boundary (LangGraph's API).

    Pass it as `graph.invoke(inputs, config, control=rc)` (or `stream`,
    `ainvoke`, `astream`). `rc.request_drain(reason)` may be called from any
    thread or from a signal handler (it is one attribute write): the step that
    is running finishes and is saved, then the run raises `GraphDrained`;
    `graph.invoke(None, config)` later continues the thread from there. Use a
    fresh control per run: a drained one stays drained.

    >>> import signal
    >>> rc = RunControl()
    >>> restore = rc.install_signal_handler(signal.SIGTERM)  # SIGTERM -> request_drain
    >>> restore()
    """

    __slots__ = ("_drain_reason",)

    def __init__(self) -> None:
        self._drain_reason: str | None = None

    def request_drain(self, reason: str = "shutdown") -> None:
        self._drain_reason = reason

    @property
    def drain_requested(self) -> bool:
        return self._drain_reason is not None

    @property
    def drain_reason(self) -> str | None:
        return self._drain_reason

    def install_signal_handler(self, *signals: Any) -> Callable[[], None]:
        """Make `signals` (default SIGTERM) request a drain; returns a function restoring them."""
        import signal as _signal

        chosen = signals or (_signal.SIGTERM,)
        previous = {}
        for sig in chosen:
            name = _signal.Signals(sig).name

            def handler(signum: int, frame: Any, name: str = name) -> None:
                self.request_drain(name)

            previous[sig] = _signal.signal(sig, handler)

        def restore() -> None:
            for sig, old in previous.items():
                _signal.signal(sig, old)

        return restore
