"""The viewer's tests: databases written by foldgraph and by real LangGraph."""

from thread_dbs import db, expected, kind, thread_dbs

__all__ = ["db", "expected", "kind", "thread_dbs"]
