"""`DeltaChannel`, under LangGraph's module path (`langgraph.channels.delta`)."""

from foldgraph._kernel.channels import DeltaChannel

__all__ = ("DeltaChannel",)
