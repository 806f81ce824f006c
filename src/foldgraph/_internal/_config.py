"""Config helpers at LangGraph's private path (`langgraph._internal._config`)."""

from __future__ import annotations

from langchain_core.runnables.config import merge_configs, patch_config

from foldgraph.utils.config import ensure_config, patch_configurable

__all__ = ["ensure_config", "merge_configs", "patch_config", "patch_configurable"]
