"""`AsyncPostgresSaver`: the PostgreSQL saver for asyncio code (LangGraph's module path).

Same storage as `PostgresSaver`; the blocking psycopg calls run in a worker
thread over a synchronous pool, so the event loop never waits on the network.
"""

from __future__ import annotations

from foldgraph.checkpoint.postgres._async import AsyncEntryPoints
from foldgraph.checkpoint.postgres._saver import Conn, PostgresSaver
from foldgraph.checkpoint.postgres.shallow import AsyncShallowPostgresSaver

__all__ = ["AsyncPostgresSaver", "AsyncShallowPostgresSaver", "Conn"]


class AsyncPostgresSaver(AsyncEntryPoints, PostgresSaver):  # type: ignore[misc]
    """`PostgresSaver` with an awaitable `setup()` and an async `from_conn_string`.

    Give it a connection string or a synchronous `psycopg_pool.ConnectionPool`
    (psycopg's async connections are not accepted: the work runs in threads).
    """
