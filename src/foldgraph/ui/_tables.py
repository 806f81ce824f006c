"""The read model over checkpoint tables: threads, pages of history, checkpoints.

`TableSource` holds the queries every SQL source shares; a subclass says
where the tables are (`cp_table`, `writes_table`, their data column), how a
checkpoint row becomes a `Head` and how values are decoded. Every read is an
indexed query bounded by a page: a history page selects `limit` checkpoints
below `before` (newest first) and then only the writes on those checkpoints
and their parents, so a thread with 10 000 checkpoints opens as fast as one
with ten. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from foldgraph.ui._derive import (
    INTERRUPT,
    NULL_TASK,
    TASKS,
    VIA,
    Head,
    WriteRow,
    derive_next,
    is_state_channel,
    node_of_path,
    status_of,
    task_names,
    writes_by_node,
)
from foldgraph.ui._jsonable import jsonable
from foldgraph.ui.errors import NotFound, ReadError
from foldgraph.ui.records import CheckpointView, HistoryRow, TaskView, ThreadRow

__all__ = ["TableSource"]

ERROR = "__error__"


class TableSource:
    """Shared SQL reads; see the module docstring. Subclasses set the hooks below."""

    kind = "tables"
    cp_table = "checkpoints"
    writes_table = "writes"
    writes_data = "value"
    head_columns = ""
    placeholder = "?"
    writable = False

    # -- hooks ------------------------------------------------------------------------------

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def _head(self, row: Sequence[Any]) -> Head:
        raise NotImplementedError

    def _values(self, thread_id: str, head: Head) -> dict[str, Any]:
        """The raw channel values of a checkpoint."""
        raise NotImplementedError

    def _decode(self, typ: str | None, data: Any) -> Any:
        raise NotImplementedError

    def _channel(self, thread_id: str, head: Head, channel: str) -> Any:
        return self._values(thread_id, head).get(channel)

    def close(self) -> None:
        """Release connections."""

    # -- helpers ----------------------------------------------------------------------------

    def _q(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def _marks(self, n: int) -> str:
        return ", ".join("?" for _ in range(n))

    def _heads(self, where: str, params: Sequence[Any], tail: str = "") -> list[Head]:
        sql = f"SELECT {self.head_columns} FROM {self.cp_table} WHERE {where} {tail}"
        return [self._head(r) for r in self._query(self._q(sql), params)]

    def _writes(
        self, thread_id: str, keys: Iterable[tuple[str, str]], *, with_data: bool = False
    ) -> dict[tuple[str, str], list[WriteRow]]:
        """The writes on the checkpoints `keys` ((namespace, id) pairs), by key; one
        primary-key lookup per namespace and chunk of ids."""
        out: dict[tuple[str, str], list[WriteRow]] = {}
        data = self.writes_data if with_data else "NULL"
        for space, ids in _by_namespace(sorted(set(keys))).items():
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                sql = (
                    f"SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, "
                    f"type, {data} FROM {self.writes_table} WHERE thread_id = ? AND "
                    f"checkpoint_ns = ? AND checkpoint_id IN ({self._marks(len(chunk))})"
                )
                for row in self._query(self._q(sql), [thread_id, space, *chunk]):
                    w = WriteRow(*row)
                    out.setdefault((w.checkpoint_ns, w.checkpoint_id), []).append(w)
        for rows in out.values():
            rows.sort(key=lambda w: (w.task_path, w.task_id, w.idx))
        return out

    def _via_writes(self, thread_id: str, ns: str, parent_id: str) -> list[WriteRow]:
        sql = (
            f"SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, "
            f"{self.writes_data} FROM {self.writes_table} WHERE thread_id = ? AND "
            "checkpoint_ns = ? AND checkpoint_id = ? AND channel = '__via__'"
        )
        return [WriteRow(*r) for r in self._query(self._q(sql), [thread_id, ns, parent_id])]

    def _tips(self, thread_id: str, heads: Sequence[Head]) -> set[tuple[str, str]]:
        """Which of `heads` no checkpoint of the same namespace continues."""
        ids = sorted({h.checkpoint_id for h in heads})
        continued: set[tuple[str, str]] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            sql = (
                f"SELECT DISTINCT checkpoint_ns, parent_checkpoint_id FROM {self.cp_table} "
                f"WHERE thread_id = ? AND parent_checkpoint_id IN ({self._marks(len(chunk))})"
            )
            continued.update((r[0], r[1]) for r in self._query(self._q(sql), [thread_id, *chunk]))
        return {
            (h.checkpoint_ns, h.checkpoint_id)
            for h in heads
            if (h.checkpoint_ns, h.checkpoint_id) not in continued
        }

    def _sends(self, thread_id: str, head: Head) -> list[str]:
        if TASKS not in head.present:
            return []
        try:
            value = self._channel(thread_id, head, TASKS)
        except ReadError:
            return []
        out = []
        for item in value or ():
            node = getattr(item, "node", None)
            if node is None and isinstance(item, dict):
                node = item.get("node")
            if isinstance(node, str):
                out.append(node)
        return out

    def _needs_sends(self, head: Head, writes: Sequence[WriteRow]) -> bool:
        return TASKS in head.present or any("push" in w.task_path for w in writes)

    def _rows(self, thread_id: str, heads: Sequence[Head]) -> list[HistoryRow]:
        """History rows for `heads`: next, and the writes of the step that made each."""
        if not heads:
            return []
        parents = {(h.checkpoint_ns, h.parent_id) for h in heads if h.parent_id}
        keys = {(h.checkpoint_ns, h.checkpoint_id) for h in heads}
        writes = self._writes(thread_id, keys | parents)
        owns = [writes.get((h.checkpoint_ns, h.checkpoint_id), []) for h in heads]
        sends = [
            self._sends(thread_id, h) if self._needs_sends(h, own) else []
            for h, own in zip(heads, owns, strict=True)
        ]
        # Whether a checkpoint was continued matters only where its tasks' nodes and its
        # triggers disagree (a tip may still have tasks to run); ask the table only then.
        doubtful = [
            h
            for h, own, s in zip(heads, owns, sends, strict=True)
            if set(derive_next(h, own, is_tip=True, sends=s))
            != set(derive_next(h, own, is_tip=False, sends=s))
        ]
        tips = self._tips(thread_id, doubtful) if doubtful else set()
        rows = []
        for h, own, s in zip(heads, owns, sends, strict=True):
            next_nodes = derive_next(
                h, own, is_tip=(h.checkpoint_ns, h.checkpoint_id) in tips, sends=s
            )
            rows.append(
                HistoryRow(
                    checkpoint_id=h.checkpoint_id,
                    parent_checkpoint_id=h.parent_id,
                    checkpoint_ns=h.checkpoint_ns,
                    step=h.metadata.get("step"),
                    source=h.metadata.get("source"),
                    next=next_nodes,
                    writes=self._made_by(thread_id, h, writes),
                    created_at=h.ts,
                    parents=dict(h.metadata.get("parents") or {}),
                )
            )
        return rows

    def _made_by(
        self, thread_id: str, head: Head, writes: dict[tuple[str, str], list[WriteRow]]
    ) -> dict[str, list[str]]:
        """node -> state keys, for the step that produced `head`."""
        if head.parent_id is None and head.metadata.get("source") != "input":
            return {}
        source = head.metadata.get("source")
        if source == "input":
            keys = sorted(
                w.channel
                for w in writes.get((head.checkpoint_ns, head.checkpoint_id), [])
                if node_of_path(w.task_path) == "__start__" and is_state_channel(w.channel)
            )
            return {"__input__": sorted(set(keys))} if keys else {}
        if source in ("update", "fork"):
            return self._update_writes(thread_id, head)
        if head.parent_id is None:
            return {}
        on_parent = writes.get((head.checkpoint_ns, head.parent_id), [])
        return writes_by_node(on_parent)

    def _update_writes(self, thread_id: str, head: Head) -> dict[str, list[str]]:
        """An `update_state` checkpoint: the node it was made as, and the keys it set."""
        keys = sorted(c for c in head.updated if is_state_channel(c))
        if not keys and head.parent_id:  # LangGraph leaves `updated_channels` empty here
            parent = self._heads(
                "thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
                [thread_id, head.checkpoint_ns, head.parent_id],
            )
            if parent:
                before = parent[0].versions
                keys = sorted(
                    c
                    for c, v in head.versions.items()
                    if is_state_channel(c) and before.get(c) != v
                )
        name = "__update__"
        if head.parent_id:
            for w in self._via_writes(thread_id, head.checkpoint_ns, head.parent_id):
                if w.task_id == VIA + head.checkpoint_id:
                    name = _via_name(self._safe_decode(w.typ, w.data)) or name
        return {name: keys} if keys or name != "__update__" else {}

    def _safe_decode(self, typ: str | None, data: Any) -> Any:
        try:
            return self._decode(typ, data)
        except Exception as exc:  # shown in place of the value; the rest still reads
            return {"$type": "unreadable", "value": f"{type(exc).__name__}: {exc}"}

    # -- the read model -----------------------------------------------------------------------

    def threads(
        self,
        *,
        search: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[ThreadRow]:
        """Threads, most recently written first; `search` matches the id or metadata text."""
        sql = (
            f"SELECT thread_id, count(*), max(checkpoint_id) FROM {self.cp_table} "
            "GROUP BY thread_id ORDER BY max(checkpoint_id) DESC"
        )
        groups = self._query(self._q(sql))
        out: list[ThreadRow] = []
        skipped = 0
        needle = search.lower() if search else None
        for thread_id, count, _newest in groups:
            row = self._thread_row(str(thread_id), int(count))
            if row is None:
                continue
            if needle and needle not in row.thread_id.lower():
                if needle not in _text(row.metadata).lower():
                    continue
            if status and row.status != status:
                continue
            if skipped < offset:
                skipped += 1
                continue
            out.append(row)
            if len(out) >= limit:
                break
        return out

    def _thread_row(self, thread_id: str, count: int) -> ThreadRow | None:
        heads = self._heads(
            "thread_id = ? AND checkpoint_ns = ''",
            [thread_id],
            "ORDER BY checkpoint_id DESC LIMIT 1",
        )
        if not heads:
            return None
        head = heads[0]
        row = self._rows(thread_id, [head])[0]
        own = self._writes(thread_id, [("", head.checkpoint_id)]).get(("", head.checkpoint_id), [])
        return ThreadRow(
            thread_id=thread_id,
            checkpoints=count,
            last_step=row.step,
            status=status_of(row.next, own),
            updated_at=head.ts,
            metadata=jsonable(head.metadata),
            checkpoint_id=head.checkpoint_id,
        )

    def thread(self, thread_id: str) -> ThreadRow:
        sql = f"SELECT count(*) FROM {self.cp_table} WHERE thread_id = ?"
        count = int(self._query(self._q(sql), [thread_id])[0][0])
        row = self._thread_row(thread_id, count) if count else None
        if row is None:
            raise NotFound(f"no thread {thread_id!r} in this database")
        return row

    def history(
        self,
        thread_id: str,
        *,
        before: str | None = None,
        limit: int = 50,
        ns: str | None = None,
    ) -> list[HistoryRow]:
        """A page of the thread's checkpoints, newest first (all namespaces unless `ns`)."""
        where, params = ["thread_id = ?"], [thread_id]
        if ns is not None:
            where.append("checkpoint_ns = ?")
            params.append(ns)
        if before:
            where.append("checkpoint_id < ?")
            params.append(before)
        # Ids first, from the (thread, namespace, id) index alone; then only their rows:
        # sorting whole rows would read every checkpoint's record of the thread.
        sql = (
            f"SELECT checkpoint_ns, checkpoint_id FROM {self.cp_table} WHERE "
            f"{' AND '.join(where)} ORDER BY checkpoint_id DESC LIMIT {int(limit)}"
        )
        found: list[Head] = []
        for space, ids in _by_namespace(self._query(self._q(sql), params)).items():
            found.extend(
                self._heads(
                    "thread_id = ? AND checkpoint_ns = ? AND checkpoint_id IN "
                    f"({self._marks(len(ids))})",
                    [thread_id, space, *ids],
                )
            )
        heads = sorted(found, key=lambda h: h.checkpoint_id, reverse=True)
        if not heads and before is None:
            self.thread(thread_id)  # raises NotFound for an unknown thread
        return self._rows(thread_id, heads)

    def _find(self, thread_id: str, checkpoint_id: str | None, ns: str | None) -> Head:
        if checkpoint_id is None:
            heads = self._heads(
                "thread_id = ? AND checkpoint_ns = ?",
                [thread_id, ns or ""],
                "ORDER BY checkpoint_id DESC LIMIT 1",
            )
            if not heads:
                self.thread(thread_id)
                raise NotFound(f"no checkpoint in namespace {ns!r} of thread {thread_id!r}")
            return heads[0]
        where, params = "thread_id = ? AND checkpoint_id = ?", [thread_id, checkpoint_id]
        if ns is not None:
            where += " AND checkpoint_ns = ?"
            params.append(ns)
        heads = self._heads(where, params, "LIMIT 1")
        if not heads:
            self.thread(thread_id)
            raise NotFound(f"no checkpoint {checkpoint_id!r} in thread {thread_id!r}")
        return heads[0]

    def checkpoint(
        self, thread_id: str, checkpoint_id: str | None = None, *, ns: str | None = None
    ) -> CheckpointView:
        """One checkpoint whole: values, next, the tasks that ran from it, metadata."""
        head = self._find(thread_id, checkpoint_id, ns)
        row = self._rows(thread_id, [head])[0]
        own = self._writes(
            thread_id, [(head.checkpoint_ns, head.checkpoint_id)], with_data=True
        ).get((head.checkpoint_ns, head.checkpoint_id), [])
        sends = self._sends(thread_id, head) if self._needs_sends(head, own) else []
        tasks = _tasks(own, sends, self._safe_decode)
        return CheckpointView(
            thread_id=thread_id,
            row=row,
            values=self.values(thread_id, head.checkpoint_id, ns=head.checkpoint_ns),
            metadata=jsonable(head.metadata),
            tasks=tasks,
            interrupts=[i for t in tasks for i in t.interrupts],
        )

    def values(
        self, thread_id: str, checkpoint_id: str | None = None, *, ns: str | None = None
    ) -> Any:
        """The state at a checkpoint as JSON data (a root-value graph's value as it is)."""
        head = self._find(thread_id, checkpoint_id, ns)
        raw = self._values(thread_id, head)
        state = {k: v for k, v in raw.items() if is_state_channel(k)}
        if set(state) == {"__root__"}:
            return jsonable(state["__root__"])
        state.pop("__root__", None)
        return jsonable(dict(sorted(state.items())))

    def export(self, thread_id: str, *, ns: str | None = None) -> Iterable[CheckpointView]:
        """Every checkpoint of the thread, oldest first, read page by page."""
        self.thread(thread_id)
        ids: list[tuple[str, str]] = []
        before: str | None = None
        while True:
            page = self.history(thread_id, before=before, limit=500, ns=ns)
            ids.extend((r.checkpoint_ns, r.checkpoint_id) for r in page)
            if len(page) < 500:
                break
            before = page[-1].checkpoint_id
        for checkpoint_ns, checkpoint_id in reversed(ids):
            yield self.checkpoint(thread_id, checkpoint_id, ns=checkpoint_ns)


def _by_namespace(keys: Iterable[Sequence[Any]]) -> dict[str, list[str]]:
    """(namespace, id) pairs grouped by namespace, ids in the order given."""
    out: dict[str, list[str]] = {}
    for space, checkpoint_id in keys:
        out.setdefault(space, []).append(checkpoint_id)
    return out


def _via_name(decoded: Any) -> str | None:
    """The node an update was made as, from foldgraph's `__via__` record."""
    try:
        task = decoded[0][0]
        name = task.get("name") if isinstance(task, dict) else getattr(task, "name", None)
        return name if isinstance(name, str) else None
    except (TypeError, IndexError, KeyError, AttributeError):
        return None


def _tasks(writes: Sequence[WriteRow], sends: Sequence[str], decode: Any) -> tuple[TaskView, ...]:
    names = task_names(writes, sends)
    grouped: dict[str, list[WriteRow]] = {}
    for w in writes:
        if w.task_id == NULL_TASK or w.task_id.startswith(VIA):
            continue
        grouped.setdefault(w.task_id, []).append(w)
    out = []
    for task_id, rows in grouped.items():
        error = None
        interrupts: list[Any] = []
        written: list[list[Any]] = []
        for w in sorted(rows, key=lambda r: r.idx):
            if w.channel == ERROR:
                error = jsonable(decode(w.typ, w.data))
            elif w.channel == INTERRUPT:
                value = decode(w.typ, w.data)
                items = value if isinstance(value, list | tuple) else [value]
                interrupts.extend(jsonable(i) for i in items)
            elif is_state_channel(w.channel) or w.channel.startswith("branch:"):
                written.append([w.channel, jsonable(decode(w.typ, w.data))])
        out.append(
            TaskView(
                id=task_id,
                name=names.get(task_id) or "?",
                path=rows[0].task_path,
                writes=written,
                error=error,
                interrupts=interrupts,
            )
        )
    return tuple(out)


def _text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, default=str)
