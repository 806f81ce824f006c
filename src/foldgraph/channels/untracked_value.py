"""`UntrackedValue`, under LangGraph's module path (`langgraph.channels.untracked_value`)."""

from foldgraph._kernel.channels import UntrackedValue

__all__ = ("UntrackedValue",)
