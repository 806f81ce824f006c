"""`AnyValue`, under LangGraph's module path (`langgraph.channels.any_value`)."""

from foldgraph._kernel.channels import AnyValue

__all__ = ("AnyValue",)
