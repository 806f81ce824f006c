"""`BinaryOperatorAggregate`, under LangGraph's module path (`langgraph.channels.binop`)."""

from foldgraph._kernel.channels import BinaryOperatorAggregate

__all__ = ("BinaryOperatorAggregate",)
