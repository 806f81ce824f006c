"""Reserved names at LangGraph's private path (`langgraph._internal._constants`).

The values are LangGraph's: they appear in configs, checkpoints and task paths.
Within a running task, `config["configurable"]` carries `CONFIG_KEY_SEND` (a
function taking `[(channel, value), ...]` writes, applied with the task's own
writes) and `CONFIG_KEY_READ` (`read(channel_or_channels, fresh=False)`: the
state the task started from, or with `fresh=True` with the task's writes so far
folded in).
"""

from __future__ import annotations

import sys
from typing import Final, Literal

from foldgraph._kernel.names import (
    CONFIG_KEY_READ,
    CONFIG_KEY_RUNTIME,
    CONFIG_KEY_SEND,
    ERROR,
    INTERRUPT,
    NO_WRITES,
    NS_END,
    NS_SEP,
    PREVIOUS,
    PULL,
    PUSH,
    RESERVED,
    RESUME,
    RETURN,
    TASKS,
)
from foldgraph._shell.node import NODE_ERROR as CONFIG_KEY_NODE_ERROR
from foldgraph.constants import CONFIG_KEY_CHECKPOINTER, TAG_HIDDEN

__all__ = [
    "CACHE_NS_WRITES",
    "CONF",
    "CONFIG_KEY_CACHE",
    "CONFIG_KEY_CALL",
    "CONFIG_KEY_CHECKPOINTER",
    "CONFIG_KEY_CHECKPOINT_ID",
    "CONFIG_KEY_CHECKPOINT_MAP",
    "CONFIG_KEY_CHECKPOINT_NS",
    "CONFIG_KEY_DURABILITY",
    "CONFIG_KEY_NODE_ERROR",
    "CONFIG_KEY_NODE_FINISHED",
    "CONFIG_KEY_READ",
    "CONFIG_KEY_REPLAY_STATE",
    "CONFIG_KEY_RESUME_MAP",
    "CONFIG_KEY_RESUMING",
    "CONFIG_KEY_RUNNER_SUBMIT",
    "CONFIG_KEY_RUNTIME",
    "CONFIG_KEY_SCRATCHPAD",
    "CONFIG_KEY_SEND",
    "CONFIG_KEY_STREAM",
    "CONFIG_KEY_STRICT_RESUME",
    "CONFIG_KEY_TASK_ID",
    "CONFIG_KEY_THREAD_ID",
    "CONFIG_KEY_TIMED_ATTEMPT_OBSERVER",
    "ERROR",
    "ERROR_SOURCE_NODE",
    "INPUT",
    "INTERRUPT",
    "NO_WRITES",
    "NS_END",
    "NS_SEP",
    "NULL_TASK_ID",
    "OVERWRITE",
    "PREVIOUS",
    "PULL",
    "PUSH",
    "RESERVED",
    "RESUME",
    "RETURN",
    "SNAPSHOT_BUMPS",
    "TAG_HIDDEN",
    "TASKS",
]

INPUT: Final[str] = sys.intern("__input__")
ERROR_SOURCE_NODE: Final[str] = sys.intern("__error_source_node__")
SNAPSHOT_BUMPS: Final[str] = sys.intern("__snapshot_bumps__")
CACHE_NS_WRITES: Final[str] = sys.intern("__pregel_ns_writes")
OVERWRITE: Final[str] = sys.intern("__overwrite__")
NULL_TASK_ID: Final[str] = "00000000-0000-0000-0000-000000000000"
CONF: Final[Literal["configurable"]] = "configurable"

CONFIG_KEY_CALL: Final[str] = sys.intern("__pregel_call")
CONFIG_KEY_STREAM: Final[str] = sys.intern("__pregel_stream")
CONFIG_KEY_CACHE: Final[str] = sys.intern("__pregel_cache")
CONFIG_KEY_RESUMING: Final[str] = sys.intern("__pregel_resuming")
CONFIG_KEY_REPLAY_STATE: Final[str] = sys.intern("__pregel_replay_state")
CONFIG_KEY_TASK_ID: Final[str] = sys.intern("__pregel_task_id")
CONFIG_KEY_THREAD_ID: Final[str] = sys.intern("thread_id")
CONFIG_KEY_CHECKPOINT_MAP: Final[str] = sys.intern("checkpoint_map")
CONFIG_KEY_CHECKPOINT_ID: Final[str] = sys.intern("checkpoint_id")
CONFIG_KEY_CHECKPOINT_NS: Final[str] = sys.intern("checkpoint_ns")
CONFIG_KEY_NODE_FINISHED: Final[str] = sys.intern("__pregel_node_finished")
CONFIG_KEY_TIMED_ATTEMPT_OBSERVER: Final[str] = sys.intern("__pregel_timed_attempt_observer")
CONFIG_KEY_SCRATCHPAD: Final[str] = sys.intern("__pregel_scratchpad")
CONFIG_KEY_RUNNER_SUBMIT: Final[str] = sys.intern("__pregel_runner_submit")
CONFIG_KEY_DURABILITY: Final[str] = sys.intern("__pregel_durability")
CONFIG_KEY_RESUME_MAP: Final[str] = sys.intern("__pregel_resume_map")
CONFIG_KEY_STRICT_RESUME: Final[str] = sys.intern("__pregel_strict_resume")
