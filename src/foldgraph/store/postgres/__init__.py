"""`PostgresStore` and `AsyncPostgresStore`: the long-term memory store in PostgreSQL.

Same package layout as LangGraph's `langgraph.store.postgres` (`base`, `aio`).
"""

from foldgraph.store.postgres.aio import AsyncPostgresStore
from foldgraph.store.postgres.base import PoolConfig, PostgresStore

__all__ = ["AsyncPostgresStore", "PoolConfig", "PostgresStore"]
