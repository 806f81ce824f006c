"""foldgraph: a LangGraph-compatible graph runtime built as a pure fold over persistent state."""

__version__ = "0.1.0"
