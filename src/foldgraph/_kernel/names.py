"""Reserved names of channels, namespaces and config keys (equal to LangGraph's).

They live here so the kernel needs nothing above it. `foldgraph.constants`
exposes only the names LangGraph 1.2 keeps public there; the others are
private in LangGraph too, and reading them from `foldgraph.constants` warns.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CONFIG_KEY_DURABILITY",
    "CONFIG_KEY_READ",
    "CONFIG_KEY_RUNTIME",
    "CONFIG_KEY_SEND",
    "ERROR",
    "INTERRUPT",
    "NO_WRITES",
    "NS_END",
    "NS_SEP",
    "PREVIOUS",
    "PULL",
    "PUSH",
    "RESERVED_WRITES",
    "RESUME",
    "RETURN",
    "ROOT",
    "SELF",
    "TASKS",
]

# Internal channel names (kept equal to LangGraph's, as they show up in checkpoints).
TASKS: Final[str] = "__pregel_tasks"
INTERRUPT: Final[str] = "__interrupt__"
RESUME: Final[str] = "__resume__"
ERROR: Final[str] = "__error__"
NO_WRITES: Final[str] = "__no_writes__"
PUSH: Final[str] = "__pregel_push"
PULL: Final[str] = "__pregel_pull"
ROOT: Final[str] = "__root__"
SELF: Final[str] = "__self__"
PREVIOUS: Final[str] = "__previous__"
"""The channel where an entrypoint keeps what it saved for its next run on the thread."""
RETURN: Final[str] = "__return__"
"""The write that records what a functional-API task call returned."""
RESERVED_WRITES: Final[frozenset[str]] = frozenset({INTERRUPT, RESUME, NO_WRITES, ERROR, RETURN})
"""Writes a task records for the runner, never folded into a channel of the same name."""

# Characters that separate namespaces in checkpoint_ns strings; forbidden in node names.
NS_SEP: Final[str] = "|"
NS_END: Final[str] = ":"

CONFIG_KEY_SEND: Final[str] = "__pregel_send"
"""Where a running task's config carries `send([(channel, value), ...])`: writes the
task makes while it runs, applied with (before) the writes of what it returns."""
CONFIG_KEY_READ: Final[str] = "__pregel_read"
"""Where a running task's config carries `read(channel_or_channels, fresh=False)`: the
state the task started from, or (`fresh=True`) with the writes it sent so far."""
CONFIG_KEY_RUNTIME: Final[str] = "__pregel_runtime"
CONFIG_KEY_DURABILITY: Final[str] = "__pregel_durability"
"""The run's durability in a node's config (`configurable`), under LangGraph's key."""
"""Where a config carries the run's `Runtime`."""

RESERVED: Final[frozenset[str]] = frozenset(
    {
        "langsmith:hidden",
        # write keys the runner gives meaning to
        "__input__",
        INTERRUPT,
        RESUME,
        ERROR,
        "__error_source_node__",
        NO_WRITES,
        "__snapshot_bumps__",
        # keys of config["configurable"] the runner uses
        CONFIG_KEY_SEND,
        CONFIG_KEY_READ,
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
        "configurable",
    }
)
"""Names no node or state key may take (LangGraph's list: compile() rejects them)."""
