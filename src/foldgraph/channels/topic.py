"""`Topic`, under LangGraph's module path (`langgraph.channels.topic`)."""

from foldgraph._kernel.channels import Topic

__all__ = ("Topic",)
