"""`LastValue` and `LastValueAfterFinish`, under LangGraph's module path."""

from foldgraph._kernel.channels import LastValue, LastValueAfterFinish

__all__ = ("LastValue", "LastValueAfterFinish")
