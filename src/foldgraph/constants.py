"""Reserved names shared by the builder, the kernel and the runner."""

from __future__ import annotations

import sys
from typing import Final

from foldgraph._kernel.names import (  # noqa: F401  (re-exported for the shell)
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
PREVIOUS: Final[str] = sys.intern("__previous__")
"""The channel where an entrypoint keeps what it saved for its next run on the thread."""
SELF: Final[str] = "__self__"

CONF: Final[str] = "configurable"
CONFIG_KEY_CHECKPOINTER: Final[str] = sys.intern("__pregel_checkpointer")
"""Where a config carries a checkpointer for a nested graph to use."""
CONFIG_KEY_RUNTIME: Final[str] = sys.intern("__pregel_runtime")
"""Where a config carries the run's `Runtime`."""

__all__ = ["CONF", "CONFIG_KEY_CHECKPOINTER", "END", "START", "TAG_HIDDEN", "TAG_NOSTREAM", "TASKS"]
