"""A node as declared on the builder: its spec, the defaults of `set_node_defaults`,
error-handler nodes, and what LangGraph shows or warns about a node's callable."""

from __future__ import annotations

import inspect
import typing
import warnings
from collections.abc import Sequence
from typing import Any

import attrs
from langchain_core.runnables import Runnable, RunnableConfig

from foldgraph._shell.node import _is_async_callable
from foldgraph.types import CachePolicy, Command, RetryPolicy, TimeoutPolicy


@attrs.frozen(slots=True)
class StateNodeSpec:
    """A node as declared on the builder.

    `runnable` is what LangGraph programs read (a Runnable; a function given to
    `add_node` is wrapped in a `RunnableCallable`, its `.func` or `.afunc`);
    `action` is the object given to `add_node`, which the runner calls directly.
    """

    runnable: Any = attrs.field(eq=False)
    metadata: dict[str, Any] | None
    input_schema: Any
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None
    cache_policy: CachePolicy | None
    ends: tuple[str, ...] | dict[str, str] | None = ()
    defer: bool = False
    action: Any = attrs.field(default=None, eq=False, repr=False)
    error_handler_node: str | None = None
    """The handler node that takes over when this node fails (after its retries)."""
    is_error_handler: bool = False
    timeout: TimeoutPolicy | None = None
    trace_policy: Any = None


@attrs.define(slots=True)
class _NodeDefaults:
    """What `set_node_defaults` gave; applied at compile(), per-node values winning."""

    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None
    cache_policy: CachePolicy | None = None
    error_handler: Any = None
    timeout: TimeoutPolicy | None = None


DEFAULT_ERROR_HANDLER = "__default_error_handler__"


def _check_handler(handler: Any) -> None:
    if not (callable(handler) or isinstance(handler, Runnable | dict)):
        raise TypeError(
            "Expected a Runnable, callable or dict."
            f"Instead got an unsupported type: {type(handler)}"
        )


def _handler_spec(handler: Any, name: str, input_schema: Any) -> StateNodeSpec:
    return StateNodeSpec(
        runnable=_as_runnable(handler, name),
        action=handler,
        metadata=None,
        input_schema=input_schema,
        retry_policy=None,
        cache_policy=None,
        is_error_handler=True,
    )


def _as_runnable(action: Any, name: str) -> Any:
    """The Runnable LangGraph shows for a node: Runnables as given, callables wrapped."""
    if isinstance(action, Runnable):
        return action
    from foldgraph.utils.runnable import RunnableCallable

    _warn_config_annotation(action)
    try:
        if _is_async_callable(action):
            return RunnableCallable(None, action, name=name, trace=False)
        return RunnableCallable(action, name=name, trace=False)
    except (TypeError, ValueError):  # no inspectable signature: show it as given
        return action


_CONFIG_ANNOTATIONS = (
    inspect.Parameter.empty,
    RunnableConfig,
    "RunnableConfig",
    RunnableConfig | None,
    typing.Optional[RunnableConfig],  # noqa: UP045 (the spelling users write)
    "RunnableConfig | None",
    "Optional[RunnableConfig]",
)


def _warn_config_annotation(action: Any) -> None:
    """LangGraph's warning for a node whose `config` parameter is typed as something else
    than a `RunnableConfig` (it still gets the config here)."""
    try:
        param = inspect.signature(action).parameters.get("config")
    except (TypeError, ValueError):
        return
    if param is None or param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
        return
    if any(param.annotation == ok for ok in _CONFIG_ANNOTATIONS):
        return
    warnings.warn(
        "The 'config' parameter should be typed as 'RunnableConfig' or 'RunnableConfig | "
        f"None', not '{param.annotation}'. ",
        UserWarning,
        stacklevel=4,
    )


def _command_ends(func: Any) -> tuple[str, ...]:
    """Destinations named by a `-> Command[Literal[...]]` return hint."""
    try:
        hint = typing.get_type_hints(func).get("return")
    except Exception:
        return ()
    if hint is None:
        return ()
    hints = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union,) else (hint,)
    ends: list[str] = []
    for h in hints:
        if typing.get_origin(h) is Command:
            for arg in typing.get_args(h):
                if typing.get_origin(arg) is typing.Literal:
                    ends.extend(typing.get_args(arg))
    return tuple(ends)
