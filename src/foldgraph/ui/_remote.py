"""A running LangGraph-compatible server read through `langgraph-sdk` (`--url`).

The server's thread API gives what the tables give: `threads.search` for the
threads, `threads.get_history` (newest first, `before` a checkpoint) for
history pages, `threads.get_state` for one checkpoint with its tasks. The
API lists the root graph's checkpoints only; a subgraph's show as the tasks
of its parent's step. A thread's checkpoint count is not in the API, so
`checkpoints` is null here. The server's own statuses map to the model's:
idle -> done (or running when tasks are left), busy -> running,
interrupted -> interrupted, error -> failed.
"""

from __future__ import annotations

from typing import Any

from foldgraph.ui._jsonable import jsonable
from foldgraph.ui.errors import NotFound, ReadError
from foldgraph.ui.records import (
    DONE,
    FAILED,
    INTERRUPTED,
    RUNNING,
    CheckpointView,
    HistoryRow,
    TaskView,
    ThreadRow,
)

__all__ = ["RemoteSource"]

_STATUS = {"busy": RUNNING, "interrupted": INTERRUPTED, "error": FAILED}


def _checkpoint_id(state: dict[str, Any]) -> str:
    return str((state.get("checkpoint") or {}).get("checkpoint_id"))


def _parent_id(state: dict[str, Any]) -> str | None:
    parent = state.get("parent_checkpoint") or {}
    return parent.get("checkpoint_id")


def _writes(parent: dict[str, Any] | None) -> dict[str, list[str]]:
    """node -> state keys, from the finished tasks of the parent checkpoint."""
    out: dict[str, list[str]] = {}
    for task in (parent or {}).get("tasks") or ():
        result = task.get("result")
        if isinstance(result, dict):
            keys = out.setdefault(task["name"], [])
            keys.extend(k for k in result if k not in keys)
    return {k: sorted(v) for k, v in sorted(out.items())}


_ROLES = frozenset({"human", "ai", "tool", "system", "function", "chat", "remove"})


def _tidy(value: Any) -> Any:
    """JSON from the API shaped as the tables' reader shapes it: a message's unset
    fields (`name: null`, `additional_kwargs: {}`...) are left out."""
    if isinstance(value, list):
        return [_tidy(v) for v in value]
    if not isinstance(value, dict):
        return value
    if value.get("type") in _ROLES and "content" in value:
        out = {"type": value["type"]}
        for key, item in value.items():
            if key == "type" or (item in (None, {}, []) and key not in ("content", "id")):
                continue
            out[key] = _tidy(item)
        return out
    return {k: _tidy(v) for k, v in value.items()}


def _interrupt(value: Any) -> Any:
    """An interrupt as the tables' reader shows it (the API sends `{value, id}`)."""
    data = jsonable(value)
    if isinstance(data, dict) and "value" in data and "$type" not in data:
        return {"$type": "Interrupt", "value": data["value"], "id": data.get("id")}
    return data


class RemoteSource:
    """The read model over a server's HTTP API (read-only: nothing is posted)."""

    kind = "server"
    writable = False

    def __init__(self, url: str) -> None:
        try:
            from langgraph_sdk import get_sync_client
        except ImportError:
            raise ReadError(
                "reading a server needs langgraph-sdk: pip install 'foldgraph[ui]'"
            ) from None
        self.url = url.rstrip("/")
        self.client = get_sync_client(url=self.url)
        try:
            self.client.http.get("/ok")
        except Exception as exc:
            raise ReadError(f"no LangGraph-compatible server answers at {url}: {exc}") from None

    def close(self) -> None:
        self.client.http.client.close()

    def _call(self, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if getattr(getattr(exc, "response", None), "status_code", None) == 404:
                raise NotFound(what) from None
            raise ReadError(f"{what}: {exc}") from None

    # -- the read model -------------------------------------------------------------------

    def threads(
        self,
        *,
        search: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[ThreadRow]:
        found = self._call(
            "listing threads",
            self.client.threads.search,
            limit=1000,
            offset=0,
            sort_by="updated_at",
            sort_order="desc",
        )
        rows: list[ThreadRow] = []
        skipped = 0
        needle = search.lower() if search else None
        for thread in found:
            row = self._thread_row(thread)
            text = f"{row.thread_id} {row.metadata}".lower()
            if (needle and needle not in text) or (status and row.status != status):
                continue
            if skipped < offset:
                skipped += 1
                continue
            rows.append(row)
            if len(rows) >= limit:
                break
        return rows

    def _thread_row(self, thread: dict[str, Any]) -> ThreadRow:
        thread_id = str(thread["thread_id"])
        state = self._call(
            f"no thread {thread_id!r} on this server", self.client.threads.get_state, thread_id
        )
        status = _STATUS.get(thread.get("status", ""), DONE)
        if status == DONE and state.get("next"):
            status = RUNNING
        # The thread's own metadata (set when it was created), then its newest checkpoint's.
        meta = {**(thread.get("metadata") or {}), **(state.get("metadata") or {})}
        return ThreadRow(
            thread_id=thread_id,
            checkpoints=None,  # type: ignore[arg-type]
            last_step=meta.get("step"),
            status=status,
            updated_at=str(thread.get("updated_at") or state.get("created_at") or "") or None,
            metadata=jsonable(meta),
            checkpoint_id=_checkpoint_id(state) if state.get("checkpoint") else None,
        )

    def thread(self, thread_id: str) -> ThreadRow:
        thread = self._call(
            f"no thread {thread_id!r} on this server", self.client.threads.get, thread_id
        )
        return self._thread_row(thread)

    def _row(self, state: dict[str, Any], parent: dict[str, Any] | None) -> HistoryRow:
        meta = state.get("metadata") or {}
        return HistoryRow(
            checkpoint_id=_checkpoint_id(state),
            parent_checkpoint_id=_parent_id(state),
            checkpoint_ns=(state.get("checkpoint") or {}).get("checkpoint_ns", ""),
            step=meta.get("step"),
            source=meta.get("source"),
            next=tuple(state.get("next") or ()),
            writes=_writes(parent) if parent is not None else {},
            created_at=state.get("created_at"),
            parents=dict(meta.get("parents") or {}),
        )

    def history(
        self,
        thread_id: str,
        *,
        before: str | None = None,
        limit: int = 50,
        ns: str | None = None,
    ) -> list[HistoryRow]:
        if ns:
            return []  # the API lists the root graph's checkpoints only
        kwargs: dict[str, Any] = {"limit": limit + 1}
        if before:
            kwargs["before"] = {"checkpoint_id": before}
        states = self._call(
            f"no thread {thread_id!r} on this server",
            self.client.threads.get_history,
            thread_id,
            **kwargs,
        )
        rows = []
        for i, state in enumerate(states[:limit]):
            parent = states[i + 1] if i + 1 < len(states) else None
            if parent is not None and _checkpoint_id(parent) != _parent_id(state):
                parent = self._state(thread_id, _parent_id(state))
            rows.append(self._row(state, parent))
        return rows

    def _state(self, thread_id: str, checkpoint_id: str | None) -> dict[str, Any] | None:
        if checkpoint_id is None:
            return None
        return self._call(
            f"no checkpoint {checkpoint_id!r} in thread {thread_id!r}",
            self.client.threads.get_state,
            thread_id,
            checkpoint_id=checkpoint_id,
        )

    def checkpoint(
        self, thread_id: str, checkpoint_id: str | None = None, *, ns: str | None = None
    ) -> CheckpointView:
        if checkpoint_id is None:
            state = self._call(
                f"no thread {thread_id!r} on this server",
                self.client.threads.get_state,
                thread_id,
            )
        else:
            state = self._state(thread_id, checkpoint_id)
        assert state is not None
        row = self._row(state, self._state(thread_id, _parent_id(state)))
        tasks = tuple(
            TaskView(
                id=str(t.get("id")),
                name=str(t.get("name")),
                path="",
                writes=[[k, _tidy(jsonable(v))] for k, v in (t.get("result") or {}).items()],
                error=t.get("error"),
                interrupts=[_interrupt(i) for i in t.get("interrupts") or ()],
            )
            for t in state.get("tasks") or ()
        )
        return CheckpointView(
            thread_id=thread_id,
            row=row,
            values=_tidy(jsonable(state.get("values"))),
            metadata=jsonable(state.get("metadata") or {}),
            tasks=tasks,
            interrupts=[i for t in tasks for i in t.interrupts],
        )

    def values(
        self, thread_id: str, checkpoint_id: str | None = None, *, ns: str | None = None
    ) -> Any:
        return self.checkpoint(thread_id, checkpoint_id).values

    def export(self, thread_id: str, *, ns: str | None = None) -> Any:
        self.thread(thread_id)
        ids: list[str] = []
        before: str | None = None
        while True:
            page = self.history(thread_id, before=before, limit=200, ns=ns)
            ids.extend(r.checkpoint_id for r in page)
            if len(page) < 200:
                break
            before = page[-1].checkpoint_id
        for checkpoint_id in reversed(ids):
            yield self.checkpoint(thread_id, checkpoint_id)
