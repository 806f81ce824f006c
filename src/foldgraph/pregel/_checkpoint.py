"""LangGraph's private ``langgraph.pregel._checkpoint`` path, for the checkpoint helpers
code written against LangGraph imports from it (its test helpers copy a checkpoint
before keeping it)."""

from foldgraph.checkpoint.base import copy_checkpoint, empty_checkpoint

__all__ = ["copy_checkpoint", "empty_checkpoint"]
