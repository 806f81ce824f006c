"""`SqlSaver`: the saver the SQLite and PostgreSQL savers share; dialects fill in the hooks."""

from __future__ import annotations

import collections
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from foldgraph.checkpoint._sql._read import SqlReads
from foldgraph.checkpoint._sql._retention import SqlRetention
from foldgraph.checkpoint._sql._rows import SCHEMA_VERSION, _as_dict, _Recent
from foldgraph.checkpoint._sql._write import SqlWrites
from foldgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.errors import CorruptCheckpointError

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig


class SqlSaver(SqlReads, SqlWrites, SqlRetention, BaseCheckpointSaver[int]):
    """A durable saver over a SQL database; subclasses supply the connection and dialect.

    Subclasses implement `_tx(write)` (a context manager yielding a cursor
    inside one transaction, a write-locking one when `write` is true) and
    the dialect hooks `_ph` (parameter placeholder), `_insert_ignore`,
    `_insert_replace`, `_blob_chain_sql` and `_schema`.
    """

    _ph = "?"
    background_writes = True
    """With durability "async" the runner calls put/put_writes from a writer thread, in order."""

    def __init__(self, *, serde: Any | None = None, full_every: int = 100) -> None:
        super().__init__(serde=serde if serde is not None else JsonPlusSerializer())
        if full_every < 1:
            raise ValueError(f"full_every must be a positive int, got {full_every}")
        self.full_every = full_every
        self._recent: collections.OrderedDict[tuple[str, str], _Recent] = collections.OrderedDict()
        self._tips: dict[tuple[str, str], set[str]] = {}
        self._cache_lock = threading.RLock()
        self._grouped = threading.local()
        """`.cur`: the transaction of the `_put_group` this thread is running, if any."""
        self.is_setup = False

    # -- dialect hooks ----------------------------------------------------------------------

    def _tx(self, write: bool) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def _schema(self) -> list[str]:
        raise NotImplementedError

    def _insert_ignore(self, table: str, columns: Sequence[str]) -> str:
        raise NotImplementedError

    def _insert_replace(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        raise NotImplementedError

    def _insert_checkpoint(self, cur: Any, params: Sequence[Any]) -> int:
        raise NotImplementedError

    def _blob_chain_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _blob_data_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _metadata_filter_sql(self, key: str, value: Any) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _after_put(self, cur: Any, thread_id: str, ns: str, seq: int, checkpoint_id: str) -> None:
        """Runs in `put`'s transaction once the checkpoint is stored (a shallow saver prunes)."""

    def _lock_thread(self, cur: Any, thread_id: str, ns: str) -> None:
        """Serialize writers of one thread inside a transaction (SQLite's writes already are)."""

    def _q(self, sql: str) -> str:
        return sql if self._ph == "?" else sql.replace("?", self._ph)

    # -- schema -----------------------------------------------------------------------------

    def setup(self) -> None:
        """Create the tables (or check their version); safe to call many times.

        When the database already records this schema version no DDL runs:
        `CREATE INDEX IF NOT EXISTS` still locks its table in PostgreSQL, which
        would deadlock with a run writing the same tables.
        """
        with self._tx(write=True) as cur:
            self._setup_lock(cur)
            version = self._recorded_version(cur)
            if version is not None and version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"This database holds foldgraph checkpoint schema version {version}, newer "
                    f"than this foldgraph understands ({SCHEMA_VERSION}); upgrade foldgraph."
                )
            if version != SCHEMA_VERSION:
                for statement in self._schema():
                    cur.execute(statement)
                if version is None:
                    cur.execute(
                        self._q("INSERT INTO fg_meta (key, value) VALUES (?, ?)"),
                        ("schema_version", str(SCHEMA_VERSION)),
                    )
        self.is_setup = True

    def _setup_lock(self, cur: Any) -> None:
        """Serialize concurrent `setup()` calls (SQLite's write transaction already does)."""

    def _meta_exists(self, cur: Any) -> bool:
        cur.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'fg_meta'")
        return cur.fetchone() is not None

    def _recorded_version(self, cur: Any) -> int | None:
        if not self._meta_exists(cur):
            return None
        return self._read_version(cur)

    def _read_version(self, cur: Any) -> int | None:
        """The schema version `fg_meta` records, None when it records none."""
        cur.execute(self._q("SELECT value FROM fg_meta WHERE key = ?"), ("schema_version",))
        row = cur.fetchone()
        if row is None:
            return None
        try:
            return int(row[0])
        except (TypeError, ValueError):
            raise CorruptCheckpointError(
                f"The foldgraph checkpoint schema version recorded in database "
                f"{self._database_name(cur)} is {row[0]!r}, not a number: the table "
                "fg_meta was damaged or written by something else. Restore the database "
                "from a backup, or set fg_meta's 'schema_version' row to the version this "
                f"database was created with ({SCHEMA_VERSION} for this foldgraph)."
            ) from None

    def _database_name(self, cur: Any) -> str:
        """The database this saver writes, for error messages (SQLite: its file)."""
        cur.execute("PRAGMA database_list")
        for _seq, name, path in cur.fetchall():
            if name == "main":
                return repr(path) if path else "':memory:'"
        return "'(unknown)'"

    def schema_version(self) -> int:
        with self._tx(write=False) as cur:
            version = self._read_version(cur)
        return 0 if version is None else version

    def _ensure_setup(self) -> None:
        if not self.is_setup:
            self.setup()

    # -- (de)serialization helpers ------------------------------------------------------------

    def _dump(self, value: Any) -> tuple[str, bytes]:
        return self.serde.dumps_typed(value)

    def _load(self, typ: str, data: Any) -> Any:
        return self.serde.loads_typed((typ, bytes(data) if data is not None else b""))

    @staticmethod
    def _json(value: Any) -> str:
        """A checkpoint's record or metadata as JSON text; mappings (the persistent maps of
        `versions_seen`) are written as objects. orjson writes it in C, the standard
        encoder what orjson refuses (non-string keys, ints beyond 64 bits)."""
        try:
            return orjson.dumps(value, default=_as_dict).decode()
        except TypeError:
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=_as_dict)

    # -- async twins (the blocking work runs in a worker thread) ------------------------------

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        import asyncio

        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        import asyncio

        items = await asyncio.to_thread(
            lambda: list(self.list(config, filter=filter, before=before, limit=limit))
        )
        for item in items:
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        import asyncio

        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        import asyncio

        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        import asyncio

        await asyncio.to_thread(self.delete_thread, thread_id)

    async def aprune(
        self,
        thread_ids: Sequence[str] | str,
        *,
        strategy: str = "keep_latest",
        keep_last: int | None = None,
        keep_forks: bool = True,
    ) -> None:
        import asyncio

        await asyncio.to_thread(
            lambda: self.prune(
                thread_ids, strategy=strategy, keep_last=keep_last, keep_forks=keep_forks
            )
        )

    async def acompact(self, thread_id: str) -> int:
        import asyncio

        return await asyncio.to_thread(self.compact, thread_id)

    async def asetup(self) -> None:
        import asyncio

        await asyncio.to_thread(self.setup)

    async def alist_threads(self) -> list[str]:
        import asyncio

        return await asyncio.to_thread(self.list_threads)

    def with_allowlist(self, extra_allowlist: Any) -> SqlSaver:
        """Let the serializer build `extra_allowlist` types too (in place; returns self).

        A compiled graph passes its schemas' types here. Extending in place
        keeps `graph.checkpointer is saver`, and only ever adds types the
        program itself declares.
        """
        register = getattr(self.serde, "register", None)
        if register is not None:
            register(*[t for t in extra_allowlist if isinstance(t, type)])
            return self
        return super().with_allowlist(extra_allowlist)  # type: ignore[return-value]
