"""Retry policies: which one an error matches, and the wait and runtime of the next attempt.

Shared by a node's task (`_task`) and a functional-API task call (`_call`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from foldgraph._context import TASK_SCOPE
from foldgraph.types import RetryPolicy

__all__ = ["next_attempt", "next_interval", "retry_matches"]


def retry_matches(policy: RetryPolicy, exc: Exception) -> bool:
    retry_on = policy.retry_on
    if isinstance(retry_on, type) and issubclass(retry_on, BaseException):
        return isinstance(exc, retry_on)
    if isinstance(retry_on, Sequence):
        return isinstance(exc, tuple(retry_on))
    return bool(retry_on(exc))


def next_attempt(runtime: Any, attempt: int) -> Any:
    """The runtime of a retry: `execution_info.node_attempt` counts it (1 is the first run)."""
    info = runtime.execution_info
    if info is None:
        return runtime
    runtime = runtime.override(execution_info=info.patch(node_attempt=attempt))
    scope = TASK_SCOPE.get()
    if scope is not None:
        scope.runtime = runtime  # get_runtime() inside the node sees the attempt too
    return runtime


def next_interval(policy: RetryPolicy, attempt: int) -> float:
    interval = min(
        policy.max_interval, policy.initial_interval * (policy.backoff_factor ** (attempt - 1))
    )
    if policy.jitter:
        interval += random.uniform(0, 1)
    return interval
