"""The functional API: `@entrypoint` makes a workflow from a function, `@task` a unit of it.

>>> @task
... def double(x: int) -> int:
...     return 2 * x
>>> @entrypoint()
... def workflow(numbers: list[int]) -> list[int]:
...     futures = [double(n) for n in numbers]  # run in parallel
...     return [f.result() for f in futures]
>>> workflow.invoke([1, 2, 3])
[2, 4, 6]

An entrypoint is a `Pregel`: a run is a thread of checkpoints like any graph's,
so streams, `get_state`, history, time travel and interrupts work as for a
`StateGraph`. A task called inside it is a child task whose result is saved on
the checkpoint: resuming after an interrupt does not run it again.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, Generic, TypeVar, overload

from foldgraph._deprecated import renamed_parameter
from foldgraph.func._graph import EntrypointGraph, Final, build
from foldgraph.pregel._call import CACHE_NS, SyncAsyncFuture, call, identifier
from foldgraph.types import CachePolicy, RetryPolicy, TimeoutPolicy, ensure_valid_checkpointer

__all__ = ("entrypoint", "task")

P = TypeVar("P")
T = TypeVar("T")
ContextT = TypeVar("ContextT")

_SYNC_TIMEOUT = (
    "Node timeouts are only supported for async nodes because sync Python "
    "execution cannot be safely cancelled in-process."
)


def _is_async(func: Any) -> bool:
    return inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(
        getattr(func, "__call__", None)  # noqa: B004
    )


class _TaskFunction(Generic[T]):
    """A function made a task: calling it inside a run starts it and returns a future."""

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        retry_policy: Sequence[RetryPolicy],
        cache_policy: CachePolicy | None = None,
        timeout: TimeoutPolicy | None = None,
        name: str | None = None,
    ) -> None:
        self.func = func
        self.retry_policy = retry_policy
        self.cache_policy = cache_policy
        self.timeout = timeout
        self.name = name
        functools.update_wrapper(self, func)
        if name is not None:
            self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> SyncAsyncFuture[T]:
        return call(
            self.func,
            args,
            kwargs,
            retry_policy=self.retry_policy,
            cache_policy=self.cache_policy,
            name=self.name,
            timeout=self.timeout,
        )

    def clear_cache(self, cache: Any) -> None:
        """Forget this task's cached results in `cache`."""
        if self.cache_policy is not None:
            cache.clear(((CACHE_NS, identifier(self.func) or "__dynamic__"),))

    async def aclear_cache(self, cache: Any) -> None:
        if self.cache_policy is not None:
            await cache.aclear(((CACHE_NS, identifier(self.func) or "__dynamic__"),))


@overload
def task(
    __func_or_none__: None = None,
    *,
    name: str | None = None,
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
    cache_policy: CachePolicy | None = None,
    timeout: float | timedelta | TimeoutPolicy | None = None,
    **kwargs: Any,
) -> Callable[[Callable[..., Any]], _TaskFunction[Any]]: ...


@overload
def task(__func_or_none__: Callable[..., Awaitable[T]]) -> _TaskFunction[T]: ...


@overload
def task(__func_or_none__: Callable[..., T]) -> _TaskFunction[T]: ...


def task(
    __func_or_none__: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
    cache_policy: CachePolicy | None = None,
    timeout: float | timedelta | TimeoutPolicy | None = None,
    **kwargs: Any,
) -> Any:
    """Make a function a task: called inside an entrypoint (or a graph node), it returns a
    future and runs in parallel with the other tasks called before the result is needed.

    >>> @task(retry_policy=RetryPolicy(max_attempts=3))
    ... def fetch(url: str) -> str: ...
    """
    retry_policy = renamed_parameter(kwargs, "retry", "retry_policy", retry_policy, since=(0, 5))
    if kwargs:
        raise TypeError(f"task() got unexpected keyword arguments: {sorted(kwargs)}")
    policy = TimeoutPolicy.coerce(timeout)
    policies: tuple[RetryPolicy, ...] = (
        ()
        if retry_policy is None
        else (retry_policy,)
        if isinstance(retry_policy, RetryPolicy)
        else tuple(retry_policy)
    )

    def decorator(func: Callable[..., Any]) -> _TaskFunction[Any]:
        if not callable(func):
            raise TypeError(
                f"@task decorates a function or a coroutine function; got "
                f"{type(func).__name__} {func!r}."
            )
        if policy is not None and not _is_async(func):
            label = name or getattr(func, "__name__", type(func).__name__)
            raise ValueError(f"{_SYNC_TIMEOUT} Task {label!r} is sync.")
        return _TaskFunction(
            func, retry_policy=policies, cache_policy=cache_policy, timeout=policy, name=name
        )

    if __func_or_none__ is not None:
        return decorator(__func_or_none__)
    return decorator


R = TypeVar("R")
S = TypeVar("S")


class entrypoint(Generic[ContextT]):
    """Make a function a workflow: `@entrypoint(checkpointer=...)` over a function of one input.

    The function may also ask for `config`, `previous` (what the last run on the
    thread returned or saved), `runtime`, `store` and `writer`. Return
    `entrypoint.final(value=..., save=...)` to save something other than what
    is returned.
    """

    final = Final

    def __init__(
        self,
        checkpointer: Any = None,
        store: Any = None,
        cache: Any = None,
        context_schema: type[ContextT] | None = None,
        cache_policy: CachePolicy | None = None,
        retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
        timeout: float | timedelta | TimeoutPolicy | None = None,
        **kwargs: Any,
    ) -> None:
        context_schema = renamed_parameter(
            kwargs, "config_schema", "context_schema", context_schema, since=(1, 0)
        )
        retry_policy = renamed_parameter(
            kwargs, "retry", "retry_policy", retry_policy, since=(0, 5)
        )
        if kwargs:
            raise TypeError(f"entrypoint() got unexpected keyword arguments: {sorted(kwargs)}")
        self.checkpointer = ensure_valid_checkpointer(checkpointer)
        self.store = store
        self.cache = cache
        self.cache_policy = cache_policy
        self.retry_policy = retry_policy
        self.timeout = TimeoutPolicy.coerce(timeout)
        self.context_schema = context_schema

    def __call__(self, func: Callable[..., Any]) -> EntrypointGraph:
        """The workflow graph of `func`."""
        if inspect.isgeneratorfunction(func) or inspect.isasyncgenfunction(func):
            raise NotImplementedError("Generators are not supported in the Functional API.")
        if not callable(func):
            raise TypeError(
                f"@entrypoint() decorates a function or a coroutine function; got "
                f"{type(func).__name__} {func!r}."
            )
        if not inspect.signature(func).parameters:
            raise ValueError("Entrypoint function must have at least one parameter")
        if self.timeout is not None and not _is_async(func):
            raise ValueError(f"{_SYNC_TIMEOUT} Node {func.__name__!r} is sync.")
        return build(
            func,
            checkpointer=self.checkpointer,
            store=self.store,
            cache=self.cache,
            context_schema=self.context_schema,
            cache_policy=self.cache_policy,
            retry_policy=self.retry_policy,
            timeout=self.timeout,
        )
