"""The SQLite saver's query helpers, under LangGraph's names (`langgraph.checkpoint.sqlite.utils`).

They speak foldgraph's tables (`fg_checkpoints`, `fg_writes`; see
`foldgraph.checkpoint._sql`), and `SqliteSaver` itself builds its queries
with them, so code that composes its own SQL from them reads what the saver
wrote:

>>> search_where({"configurable": {"thread_id": "t"}}, {"source": "loop"})
('WHERE thread_id = ? AND json_extract(metadata, ?) = ?', ['t', '$."source"', 'loop'])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from foldgraph.checkpoint._sql import load_pending_writes, pending_writes_sql, search_conditions
from foldgraph.checkpoint.base import get_checkpoint_id, writes_sort_key
from foldgraph.checkpoint.serde.base import SerializerProtocol

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "SerializerProtocol",
    "get_checkpoint_id",
    "load_pending_writes",
    "metadata_predicate",
    "pending_writes_sql",
    "search_where",
    "writes_sort_key",
]


def metadata_predicate(key: str, value: Any) -> tuple[str, list[Any]]:
    """A test that metadata key `key` equals `value`, as SQL over the JSON `metadata` column.

    The key is a bound parameter, never spliced into the SQL; nested values
    compare as JSON documents.
    """
    path = '$."' + key.replace('"', '""') + '"'
    if value is None:
        return "json_extract(metadata, ?) IS NULL", [path]
    if isinstance(value, bool):
        return "json_extract(metadata, ?) = ?", [path, int(value)]
    if isinstance(value, int | float | str):
        return "json_extract(metadata, ?) = ?", [path, value]
    document = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return "json(json_extract(metadata, ?)) = json(?)", [path, document]


def search_where(
    config: RunnableConfig | None,
    filter: dict[str, Any] | None,
    before: RunnableConfig | None = None,
) -> tuple[str, Sequence[Any]]:
    """The `WHERE` clause (or `''`) and parameters `SqliteSaver.list` selects checkpoints with.

    `config` picks a thread (and a namespace or checkpoint id when given),
    `filter` matches metadata keys by equality, `before` keeps strictly
    older checkpoint ids.
    """
    where, params = search_conditions(config, filter, before, metadata_predicate)
    return ("WHERE " + " AND ".join(where) if where else ""), params
