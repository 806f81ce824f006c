"""How a user node is called: sync or async function, or Runnable, with injected parameters."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

import attrs
from langchain_core.runnables import Runnable

from foldgraph.errors import NodeError

__all__ = ["NodeAction", "action_for", "injected", "node_name", "task_injections"]

_INJECTABLE = ("config", "runtime", "writer", "store", "previous")
NODE_ERROR = "__pregel_node_error"
"""Config key under which an error handler's task carries the `NodeError` it handles."""


def node_name(obj: Any) -> str:
    """The name LangGraph would give a node added without one."""
    if isinstance(obj, Runnable):
        return obj.get_name()
    name = getattr(obj, "__name__", None)
    if name is None:
        name = type(obj).__name__
    return name


def _is_async_callable(obj: Any) -> bool:
    return inspect.iscoroutinefunction(obj) or inspect.iscoroutinefunction(
        getattr(obj, "__call__", None)  # noqa: B004
    )


def _injections(func: Callable[..., Any]) -> tuple[str, ...]:
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return ()
    return tuple(
        p.name
        for p in params[1:]
        if p.name in _INJECTABLE
        or (p.name == "error" and p.annotation in (NodeError, "NodeError", "errors.NodeError"))
    )


_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
_TASK_INJECTIONS: dict[Any, tuple[str, ...]] = {}


def task_injections(func: Callable[..., Any]) -> tuple[str, ...]:
    """What a functional-API task wants injected: as LangGraph, any parameter (the first
    too) named like a node's injected ones, unless the call passes it itself."""
    try:
        return _TASK_INJECTIONS[func]
    except (KeyError, TypeError):
        pass
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return ()
    names = tuple(
        p.name
        for p in params
        if p.kind in _KINDS
        and (
            p.name in _INJECTABLE
            or (p.name == "error" and p.annotation in (NodeError, "NodeError", "errors.NodeError"))
        )
    )
    try:
        _TASK_INJECTIONS[func] = names
    except TypeError:
        pass
    return names


def injected(inject: tuple[str, ...], scope: Any) -> dict[str, Any]:
    """The values of the injected parameters `inject`, read from a task's `scope`."""
    kwargs: dict[str, Any] = {}
    for param in inject:
        if param == "config":
            kwargs["config"] = scope.config
        elif param == "runtime":
            kwargs["runtime"] = scope.runtime
        elif param == "writer":
            kwargs["writer"] = scope.runtime.stream_writer
        elif param == "store":
            kwargs["store"] = scope.runtime.store
        elif param == "previous":
            kwargs["previous"] = scope.runtime.previous
        elif param == "error":
            # Given to error handlers; any other node typing `error: NodeError` gets None.
            kwargs["error"] = scope.config.get("configurable", {}).get(NODE_ERROR)
    return kwargs


@attrs.frozen(slots=True)
class NodeAction:
    """A node's callable, normalised: which form it has and what it wants injected."""

    name: str
    target: Any = attrs.field(eq=False)
    is_async: bool = False
    is_runnable: bool = False
    inject: tuple[str, ...] = ()
    is_subgraph: bool = False
    atarget: Any = attrs.field(default=None, eq=False)
    """The async twin of a sync `target` (a `RunnableCallable(func, afunc)`), for `acall`."""
    ainject: tuple[str, ...] = ()
    recurse: bool = False
    """A Runnable the function returns is invoked with the node's input (`RunnableCallable`'s
    `recurse`, which LangGraph's function nodes have)."""

    def _kwargs(self, scope: Any) -> dict[str, Any]:
        return injected(self.inject, scope)

    def call(self, state: Any, scope: Any) -> Any:
        """Call the node; `scope` gives `config` and `runtime`, read only if the node wants them."""
        if self.is_runnable:
            return self.target.invoke(state, scope.config)
        if self.is_async:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".\n'
                "Either initialize with a synchronous function or invoke via the async API "
                "(ainvoke, astream, etc.)"
            )
        if self.inject:
            out = self.target(state, **self._kwargs(scope))
        else:
            out = self.target(state)
        if self.recurse and isinstance(out, Runnable):
            return out.invoke(state, scope.config)
        return out

    async def acall(self, state: Any, scope: Any) -> Any:
        if self.is_runnable:
            return await self.target.ainvoke(state, scope.config)
        if self.atarget is not None:
            if self.ainject:
                out = await self.atarget(state, **injected(self.ainject, scope))
            else:
                out = await self.atarget(state)
            if self.recurse and isinstance(out, Runnable):
                return await out.ainvoke(state, scope.config)
            return out
        if self.is_async:
            if self.inject:
                out = await self.target(state, **self._kwargs(scope))
            else:
                out = await self.target(state)
            if self.recurse and isinstance(out, Runnable):
                return await out.ainvoke(state, scope.config)
            return out
        import contextvars

        ctx = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(
            None, lambda: ctx.run(self.call, state, scope)
        )


def action_for(obj: Any, name: str, *, is_subgraph: bool = False) -> NodeAction:
    """Normalise a node given to `add_node` (`is_subgraph`: the builder saw a compiled graph)."""
    as_functions = getattr(type(obj), "_as_node_functions", None)
    functions = as_functions(obj) if as_functions is not None else None
    if functions is not None:
        # A `RunnableCallable`: what LangGraph makes of a function given as a node, so
        # called as one, with the node's own chain run (and no second one inside it).
        func, afunc, recurse = functions
        if func is None:
            return NodeAction(
                name=name, target=afunc, is_async=True, inject=_injections(afunc), recurse=recurse
            )
        return NodeAction(
            name=name,
            target=func,
            inject=_injections(func),
            atarget=afunc,
            ainject=_injections(func),  # LangGraph injects what `func` declares into both
            recurse=recurse,
        )
    if isinstance(obj, Runnable):
        return NodeAction(name=name, target=obj, is_runnable=True, is_subgraph=is_subgraph)
    if not callable(obj):
        raise TypeError(
            f"Node '{name}' must be a function, a coroutine function or a Runnable; "
            f"got {type(obj).__name__}."
        )
    return NodeAction(
        name=name,
        target=obj,
        is_async=_is_async_callable(obj),
        inject=_injections(obj),
    )
