"""The record types of a run, under their older import path (`langgraph.pregel.types`).

Importing this module warns, as LangGraph 1.2 does: use `foldgraph.types`.
"""

import warnings

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
from foldgraph.warnings import LangGraphDeprecatedSinceV10

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

warnings.warn(
    "Importing from foldgraph.pregel.types is deprecated. "
    "Please use 'from foldgraph.types import ...' instead.",
    LangGraphDeprecatedSinceV10,
    stacklevel=2,
)
