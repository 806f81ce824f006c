"""Channel writes of low-level nodes, under LangGraph's module name (`pregel._write`)."""

from foldgraph.pregel._lowlevel import PASSTHROUGH, ChannelWrite, ChannelWriteEntry

__all__ = ["PASSTHROUGH", "ChannelWrite", "ChannelWriteEntry"]
