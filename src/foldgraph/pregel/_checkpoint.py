"""LangGraph's private ``langgraph.pregel._checkpoint`` path, for the checkpoint helpers
code written against LangGraph imports from it.

Its ``copy_checkpoint`` is what a saver subclass calls on the checkpoint ``put`` hands
it, to keep a copy of its own (LangGraph's test helper does, and compares the copy with
what ``get`` returns later). A saver here is handed foldgraph's stored form (persistent
maps, message logs, seals); the copy is made in the plain shape ``get`` returns, so the
two compare equal as they do in LangGraph.
"""

from __future__ import annotations

from foldgraph.checkpoint.base import Checkpoint, empty_checkpoint
from foldgraph.checkpoint.base._plain import plain_checkpoint

__all__ = ["copy_checkpoint", "empty_checkpoint"]


def copy_checkpoint(checkpoint: Checkpoint) -> Checkpoint:
    """A copy sharing nothing mutable with ``checkpoint``, in the shape saver reads return.

    As LangGraph's runner-side copy, it has no legacy ``pending_sends`` key (the one
    `empty_checkpoint` still carries) and always has ``updated_channels``.
    """
    copied = plain_checkpoint(checkpoint)
    copied.pop("pending_sends", None)  # type: ignore[misc]
    copied.setdefault("updated_channels", None)
    return copied
