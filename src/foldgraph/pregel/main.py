"""`Pregel` and `NodeBuilder` under LangGraph's module path (`langgraph.pregel.main`)."""

from foldgraph.pregel import NodeBuilder, Pregel

__all__ = ("NodeBuilder", "Pregel")
