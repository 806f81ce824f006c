"""Functional-API task calls: a `@task` called inside a running task becomes a child task.

A call gets a deterministic identity (the checkpoint, the step, the calling
task and the call's position among that task's calls), so the same program
re-run from the same checkpoint (a resume after an interrupt, a retry) finds
the calls that already ended in the checkpoint's pending writes and returns
their results without running them again. A call that ends is recorded on its
caller's `Calls` and handed to the run with the caller's `TaskResult`; the run
saves it as the writes of the call's task (`__return__`, `__error__` or
`__interrupt__`) and streams it.

Calls run in parallel: on the thread pool in a sync run (a caller waiting on a
call that no worker has started runs it itself, so nested calls cannot
deadlock the pool), as asyncio tasks in an async run.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import hashlib
import inspect
import os
import threading
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any, Generic, TypeVar

import attrs
from langchain_core.runnables.config import merge_configs, var_child_runnable_config

from foldgraph._context import TASK_SCOPE, Scratchpad, TaskScope, interrupt_id
from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.fold import task_id
from foldgraph._kernel.names import ERROR, INTERRUPT, NS_END, NS_SEP, PUSH, RESUME, RETURN
from foldgraph._kernel.snapshot import Task
from foldgraph._shell.messages import namespace_of
from foldgraph._shell.node import injected, task_injections
from foldgraph._shell.tracing import achain_run, astream_chunk, chain_run, stream_chunk
from foldgraph.constants import CONF
from foldgraph.errors import GraphBubbleUp, GraphInterrupt
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._prepare import custom_writer, no_writer
from foldgraph.pregel._protocol import FG_TASK, CallRecord
from foldgraph.pregel._retry import next_interval, retry_matches
from foldgraph.pregel._timeout import run_with_timeout
from foldgraph.runtime import ExecutionInfo
from foldgraph.types import CachePolicy, RetryPolicy, TimeoutPolicy

__all__ = ["RETURN", "Calls", "SyncAsyncFuture", "call", "identifier"]

T = TypeVar("T")

CACHE_NS = "__pregel_ns_writes"
"""Cache namespace of task results, as LangGraph names it."""

_POOL: concurrent.futures.ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


class SyncAsyncFuture(concurrent.futures.Future[T], Generic[T]):
    """What calling a task returns: `.result()` in sync code, `await` in async code."""

    def __await__(self) -> Generator[Any, None, T]:
        return asyncio.wrap_future(self).__await__()


class _Job:
    """A call waiting for a thread: whoever claims it first (a worker or a waiter) runs it."""

    __slots__ = ("claimed", "fn", "lock")

    def __init__(self, fn: Callable[[], None]) -> None:
        self.fn = fn
        self.claimed = False
        self.lock = threading.Lock()

    def run(self) -> None:
        with self.lock:
            if self.claimed:
                return
            self.claimed = True
        self.fn()


class _CallFuture(SyncAsyncFuture[T]):
    """A sync call's future: waiting on it runs the call here if no worker has started it."""

    _job: _Job | None = None

    def result(self, timeout: float | None = None) -> T:
        if self._job is not None and not self.done():
            self._job.run()
        return super().result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        if self._job is not None and not self.done():
            self._job.run()
        return super().exception(timeout)


def _pool() -> concurrent.futures.ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = concurrent.futures.ThreadPoolExecutor(
                max_workers=min(32, (os.cpu_count() or 1) + 4), thread_name_prefix="foldgraph-call"
            )
        return _POOL


def identifier(func: Any) -> str | None:
    """`module.qualname` of a function: the cache namespace of its results."""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None)
    module = getattr(func, "__module__", None)
    if name is None or module is None:
        return None
    return f"{module}.{name}"


def task_name(func: Any) -> str:
    for candidate in (func, getattr(func, "func", None)):
        name = getattr(candidate, "__name__", None)
        if name:
            return str(name)
    return type(func).__name__


def call(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    retry_policy: Sequence[RetryPolicy] = (),
    cache_policy: CachePolicy | None = None,
    name: str | None = None,
    timeout: TimeoutPolicy | None = None,
) -> Any:
    """Start `func(*args, **kwargs)` as a child task of the running task; return its future."""
    scope = TASK_SCOPE.get()
    if scope is None or FG_TASK not in scope.config.get(CONF, {}):
        raise RuntimeError("Called get_config outside of a runnable context")
    calls = scope.calls
    if calls is None:
        calls = scope.calls = Calls(scope)
    return calls.start(func, args, kwargs, retry_policy, cache_policy, name, timeout)


class Calls:
    """The calls one running task makes, and the records of those that ended."""

    def __init__(self, scope: TaskScope, root: Calls | None = None) -> None:
        conf = scope.config[CONF]
        self.run, self.task = conf[FG_TASK]
        self.scope = scope
        self.step = scope.config.get("metadata", {}).get("langgraph_step", 0)
        self.loop = scope.loop
        self.counter = 0
        self.lock = threading.Lock()
        self.records: list[CallRecord] = root.records if root is not None else []
        self.root = root or self
        self.inflight: list[Any] = []

    # -- starting a call ------------------------------------------------------------------

    def _next_task(self, func: Any, args: Any, kwargs: Any, name: str | None) -> Task:
        with self.lock:
            index = self.counter
            self.counter += 1
        path = (PUSH, self.task.path, index, True)
        tid = task_id(self.run.snapshot.id, self.step, (PUSH, self.task.id, index))
        return Task(
            id=tid, name=name or task_name(func), path=path, triggers=(PUSH,), input=(args, kwargs)
        )

    def start(
        self,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        retry_policy: Sequence[RetryPolicy],
        cache_policy: CachePolicy | None,
        name: str | None,
        timeout: TimeoutPolicy | None = None,
    ) -> Any:
        is_async = _is_async(func)
        loop = self.loop
        if loop is None and is_async:
            raise RuntimeError("In an sync context async tasks cannot be called")
        child = self._next_task(func, args, kwargs, name)
        done = self.run._pending.get(child.id)
        if done:
            ret = next((v for c, v in done if c == RETURN), MISSING)
            if ret is not MISSING:
                # Ended in an earlier attempt of this step: its result comes from the checkpoint.
                record = self._live(CallRecord(child, (), reused=True), start=True)
                with self.root.lock:
                    self.records.append(record)
                return _resolved(ret, loop)
        if self.run.live_calls is not None:
            self._live_start(child)
        policies = tuple(retry_policy) or _graph_policies(self.run.graph)
        cache_policy = cache_policy or getattr(self.run.graph, "cache_policy", None)
        spec = _CallSpec(child, func, args, kwargs, policies, cache_policy, is_async, timeout)
        if loop is not None:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                future: Any = loop.create_task(self._arun(spec))
            else:
                future = asyncio.run_coroutine_threadsafe(self._arun(spec), loop)
            self.inflight.append(future)
            return future
        fut: _CallFuture[Any] = _CallFuture()
        job = _Job(functools.partial(contextvars.copy_context().run, self._run, spec, fut))
        fut._job = job
        _pool().submit(job.run)
        self.inflight.append(fut)
        return fut

    # -- a call's scope ---------------------------------------------------------------------

    def _scope_for(self, child: Task) -> TaskScope:
        parent = self.scope
        conf = parent.config.get(CONF, {})
        parent_ns = conf.get("checkpoint_ns", "")
        ns = f"{parent_ns}{NS_SEP}{child.name}" if parent_ns else child.name
        task_ns = f"{ns}{NS_END}{child.id}"
        metadata = {
            **parent.config.get("metadata", {}),
            "langgraph_step": self.step,
            "langgraph_node": child.name,
            "langgraph_triggers": child.triggers,
            "langgraph_path": child.path,
            "langgraph_checkpoint_ns": task_ns,
        }
        config = {
            **parent.config,
            CONF: {**conf, "checkpoint_ns": task_ns, FG_TASK: (self.run, child)},
            "metadata": metadata,
            "run_name": child.name,
        }
        runtime = parent.runtime
        sink = self.run.sink
        if sink is not None and runtime.stream_writer is not no_writer:
            # Streamed with its subgraphs: what the call writes carries the namespace
            # of the task that called it (as in LangGraph).
            runtime = runtime.override(stream_writer=custom_writer(sink, namespace_of(task_ns)))
        info = runtime.execution_info
        if info is not None:
            runtime = runtime.override(
                execution_info=info.patch(
                    checkpoint_ns=task_ns,
                    task_id=child.id,
                    node_attempt=1,
                    node_first_attempt_time=time.time(),
                )
            )
        else:
            runtime = runtime.override(
                execution_info=ExecutionInfo(
                    checkpoint_id=self.run.checkpoint_id(),
                    checkpoint_ns=task_ns,
                    task_id=child.id,
                    thread_id=self.run.thread_id,
                    node_first_attempt_time=time.time(),
                )
            )
        pad = Scratchpad(
            interrupt_id(task_ns),
            self.run.resume_values(child),
            null_resume=self.run.null_resume,
        )
        return TaskScope(config, runtime, pad, loop=self.loop)

    # -- running a call ---------------------------------------------------------------------

    def _run(self, spec: _CallSpec, fut: _CallFuture[Any]) -> None:
        scope = self._scope_for(spec.task)
        traced = None
        if scope.config.get("callbacks"):
            traced, scope.config = chain_run(
                scope.config, _traced_inputs(spec), spec.task.name, child_tag="seq:step:1"
            )
        t1 = TASK_SCOPE.set(scope)
        t2 = var_child_runnable_config.set(scope.config)  # type: ignore[arg-type]
        value: Any = None
        error: BaseException | None = None
        cached = False
        try:
            value, cached = self._attempts(spec, scope)
        except BaseException as exc:
            error = exc
        finally:
            var_child_runnable_config.reset(t2)
            TASK_SCOPE.reset(t1)
        if scope.calls is not None:
            scope.calls.wait()
        if traced is not None:
            if error is None:
                stream_chunk(traced, value)  # (`on_chain_stream` of the call, as LangGraph)
                traced.on_chain_end(value)
            else:
                traced.on_chain_error(error)
        self._record(spec, scope, value, error, cached)
        if error is None:
            fut.set_result(value)
        else:
            fut.set_exception(error)

    async def _arun(self, spec: _CallSpec) -> Any:
        scope = self._scope_for(spec.task)
        traced = None
        if scope.config.get("callbacks"):
            traced, scope.config = await achain_run(
                scope.config, _traced_inputs(spec), spec.task.name, child_tag="seq:step:1"
            )
        TASK_SCOPE.set(scope)
        var_child_runnable_config.set(scope.config)  # type: ignore[arg-type]
        value: Any = None
        error: BaseException | None = None
        cached = False
        try:
            value, cached = await self._aattempts(spec, scope)
        except asyncio.CancelledError as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        except BaseException as exc:
            error = exc
        if scope.calls is not None:
            await scope.calls.await_all()
        if traced is not None:
            if error is None:
                await astream_chunk(traced, value)
                await traced.on_chain_end(value)
            else:
                await traced.on_chain_error(error)
        self._record(spec, scope, value, error, cached)
        if error is not None:
            raise error
        return value

    def _cache(self, spec: _CallSpec) -> tuple[Any, Any]:
        cache = self.run.graph.cache
        if spec.cache_policy is None or cache is None:
            return None, None
        raw = spec.cache_policy.key_func(*spec.args, **spec.kwargs)
        digest = hashlib.blake2b(
            raw if isinstance(raw, bytes) else str(raw).encode(), digest_size=16
        ).hexdigest()
        return cache, ((CACHE_NS, identifier(spec.func) or "__dynamic__"), digest)

    def _attempts(self, spec: _CallSpec, scope: TaskScope) -> tuple[Any, bool]:
        cache, key = self._cache(spec)
        if key is not None:
            hit = cache.get([key])
            if key in hit:
                return hit[key], True
        attempt = 0
        while True:
            attempt += 1
            _mark_attempt(scope, attempt)
            try:
                value = spec.func(*spec.args, **_kwargs(spec, scope))
                break
            except GraphBubbleUp:
                raise
            except Exception as exc:
                policy = next((p for p in spec.policies if retry_matches(p, exc)), None)
                if policy is None or attempt >= policy.max_attempts:
                    _note(exc, spec.task)
                    raise
                time.sleep(next_interval(policy, attempt))
        if key is not None:
            cache.set({key: (value, spec.cache_policy.ttl)})
        return value, False

    async def _aattempts(self, spec: _CallSpec, scope: TaskScope) -> tuple[Any, bool]:
        cache, key = self._cache(spec)
        if key is not None:
            hit = cache.get([key])
            if key in hit:
                return hit[key], True
        attempt = 0
        while True:
            attempt += 1
            _mark_attempt(scope, attempt)
            try:
                if spec.is_async and spec.timeout is not None:
                    value = await run_with_timeout(
                        spec.task.name,
                        spec.timeout,
                        functools.partial(_timed, spec, scope),
                        scope.runtime,
                    )
                elif spec.is_async:
                    value = await spec.func(*spec.args, **_kwargs(spec, scope))
                else:
                    ctx = contextvars.copy_context()
                    value = await asyncio.get_running_loop().run_in_executor(
                        None,
                        functools.partial(ctx.run, spec.func, *spec.args, **_kwargs(spec, scope)),
                    )
                break
            except GraphBubbleUp:
                raise
            except Exception as exc:
                policy = next((p for p in spec.policies if retry_matches(p, exc)), None)
                if policy is None or attempt >= policy.max_attempts:
                    _note(exc, spec.task)
                    raise
                await asyncio.sleep(next_interval(policy, attempt))
        if key is not None:
            cache.set({key: (value, spec.cache_policy.ttl)})
        return value, False

    def _record(
        self,
        spec: _CallSpec,
        scope: TaskScope,
        value: Any,
        error: BaseException | None,
        cached: bool,
    ) -> None:
        writes: list[tuple[str, Any]] = []
        if error is None:
            writes.append((RETURN, value))
        elif isinstance(error, GraphInterrupt):
            pad = scope.scratchpad
            own = _own_interrupt_ids(pad)
            mine = tuple(i for i in error.args[0] if getattr(i, "id", None) in own)
            if not mine:
                return  # raised by a call this one made: recorded there
            if pad.resume:
                writes.append((RESUME, list(pad.resume)))
            writes.append((INTERRUPT, mine))
        elif isinstance(error, GraphBubbleUp):
            return
        else:
            writes.append((ERROR, repr(error)))
        record = self._live(CallRecord(spec.task, tuple(writes), cached))
        with self.root.lock:
            self.records.append(record)

    def _live_start(self, task: Task) -> None:
        run = self.run
        for chunk in emit.task_start(run.ns, run.modes, task, self.step):
            run.live_calls(chunk)

    def _live(self, record: CallRecord, *, start: bool = False) -> CallRecord:
        """Send a call's chunks to the caller now, when the run streams calls live."""
        run = self.run
        put = run.live_calls
        if put is None:
            return record
        if start:
            self._live_start(record.task)
        for chunk in emit.call_end(run.ns, run.modes, record, self.step):
            put(chunk)
        return attrs.evolve(record, streamed=True)

    # -- waiting for calls at the end of the calling task -------------------------------------

    def wait(self) -> None:
        """Let every call this task started end (their results are saved even if unused)."""
        while self.inflight:
            future = self.inflight.pop(0)
            try:
                future.result()
            except BaseException:
                pass

    async def await_all(self) -> None:
        while self.inflight:
            future = self.inflight.pop(0)
            try:
                if isinstance(future, asyncio.Future):
                    await future
                else:
                    await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                if future.cancelled():
                    continue
                raise
            except BaseException:
                pass

    def cancel(self) -> None:
        """Cancel calls still running (the run was cancelled)."""
        for future in self.inflight:
            future.cancel()


class _CallSpec:
    __slots__ = (
        "args",
        "cache_policy",
        "func",
        "is_async",
        "kwargs",
        "policies",
        "task",
        "timeout",
    )

    def __init__(
        self,
        task: Task,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        policies: tuple[RetryPolicy, ...],
        cache_policy: CachePolicy | None,
        is_async: bool,
        timeout: TimeoutPolicy | None = None,
    ) -> None:
        self.timeout = timeout
        self.task = task
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.policies = policies
        self.cache_policy = cache_policy
        self.is_async = is_async


async def _timed(spec: _CallSpec, scope: TaskScope, runtime: Any, progress: Any) -> Any:
    scope.runtime = runtime  # heartbeat() inside the task reaches the attempt's clock
    if progress is not None:  # callback events under the call count as progress
        config = var_child_runnable_config.get()
        var_child_runnable_config.set(merge_configs(config, {"callbacks": [progress]}))
    return await spec.func(*spec.args, **_kwargs(spec, scope))


def _traced_inputs(spec: _CallSpec) -> Any:
    """What a tracer records as a call's inputs: its arguments by parameter name,
    defaults filled in (as LangGraph)."""
    try:
        bound = inspect.signature(spec.func).bind(*spec.args, **spec.kwargs)
    except (TypeError, ValueError):
        return {"args": list(spec.args), "kwargs": spec.kwargs}
    bound.apply_defaults()
    return dict(bound.arguments)


def _kwargs(spec: _CallSpec, scope: TaskScope) -> dict[str, Any]:
    """The call's keyword arguments, with what the task function wants injected (as
    LangGraph: `config`, `runtime`, `store`, `writer`, `previous`) unless given."""
    inject = task_injections(spec.func)
    if not inject:
        return spec.kwargs
    wanted = tuple(p for p in inject if p not in spec.kwargs)
    return {**spec.kwargs, **injected(wanted, scope)} if wanted else spec.kwargs


def _graph_policies(graph: Any) -> tuple[RetryPolicy, ...]:
    policy = getattr(graph, "retry_policy", None)
    if policy is None:
        return ()
    if isinstance(policy, RetryPolicy):
        return (policy,)
    return tuple(policy)


def _is_async(func: Any) -> bool:
    return inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(
        getattr(func, "__call__", None)  # noqa: B004
    )


def _resolved(value: Any, loop: Any) -> Any:
    if loop is not None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            future = loop.create_future()
            future.set_result(value)
            return future
    fut: SyncAsyncFuture[Any] = SyncAsyncFuture()
    fut.set_result(value)
    return fut


def _mark_attempt(scope: TaskScope, attempt: int) -> None:
    info = scope.runtime.execution_info
    if info is not None and info.node_attempt != attempt:
        scope.runtime = scope.runtime.override(execution_info=info.patch(node_attempt=attempt))


def _own_interrupt_ids(pad: Scratchpad) -> set[str]:
    """Ids of the interrupts this task's own `interrupt()` calls may have raised."""
    ids = {pad.interrupt_id}
    ids.update(interrupt_id(f"{pad.interrupt_id}#{i}") for i in range(1, pad.used + 1))
    return ids


def _note(exc: BaseException, task: Task) -> None:
    try:
        exc.add_note(f"During task with name '{task.name}' and id '{task.id}'")
    except Exception:
        pass
