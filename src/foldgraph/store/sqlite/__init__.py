"""`SqliteStore` and `AsyncSqliteStore`: the long-term memory store in SQLite.

Same package layout as LangGraph's `langgraph.store.sqlite` (`base`, `aio`).
"""

from foldgraph.store.sqlite.aio import AsyncSqliteStore
from foldgraph.store.sqlite.base import SqliteStore

__all__ = ["AsyncSqliteStore", "SqliteStore"]
