"""Exceptions raised by foldgraph, with LangGraph's names and messages."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeVar

from foldgraph._kernel.errors import (
    EmptyChannelError,
    ErrorCode,
    ImmutableStateError,
    InvalidUpdateError,
    create_error_message,
)

__all__ = [
    "EmptyChannelError",
    "EmptyInputError",
    "ErrorCode",
    "GraphBubbleUp",
    "GraphInterrupt",
    "GraphRecursionError",
    "ImmutableStateError",
    "InvalidUpdateError",
    "NodeCancelledError",
    "NodeError",
    "NodeInterrupt",
    "NodeTimeoutError",
    "ParentCommand",
    "TaskNotFound",
    "UnknownInterruptError",
    "create_error_message",
    "is_invalid_resume",
]

# Durable storage and graceful stops (kept in a block of their own to merge cleanly).
__all__ += [
    "CheckpointConflictError",
    "CorruptCheckpointError",
    "GraphDrained",
    "SerializationError",
    "UnregisteredTypeError",
]


class GraphRecursionError(RecursionError):
    """The run took more supersteps than `recursion_limit` allows."""


class EmptyInputError(Exception):
    """The graph was invoked with an empty input."""


class TaskNotFound(Exception):
    """An executor was asked for a task that does not exist."""


ResponseT = TypeVar("ResponseT")


@dataclasses.dataclass(frozen=True, init=False)
class Interrupt(Generic[ResponseT]):
    """A value surfaced to the caller when a node calls `interrupt()`.

    `response_schema` is the JSON schema the answer must match, when the node
    asked with `interrupt(value, response_schema=...)`. Public as
    `foldgraph.types.Interrupt`; defined here because `GraphInterrupt` carries them.

    LangGraph 0.x's keywords are still accepted, as LangGraph 1.2 accepts them:
    `ns` (a namespace sequence) derives the id when none is given; `resumable`
    and `when` are ignored.
    """

    value: Any
    id: str = "placeholder-id"
    response_schema: type[ResponseT] | dict[str, Any] | None = dataclasses.field(
        default=None, kw_only=True
    )

    def __init__(
        self,
        value: Any,
        id: str = "placeholder-id",
        *,
        response_schema: type[ResponseT] | dict[str, Any] | None = None,
        **deprecated: Any,
    ) -> None:
        ns = deprecated.get("ns")
        if ns is not None and id == "placeholder-id" and isinstance(ns, Sequence):
            from foldgraph._context import interrupt_id

            id = interrupt_id("|".join(ns))
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "response_schema", response_schema)

    @property
    def interrupt_id(self) -> str:
        """Deprecated (LangGraph 1.0): the same as `id`."""
        import warnings

        from foldgraph.warnings import LangGraphDeprecatedSinceV10

        warnings.warn(
            "`interrupt_id` is deprecated. Use `id` instead.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        return self.id

    @classmethod
    def from_ns(
        cls,
        value: Any,
        ns: str,
        *,
        response_schema: type[ResponseT] | dict[str, Any] | None = None,
    ) -> Interrupt[ResponseT]:
        """An interrupt whose id is derived from a task's checkpoint namespace."""
        from foldgraph._context import interrupt_id

        return cls(value=value, id=interrupt_id(ns), response_schema=response_schema)


Interrupt.__module__ = "foldgraph.types"


class GraphBubbleUp(Exception):
    """Base of control-flow signals that travel up through nodes and tools untouched."""


class GraphInterrupt(GraphBubbleUp):
    """Raised by `interrupt()`; the run stops and reports its interrupts."""

    def __init__(self, interrupts: Sequence[Any] = ()) -> None:
        super().__init__(interrupts)

    @property
    def interrupts(self) -> Sequence[Any]:
        return self.args[0]


class NodeInterrupt(GraphInterrupt):
    """Legacy form of `interrupt()`: raise it in a node to stop the run."""

    def __init__(self, value: Any, id: str | None = None) -> None:
        import warnings

        from foldgraph.warnings import LangGraphDeprecatedSinceV10

        warnings.warn(
            "NodeInterrupt is deprecated. Please use `foldgraph.types.interrupt` instead.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        interrupt = Interrupt(value=value) if id is None else Interrupt(value=value, id=id)
        super().__init__([interrupt])


class ParentCommand(GraphBubbleUp):
    """Carries a `Command(graph=Command.PARENT)` up to the parent graph."""

    def __init__(self, command: Any) -> None:
        super().__init__(command)

    @property
    def command(self) -> Any:
        return self.args[0]


class UnknownInterruptError(Exception):
    """A resume that does not match the pending interrupts.

    `reason` is `"not_pending"` (ids in `interrupt_ids` are not waiting),
    `"empty_map"` (an empty resume map) or `"ambiguous"` (one value, several
    interrupts pending); `pending_ids` are those still waiting for an answer.
    """

    reason: Literal["not_pending", "empty_map", "ambiguous"]
    interrupt_ids: tuple[str, ...]
    pending_ids: tuple[str, ...]

    def __init__(
        self,
        message: str,
        *,
        reason: Literal["not_pending", "empty_map", "ambiguous"],
        interrupt_ids: Sequence[str] = (),
        pending_ids: Sequence[str] = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.interrupt_ids = tuple(interrupt_ids)
        self.pending_ids = tuple(pending_ids)


@dataclasses.dataclass(frozen=True, slots=True)
class NodeError:
    """What a node-level error handler is told: which node failed, and with what."""

    node: str
    error: BaseException


class NodeCancelledError(Exception):
    """A node's own code raised `asyncio.CancelledError`: reported as a node failure."""

    node: str

    def __init__(self, node: str, message: str | None = None) -> None:
        super().__init__(message or f"Node {node!r} raised asyncio.CancelledError")
        self.node = node


class NodeTimeoutError(Exception):
    """A node attempt ran past its idle or run timeout.

    Not a `TimeoutError` (an `OSError`), so the default retry policy retries it.
    `timeout` is the limit that fired, `kind` says which one.
    """

    node: str
    timeout: float
    run_timeout: float | None
    idle_timeout: float | None
    elapsed: float
    kind: Literal["idle", "run"]

    def __init__(
        self,
        node: str,
        elapsed: float,
        *,
        kind: Literal["idle", "run"],
        idle_timeout: float | None = None,
        run_timeout: float | None = None,
    ) -> None:
        if kind == "idle":
            if idle_timeout is None:
                raise ValueError("idle_timeout is required when kind='idle'")
            self.timeout = idle_timeout
            message = (
                f"Node '{node}' exceeded its idle timeout of {idle_timeout:.3f}s "
                f"without making progress (elapsed: {elapsed:.3f}s)."
            )
        elif kind == "run":
            if run_timeout is None:
                raise ValueError("run_timeout is required when kind='run'")
            self.timeout = run_timeout
            message = (
                f"Node '{node}' exceeded its run timeout of {run_timeout:.3f}s "
                f"(elapsed: {elapsed:.3f}s)."
            )
        else:
            raise ValueError("kind must be 'idle' or 'run'")
        super().__init__(message)
        self.node = node
        self.elapsed = elapsed
        self.kind = kind
        self.idle_timeout = idle_timeout
        self.run_timeout = run_timeout


_INVALID_RESUME = "_foldgraph_invalid_resume"


def _mark_invalid_resume(error: BaseException) -> None:
    """Tag a validation error raised by `interrupt(..., response_schema=...)` on resume."""
    setattr(error, _INVALID_RESUME, True)


def is_invalid_resume(error: BaseException) -> bool:
    """Whether `error` says a resume value did not match the interrupt's `response_schema`.

    Tools that call `interrupt()` use it to tell a bad answer (ask again) from
    bad tool arguments.
    """
    return getattr(error, _INVALID_RESUME, False) is True


# -- durable storage and graceful stops -------------------------------------------------


class SerializationError(ValueError):
    """A value could not be written to, or read back from, a durable checkpoint.

    `path` points inside the value (`messages[3].additional_kwargs['img']`);
    savers add the thread, checkpoint and channel to the message.
    """

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class UnregisteredTypeError(SerializationError):
    """A stored value names a class that is not on the serializer's allowlist.

    Raised before anything is imported or called: register the class with the
    serializer (or name it in the graph's schema) if it belongs there.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)


class CorruptCheckpointError(SerializationError):
    """A stored checkpoint (or one of its values) cannot be decoded."""

    def __init__(self, message: str, *, thread_id: str = "", checkpoint_id: str = "") -> None:
        super().__init__(message)
        self.thread_id = thread_id
        self.checkpoint_id = checkpoint_id


class CheckpointConflictError(RuntimeError):
    """Another run wrote the same thread since this run read it; this run's write is refused.

    Nothing was written for the refused step. Load the thread again
    (`graph.invoke(None, config)` continues from the newest checkpoint) or run
    on a fork.
    """


class GraphDrained(GraphBubbleUp):
    """The run stopped at a superstep boundary because a drain was requested.

    Raised when `RunControl.request_drain()` was called (e.g. from a SIGTERM
    handler): everything finished before the boundary is saved, and
    `graph.invoke(None, config)` continues the thread from there. `config`
    (foldgraph) addresses the checkpoint the run stopped at.
    """

    def __init__(self, reason: str = "shutdown", *, config: Any = None) -> None:
        self.reason = reason
        self.config = config
        super().__init__(f"Graph drained: {reason}")
