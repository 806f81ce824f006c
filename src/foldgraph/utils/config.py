"""Config helpers under their older import path (`langgraph.utils.config`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ensure_config as _ensure_config

from foldgraph.config import get_config, get_store

__all__ = ["ensure_config", "get_config", "get_store", "patch_configurable"]


def ensure_config(*configs: RunnableConfig | None) -> RunnableConfig:
    """Merge configs left to right onto the current run's config (or an empty one).

    Nested `configurable` and `metadata` maps are merged key by key; the
    result always has `tags`, `metadata`, `callbacks`, `recursion_limit` and
    `configurable`.
    """
    base = _ensure_config(None)
    for config in configs:
        if not config:
            continue
        for key, value in config.items():
            if value is None:
                continue
            if key in ("configurable", "metadata"):
                base[key] = {**base.get(key, {}), **value}  # type: ignore[literal-required]
            else:
                base[key] = value  # type: ignore[literal-required]
    return base


def patch_configurable(config: RunnableConfig | None, patch: Mapping[str, Any]) -> RunnableConfig:
    """A copy of `config` with `patch` merged into its `configurable` map."""
    if config is None:
        return {"configurable": dict(patch)}
    if "configurable" not in config:
        return {**config, "configurable": dict(patch)}
    return {**config, "configurable": {**config["configurable"], **patch}}
