"""A checkpoint built by hand from `empty_checkpoint()`, as LangGraph's saver docs do, and put."""

from __future__ import annotations

from foldgraph.checkpoint.base import empty_checkpoint
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.checkpoint.sqlite import SqliteSaver


def _put_and_read(saver: object) -> None:
    cp = empty_checkpoint()
    version = saver.get_next_version(None, None)  # type: ignore[attr-defined]
    cp["channel_values"]["x"] = [1]
    cp["channel_versions"]["x"] = version
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    saved = saver.put(config, cp, {"step": -1}, {"x": version})  # type: ignore[attr-defined]
    assert saved["configurable"]["checkpoint_id"] == cp["id"]
    got = saver.get_tuple({"configurable": {"thread_id": "t"}}).checkpoint  # type: ignore[attr-defined]
    assert got["id"] == cp["id"]
    assert got["channel_values"] == {"x": [1]}
    assert got["channel_versions"] == {"x": version}
    assert got["versions_seen"] == {}
    assert got["updated_channels"] is None  # no step made it: not an empty list


def test_in_memory_saver() -> None:
    _put_and_read(InMemorySaver())


def test_sqlite_saver(tmp_path: object) -> None:
    with SqliteSaver.from_conn_string(str(tmp_path / "cp.db")) as saver:  # type: ignore[operator]
        _put_and_read(saver)
