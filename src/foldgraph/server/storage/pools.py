"""Connection pools that outlive a database restart, cheaply.

After PostgreSQL restarts, every pooled connection is dead; the first statement on
each would fail the request or run that took it. psycopg_pool can ping a connection
each time it is taken (`check`), but a ping per statement is a round trip per
statement. These pools ping only a connection that sat idle for `IDLE_CHECK`
seconds: a restart takes longer than that, so every connection that lived through
one is pinged (and replaced) before use, while connections in steady use never are.
A connection in use when the database went away fails its statement and is
discarded by the pool.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

#: Seconds a connection may sit idle and still be taken without a ping.
IDLE_CHECK = 0.5


class _IdleClock:
    """When each connection was last given back to its pool."""

    def __init__(self) -> None:
        self.returned: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()

    def fresh(self, conn: Any) -> bool:
        last = self.returned.get(conn)
        return last is not None and time.monotonic() - last < IDLE_CHECK


def sync_pool(url: str, size: int) -> Any:
    """An open autocommit `psycopg_pool.ConnectionPool` of at most `size` connections."""
    from psycopg_pool import ConnectionPool

    clock = _IdleClock()

    def check(conn: Any) -> None:
        if not clock.fresh(conn):
            ConnectionPool.check_connection(conn)

    def reset(conn: Any) -> None:
        clock.returned[conn] = time.monotonic()

    return ConnectionPool(
        url,
        min_size=1,
        max_size=size,
        kwargs={"autocommit": True},
        open=True,
        check=check,
        reset=reset,
    )


def async_pool(url: str, size: int) -> Any:
    """An autocommit `psycopg_pool.AsyncConnectionPool` (not yet open)."""
    from psycopg_pool import AsyncConnectionPool

    clock = _IdleClock()

    async def check(conn: Any) -> None:
        if not clock.fresh(conn):
            await AsyncConnectionPool.check_connection(conn)

    async def reset(conn: Any) -> None:
        clock.returned[conn] = time.monotonic()

    return AsyncConnectionPool(
        url,
        min_size=1,
        max_size=size,
        kwargs={"autocommit": True},
        open=False,
        check=check,
        reset=reset,
    )
