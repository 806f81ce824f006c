"""Reading a running LangGraph-compatible server (through langgraph-sdk): not built yet."""

from __future__ import annotations

from typing import Any

from foldgraph.ui.errors import ReadError

__all__ = ["RemoteSource"]


def RemoteSource(url: str) -> Any:
    raise ReadError(
        f"reading a server ({url}) is not supported yet: open its database file or "
        "PostgreSQL URL instead"
    )
