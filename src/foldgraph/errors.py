"""Exceptions raised by foldgraph, with LangGraph's names and messages."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

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


class ErrorCode(Enum):
    GRAPH_RECURSION_LIMIT = "GRAPH_RECURSION_LIMIT"
    INVALID_CONCURRENT_GRAPH_UPDATE = "INVALID_CONCURRENT_GRAPH_UPDATE"
    INVALID_GRAPH_NODE_RETURN_VALUE = "INVALID_GRAPH_NODE_RETURN_VALUE"
    MULTIPLE_SUBGRAPHS = "MULTIPLE_SUBGRAPHS"
    INVALID_CHAT_HISTORY = "INVALID_CHAT_HISTORY"


def create_error_message(*, message: str, error_code: ErrorCode) -> str:
    """Append the troubleshooting link LangGraph users already know."""
    return (
        f"{message}\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/"
        f"errors/{error_code.value}"
    )


class GraphRecursionError(RecursionError):
    """The run took more supersteps than `recursion_limit` allows."""


class InvalidUpdateError(Exception):
    """A node or caller wrote an update the state cannot accept."""


class EmptyChannelError(Exception):
    """A channel was read before anything was written to it."""


class EmptyInputError(Exception):
    """The graph was invoked with an empty input."""


class TaskNotFound(Exception):
    """An executor was asked for a task that does not exist."""


class ImmutableStateError(TypeError):
    """A node tried to change the state it was given instead of returning an update."""


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

        from foldgraph.types import Interrupt
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
