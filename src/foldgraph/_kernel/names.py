"""Reserved channel names the fold knows (equal to LangGraph's: they show in checkpoints).

`foldgraph.constants` re-exports them; they live here so the kernel needs nothing above it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ERROR", "INTERRUPT", "NO_WRITES", "PULL", "PUSH", "RESUME", "TASKS"]

TASKS: Final[str] = "__pregel_tasks"
INTERRUPT: Final[str] = "__interrupt__"
RESUME: Final[str] = "__resume__"
ERROR: Final[str] = "__error__"
NO_WRITES: Final[str] = "__no_writes__"
PUSH: Final[str] = "__pregel_push"
PULL: Final[str] = "__pregel_pull"
