"""Exceptions raised by foldgraph, with LangGraph's names and messages."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

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
    "NodeInterrupt",
    "ParentCommand",
    "TaskNotFound",
    "create_error_message",
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


@dataclasses.dataclass(frozen=True)
class Interrupt:
    """A value surfaced to the caller when a node calls `interrupt()`.

    Public as `foldgraph.types.Interrupt`; defined here because `GraphInterrupt` carries them.
    """

    value: Any
    id: str = "placeholder-id"


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
        interrupt = Interrupt(value=value) if id is None else Interrupt(value=value, id=id)
        super().__init__([interrupt])


class ParentCommand(GraphBubbleUp):
    """Carries a `Command(graph=Command.PARENT)` up to the parent graph."""

    def __init__(self, command: Any) -> None:
        super().__init__(command)

    @property
    def command(self) -> Any:
        return self.args[0]


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


class GraphDrained(Exception):
    """The run stopped at a superstep boundary because a drain was requested.

    Everything finished before the boundary is saved; `graph.invoke(None,
    config)` continues the thread from there. `reason` is what was passed to
    `RunControl.request_drain`.
    """

    def __init__(self, reason: str = "", *, config: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.config = config
