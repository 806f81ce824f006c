"""Reserved names shared by the builder, the kernel and the runner."""

from __future__ import annotations

import sys
from typing import Final

from foldgraph._kernel.names import (
    ERROR,
    INTERRUPT,
    NO_WRITES,
    PULL,
    PUSH,
    RESUME,
    TASKS,
)

START: Final[str] = sys.intern("__start__")
"""The virtual node that receives the graph's input."""
END: Final[str] = sys.intern("__end__")
"""The virtual node that ends a run."""

TAG_NOSTREAM: Final[str] = "nostream"
TAG_HIDDEN: Final[str] = "langsmith:hidden"

# Characters that separate namespaces in checkpoint_ns strings; forbidden in node names.
NS_SEP: Final[str] = "|"
NS_END: Final[str] = ":"

# Internal channel names (kept equal to LangGraph's, as they show up in checkpoints).
ROOT: Final[str] = "__root__"
SELF: Final[str] = "__self__"

CONF: Final[str] = "configurable"
CONFIG_KEY_CHECKPOINTER: Final[str] = sys.intern("__pregel_checkpointer")
"""Where a config carries a checkpointer for a nested graph to use."""
CONFIG_KEY_RUNTIME: Final[str] = sys.intern("__pregel_runtime")
"""Where a config carries the run's `Runtime`."""

RESERVED: Final[frozenset[str]] = frozenset(
    {
        TAG_HIDDEN,
        # write keys the runner gives meaning to
        "__input__",
        INTERRUPT,
        RESUME,
        ERROR,
        "__error_source_node__",
        NO_WRITES,
        "__snapshot_bumps__",
        # keys of config["configurable"] the runner uses
        "__pregel_send",
        "__pregel_read",
        "__pregel_checkpointer",
        "__pregel_stream",
        "checkpoint_map",
        "__pregel_resuming",
        "__pregel_replay_state",
        "__pregel_task_id",
        "checkpoint_id",
        "checkpoint_ns",
        "__pregel_timed_attempt_observer",
        "__pregel_resume_map",
        "__pregel_strict_resume",
        "__pregel_stream_messages_v2",
        # other names
        PUSH,
        PULL,
        NS_SEP,
        NS_END,
        CONF,
    }
)
"""Names no node or state key may take (LangGraph's list: compile() rejects them)."""

__all__ = ["CONF", "CONFIG_KEY_CHECKPOINTER", "END", "START", "TAG_HIDDEN", "TAG_NOSTREAM", "TASKS"]
