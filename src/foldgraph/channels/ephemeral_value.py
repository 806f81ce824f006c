"""`EphemeralValue`, under LangGraph's module path (`langgraph.channels.ephemeral_value`)."""

from foldgraph._kernel.channels import EphemeralValue

__all__ = ("EphemeralValue",)
