"""`BaseChannel`, under LangGraph's module path (`langgraph.channels.base`)."""

from foldgraph._kernel.channels import BaseChannel

__all__ = ("BaseChannel",)
