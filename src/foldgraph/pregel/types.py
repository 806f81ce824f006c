"""The record types of a run, under their older import path (`langgraph.pregel.types`)."""

from foldgraph.types import (
    All,
    CachePolicy,
    PregelExecutableTask,
    PregelTask,
    RetryPolicy,
    StateSnapshot,
    StateUpdate,
    StreamMode,
    StreamWriter,
    default_retry_on,
)

__all__ = [
    "All",
    "CachePolicy",
    "PregelExecutableTask",
    "PregelTask",
    "RetryPolicy",
    "StateSnapshot",
    "StateUpdate",
    "StreamMode",
    "StreamWriter",
    "default_retry_on",
]
