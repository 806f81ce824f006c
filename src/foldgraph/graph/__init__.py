"""Public graph API: `StateGraph`, `START`, `END`, `MessagesState`, `add_messages`."""

from __future__ import annotations

from typing import Any

from foldgraph.constants import END, START

__all__ = [
    "END",
    "START",
    "CompiledStateGraph",
    "MessageGraph",
    "MessagesState",
    "StateGraph",
    "add_messages",
]


def __getattr__(name: str) -> Any:
    if name in ("StateGraph", "CompiledStateGraph"):
        from foldgraph.graph import state

        return getattr(state, name)
    if name in ("MessagesState", "add_messages", "MessageGraph"):
        from foldgraph.graph import message

        return getattr(message, name)
    raise AttributeError(f"module 'foldgraph.graph' has no attribute {name!r}")
