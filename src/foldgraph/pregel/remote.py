"""`RemoteGraph`'s import path (a client for a graph behind the LangGraph Server API).

The client itself comes with foldgraph's server. The path exists now because
packages built on LangGraph import it unconditionally (`langgraph-supervisor`
checks `isinstance(agent, RemoteGraph)`); making one raises until it is built.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RemoteGraph"]


class RemoteGraph:
    """A graph served over HTTP by a LangGraph Server API (not available yet)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "foldgraph.pregel.remote.RemoteGraph is not available yet: the client for "
            "graphs behind a LangGraph Server API comes with foldgraph's server. Run the "
            "graph in this process instead (a compiled graph works wherever a "
            "RemoteGraph would)."
        )
