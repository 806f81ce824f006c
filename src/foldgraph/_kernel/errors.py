"""The errors the fold itself raises; `foldgraph.errors` shows them under their public names.

They live here so that the kernel imports nothing of foldgraph outside `_kernel/`.
"""

from __future__ import annotations

from enum import Enum

__all__ = [
    "EmptyChannelError",
    "ErrorCode",
    "ImmutableStateError",
    "InvalidUpdateError",
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


class InvalidUpdateError(Exception):
    """A node or caller wrote an update the state cannot accept."""


class EmptyChannelError(Exception):
    """A channel was read before anything was written to it."""


class ImmutableStateError(TypeError):
    """A node tried to change the state it was given instead of returning an update."""


for _cls in (ErrorCode, InvalidUpdateError, EmptyChannelError, ImmutableStateError):
    _cls.__module__ = "foldgraph.errors"
