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
