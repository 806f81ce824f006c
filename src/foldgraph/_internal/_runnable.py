"""`RunnableCallable` at LangGraph's private path (`langgraph._internal._runnable`).

`create_agent` wraps every middleware hook and the model call in one (a sync
function and its async twin, `trace=False`); `langgraph-supervisor` wraps each
agent call. foldgraph keeps the class at `foldgraph.utils.runnable`.
"""

from __future__ import annotations

from foldgraph.utils.runnable import RunnableCallable, RunnableLike

__all__ = ["RunnableCallable", "RunnableLike"]
