"""`PostgresSaver`: checkpoints in PostgreSQL, shared by many processes or machines.

Same import path and entry points as LangGraph's `langgraph.checkpoint.postgres`
(`PostgresSaver(conn)`, `PostgresSaver.from_conn_string(dsn)`, `setup()`),
on psycopg 3 with a connection pool. The storage format is the SQLite
saver's (see `foldgraph.checkpoint._sql`): one row per checkpoint, a value
only for the channels a step changed, reducer channels as deltas, and a
schema version recorded in `fg_meta` so later releases can migrate.

Writes of one thread are serialized with a transaction-scoped advisory lock,
which makes the optimistic head check and the insert one atomic step: of two
runs continuing the same checkpoint, one gets `CheckpointConflictError`.

Install with `pip install 'foldgraph[postgres]'` (psycopg[binary], psycopg-pool).
"""

from foldgraph.checkpoint.postgres._saver import Conn, PostgresSaver
from foldgraph.checkpoint.postgres.base import BasePostgresSaver
from foldgraph.checkpoint.postgres.shallow import ShallowPostgresSaver

__all__ = ["BasePostgresSaver", "Conn", "PostgresSaver", "ShallowPostgresSaver"]
