"""`RunnableCallable`: a function (and optional async twin) as a Runnable, with
LangGraph's keyword injection (`config`, `runtime`, `writer`, `store`)."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config

__all__ = ["RunnableCallable", "RunnableLike"]

RunnableLike = Runnable | Callable[..., Any]
"""What may be used as a node: a Runnable or a (sync or async) callable."""

_INJECTABLE = ("config", "runtime", "writer", "store")
_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


class RunnableCallable(Runnable):
    """Call `func` (or `afunc` from async code) with the input, injecting run objects.

    Parameters named `config`, `runtime`, `writer` or `store` receive the
    config, the run's `Runtime`, its custom stream writer and its store.
    With `recurse`, a Runnable returned by the function is invoked in turn.
    With `explode_args`, the input is `(args, kwargs)` to spread into the call.
    """

    def __init__(
        self,
        func: Callable[..., Any] | None,
        afunc: Callable[..., Awaitable[Any]] | None = None,
        *,
        name: str | None = None,
        tags: Sequence[str] | None = None,
        trace: bool = True,
        recurse: bool = True,
        explode_args: bool = False,
        **kwargs: Any,
    ) -> None:
        if func is None and afunc is None:
            raise ValueError("At least one of func or afunc must be provided.")
        if name is None:
            named = getattr(func or afunc, "__name__", None)
            name = None if named == "<lambda>" else named
        self.name = name
        self.func = func
        self.afunc = afunc
        self.tags = tags
        self.trace = trace
        self.recurse = recurse
        self.explode_args = explode_args
        self.kwargs = kwargs
        params = inspect.signature(func or afunc).parameters  # type: ignore[arg-type]
        self.func_accepts = tuple(
            p for p in _INJECTABLE if p in params and params[p].kind in _KINDS
        )

    def _as_node_functions(self) -> tuple[Any, Any, bool] | None:
        """`(func, afunc, recurse)` when a node made of this is the same as a node of the
        function itself (the shell then calls it as one); None when this adds arguments."""
        if self.kwargs or self.explode_args or type(self) is not RunnableCallable:
            return None
        return self.func, self.afunc, self.recurse

    def __repr__(self) -> str:
        return f"{self.get_name()}(tags={self.tags!r}, recurse={self.recurse!r})"

    def _call_kwargs(self, config: RunnableConfig) -> dict[str, Any]:
        kwargs = dict(self.kwargs)
        if not self.func_accepts:
            return kwargs
        from foldgraph._context import TASK_SCOPE
        from foldgraph.runtime import DEFAULT_RUNTIME

        scope = TASK_SCOPE.get()
        runtime = scope.runtime if scope is not None else DEFAULT_RUNTIME
        for param in self.func_accepts:
            if param == "config":
                kwargs["config"] = config
            elif param == "runtime":
                kwargs["runtime"] = runtime
            elif param == "writer":
                kwargs["writer"] = runtime.stream_writer
            elif param == "store":
                kwargs["store"] = runtime.store
        return kwargs

    def _args(self, input: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if self.explode_args:
            args, kwargs = input
            return tuple(args), dict(kwargs)
        return (input,), {}

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        if self.func is None:
            raise TypeError(
                f'No synchronous function provided to "{self.name}".\n'
                "Either initialize with a synchronous function or invoke via the async API "
                "(ainvoke, astream, etc.)"
            )
        config = ensure_config(config)
        args, call_kwargs = self._args(input)
        call_kwargs.update(self._call_kwargs(config))
        call_kwargs.update(kwargs)
        if self.trace:
            result = self._call_with_config(
                lambda _input: self.func(*args, **call_kwargs),  # type: ignore[misc]
                input,
                config,
                run_type=None,
            )
        else:
            result = self.func(*args, **call_kwargs)
        if self.recurse and isinstance(result, Runnable):
            return result.invoke(input, config)
        return result

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        if self.afunc is None:
            ctx = contextvars.copy_context()
            return await asyncio.get_running_loop().run_in_executor(
                None, lambda: ctx.run(self.invoke, input, config, **kwargs)
            )
        config = ensure_config(config)
        args, call_kwargs = self._args(input)
        call_kwargs.update(self._call_kwargs(config))
        call_kwargs.update(kwargs)
        if self.trace:

            async def run(_input: Any) -> Any:
                return await self.afunc(*args, **call_kwargs)  # type: ignore[misc]

            result = await self._acall_with_config(run, input, config, run_type=None)
        else:
            result = await self.afunc(*args, **call_kwargs)
        if self.recurse and isinstance(result, Runnable):
            return await result.ainvoke(input, config)
        return result
