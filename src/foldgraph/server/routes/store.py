"""The long-term memory store: items, search, namespaces."""

from __future__ import annotations

routes: list = []
