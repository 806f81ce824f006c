"""The viewer's tests: databases written by foldgraph and by real LangGraph."""

from thread_dbs import db, expected, kind, thread_dbs

# Every test here exercises foldgraph's own parts (see tests/conftest.py).
FOLDGRAPH_ONLY = "foldgraph's thread viewer (foldgraph ui) and its read model"

__all__ = ["db", "expected", "kind", "thread_dbs"]
