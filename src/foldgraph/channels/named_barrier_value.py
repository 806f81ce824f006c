"""`NamedBarrierValue` and `NamedBarrierValueAfterFinish`, under LangGraph's module path."""

from foldgraph._kernel.channels import NamedBarrierValue, NamedBarrierValueAfterFinish

__all__ = ("NamedBarrierValue", "NamedBarrierValueAfterFinish")
