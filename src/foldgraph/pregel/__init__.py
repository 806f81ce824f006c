"""`Pregel`: the runnable form of a graph. It drives the kernel's fold and runs node code.

Sync runs execute a superstep's tasks on a thread pool (a single task runs
inline); async runs use asyncio. Both drive the same `Run` generator, so the
fold, persistence and stream logic exist once.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextvars
import os
import queue
import threading
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

import immutables
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.fold import apply, apply_without_step, plan
from foldgraph._kernel.frozen import as_map
from foldgraph._kernel.snapshot import GraphSpec, Snapshot, Task
from foldgraph._shell.coerce import coerce_context
from foldgraph._shell.context import RUN_CONFIG, RUN_RUNTIME
from foldgraph._shell.interrupts import SCRATCHPAD, Scratchpad
from foldgraph._shell.loop import NULL_TASK_ID, Emit, Run, TaskResult
from foldgraph._shell.tracing import achain_run, chain_run, has_callbacks
from foldgraph.constants import CONF, ERROR, INTERRUPT, NS_END, NS_SEP, ROOT, START
from foldgraph.errors import GraphInterrupt, InvalidUpdateError, ParentCommand
from foldgraph.pregel._node import NodeOutput, NodeRunner, route_writes
from foldgraph.pregel._state_api import StateAPI
from foldgraph.runtime import ExecutionInfo, Runtime
from foldgraph.types import Command, Interrupt, PregelTask, StateSnapshot

__all__ = ["NodeRunner", "Pregel"]

_ALL_MODES = frozenset({"values", "updates", "custom", "checkpoints", "tasks", "debug", "messages"})
_FG_TASK = "__fg_task__"


class Pregel(StateAPI, Runnable[Any, Any]):
    """A compiled graph: the pure spec, the node runners, and run-time settings."""

    def __init__(
        self,
        *,
        spec: GraphSpec,
        runners: dict[str, NodeRunner],
        node_order: list[str],
        stream_channels: list[str] | None = None,
        input_channels: list[str],
        output_channels: list[str],
        state_channels: list[str],
        context_schema: Any = None,
        stream_mode: str = "values",
        checkpointer: Any = None,
        cache: Any = None,
        store: Any = None,
        interrupt_before_nodes: Sequence[str] = (),
        interrupt_after_nodes: Sequence[str] = (),
        debug: bool = False,
        name: str = "LangGraph",
        config: RunnableConfig | None = None,
    ) -> None:
        names = frozenset(node_order)
        self.spec = spec
        self.runners = {k: r.with_nodes(names) for k, r in runners.items()}
        self.node_order = node_order
        self.input_channels = input_channels
        self.output_channels = output_channels
        self.stream_channels = stream_channels if stream_channels is not None else state_channels
        self.state_channels = state_channels
        self.context_schema = context_schema
        self.stream_mode = stream_mode
        self.checkpointer = checkpointer
        self.cache = cache
        self.store = store
        self.interrupt_before_nodes = list(interrupt_before_nodes)
        self.interrupt_after_nodes = list(interrupt_after_nodes)
        self.debug = debug
        self.name = name
        self.config = config
        self._output_set = frozenset(output_channels)
        self._stream_set = frozenset(self.stream_channels)
        self._node_rank = {name: i for i, name in enumerate(node_order)}
        self._untracked = tuple(k for k, c in spec.channels.items() if not c.checkpointed)
        self._initial = as_map(
            {k: v for k, c in spec.channels.items() if (v := c.initial()) is not MISSING}
        )
        self._empty = Snapshot(values=self._initial, step=-2)
        self._state_set = frozenset(state_channels)

    # -- Runnable plumbing -----------------------------------------------------------------

    @property
    def nodes(self) -> dict[str, NodeRunner]:
        return self.runners

    @property
    def channels(self) -> Mapping[str, Any]:
        return self.spec.channels

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        base = name or self.name
        return f"{base}{suffix}" if suffix else base

    def with_config(self, config: RunnableConfig | None = None, **kwargs: Any) -> Pregel:
        import copy

        clone = copy.copy(self)
        merged: dict[str, Any] = dict(self.config or {})
        for key, value in {**(config or {}), **kwargs}.items():
            if key == CONF:
                merged[CONF] = {**merged.get(CONF, {}), **value}
            else:
                merged[key] = value
        clone.config = merged  # type: ignore[assignment]
        return clone

    # -- run set-up ------------------------------------------------------------------------

    def _merge_config(self, config: RunnableConfig | None) -> dict[str, Any]:
        if not self.config:
            return dict(config or {})
        merged = dict(self.config)
        for key, value in (config or {}).items():
            if key == CONF:
                merged[CONF] = {**merged.get(CONF, {}), **value}
            else:
                merged[key] = value
        return merged

    def _make_run(
        self,
        input: Any,
        config: RunnableConfig | None,
        modes: frozenset[str],
        *,
        context: Any,
        interrupt_before: Any,
        interrupt_after: Any,
        durability: str | None,
        writer: Any,
    ) -> Run:
        cfg = self._merge_config(config)
        conf = cfg.get(CONF, {})
        parent_ref = conf.get(_FG_TASK)
        if parent_ref is None:
            outer = RUN_CONFIG.get()
            if outer is not None:
                parent_ref = outer.get(CONF, {}).get(_FG_TASK)
                # Called inside a node without a config: inherit the node's (thread and all).
                cfg = {
                    **outer,
                    **cfg,
                    CONF: {**outer.get(CONF, {}), **cfg.get(CONF, {})},
                    "metadata": {**outer.get("metadata", {}), **cfg.get("metadata", {})},
                }
                conf = cfg[CONF]
        checkpointer = self.checkpointer
        ns: tuple[str, ...] = ()
        checkpoint_ns = ""
        parent_resume: Any = MISSING
        stateful_child = False
        sink = None
        parent_run = None
        if parent_ref is not None:
            parent_run, parent_task = parent_ref
            ns = (*parent_run.ns, f"{parent_task.name}{NS_END}{parent_task.id}")
            checkpoint_ns = parent_run.task_namespace(parent_task)
            if checkpointer is None:
                checkpointer = parent_run.checkpointer
            elif checkpointer is True:
                checkpointer = parent_run.checkpointer
                stateful_child = True
                checkpoint_ns = NS_SEP.join(
                    part.split(NS_END)[0] for part in checkpoint_ns.split(NS_SEP)
                )
            if checkpointer is False:
                checkpointer = None
            durability = durability or parent_run.durability
            parent_resume = parent_run.resumed.get(parent_task.id, MISSING)
            sink = parent_run.child_sink if parent_run.subgraphs else None
            conf = {k: v for k, v in conf.items() if k not in (_FG_TASK, "checkpoint_id")}
            conf["checkpoint_ns"] = checkpoint_ns
            conf["__fg_parents__"] = {
                **parent_run._parents(),
                parent_run.checkpoint_ns: parent_run.snapshot.id,
            }
            cfg = {**cfg, CONF: conf}
        elif checkpointer is True or checkpointer is False:
            checkpointer = None
        if checkpointer is not None and not (
            conf.get("thread_id") is not None
            or conf.get("checkpoint_ns") is not None
            or conf.get("checkpoint_id") is not None
        ):
            raise ValueError(
                "Checkpointer requires one or more of the following 'configurable' keys: "
                "thread_id, checkpoint_ns, checkpoint_id"
            )
        if durability not in (None, "sync", "async", "exit"):
            raise ValueError(f"Invalid durability {durability!r}: use 'sync', 'async' or 'exit'.")
        if context is None and parent_run is not None:
            runtime = parent_run.runtime
        else:
            runtime = Runtime(
                context=coerce_context(self.context_schema, context),
                store=self.store,
                stream_writer=writer,
            )
        if sink is not None and not modes and parent_run is not None:
            modes = parent_run.modes
        return Run(
            graph=self,
            input=input,
            config=cfg,
            modes=modes,
            runtime=runtime,
            interrupt_before=_nodes_arg(interrupt_before, self.interrupt_before_nodes),
            interrupt_after=_nodes_arg(interrupt_after, self.interrupt_after_nodes),
            durability=durability or "async",
            ns=ns,
            checkpoint_ns=checkpoint_ns,
            checkpointer=checkpointer,
            parent_resume=parent_resume,
            nested=parent_run is not None,
            stateful_child=stateful_child,
            parent_sink=sink,
        )

    # -- executing one task ----------------------------------------------------------------

    def _task_config(self, run: Run, task: Task, step: int) -> dict[str, Any]:
        base = run.config
        conf = dict(base.get(CONF, {}))
        task_ns = run.task_namespace(task)
        conf["checkpoint_ns"] = task_ns
        conf[_FG_TASK] = (run, task)
        metadata = {
            **base.get("metadata", {}),
            "langgraph_step": step,
            "langgraph_node": task.name,
            "langgraph_triggers": task.triggers,
            "langgraph_path": task.path,
            "langgraph_checkpoint_ns": task_ns,
            "checkpoint_ns": task_ns,
        }
        config = {**base, CONF: conf, "metadata": metadata}
        if run.messages is not None:
            config["callbacks"] = _with_handler(base.get("callbacks"), run.messages)
        return config

    def _prepare(
        self, run: Run, task: Task, step: int
    ) -> tuple[NodeRunner, Any, dict[str, Any], Any, Scratchpad]:
        runner = self.runners[task.name]
        config = self._task_config(run, task, step)
        runtime = run.runtime
        if run.checkpointer is not None or runtime.execution_info is not None:
            runtime = runtime.override(
                execution_info=ExecutionInfo(
                    checkpoint_id=run.snapshot.id,
                    checkpoint_ns=config[CONF]["checkpoint_ns"],
                    task_id=task.id,
                    thread_id=run.thread_id,
                )
            )
        pad = Scratchpad(
            interrupt_id=run.task_interrupt_id(task),
            resume=run.resume_values(task),
            has_checkpointer=run.checkpointer is not None,
            null_resume=run.null_resume,
        )
        return runner, runner.node_input(task), config, runtime, pad

    def _finish(
        self,
        run: Run,
        task: Task,
        runner: NodeRunner,
        output: Any,
        cached: bool,
        config: dict[str, Any],
        runtime: Any,
        branch_results: list[Any] | None,
    ) -> TaskResult:
        if runner.is_start:
            result = runner.start_writes(output)
            if run.start_extra:
                result = NodeOutput(
                    writes=(*result.writes, *run.start_extra), updates=result.updates
                )
        else:
            result = runner.output_writes(
                output, from_subgraph=runner.action is not None and runner.action.is_subgraph
            )
        if runner.branches and branch_results is None:
            branch_results = self._route(run, task, runner, result, config, runtime, output)
        if run.messages is not None and not runner.is_start:
            from foldgraph._shell.messages import namespace_of

            written = [v for c, v in result.writes if c in self._stream_set]
            meta = config.get("metadata", {})
            run.messages.emit_written(namespace_of(meta.get("checkpoint_ns", "")), written, meta)
        if runner.branches:
            extra = route_writes(runner, branch_results or [])
            result = NodeOutput(
                writes=(*result.writes, *extra), updates=result.updates, cached=cached
            )
        elif cached:
            result = NodeOutput(writes=result.writes, updates=result.updates, cached=True)
        return TaskResult(task=task, output=result)

    def _route(
        self,
        run: Run,
        task: Task,
        runner: NodeRunner,
        result: NodeOutput,
        config: dict[str, Any],
        runtime: Any,
        output: Any = None,
    ) -> list[Any]:
        values = runner.branch_inputs(
            self.spec, run.snapshot, result.writes, self.state_channels, output
        )
        out = []
        for action, value in zip(runner.branch_actions, values, strict=True):
            res = action.call(value, config, runtime)
            if asyncio.iscoroutine(res):
                res = _run_coroutine(res)
            out.append(res)
        return out

    def _run_task(self, run: Run, task: Task, step: int) -> TaskResult:
        runner, value, config, runtime, pad = self._prepare(run, task, step)
        traced = None
        if not runner.is_start and has_callbacks(config):
            traced, config = chain_run(config, value, task.name)
        result = self._run_task_in(run, task, runner, value, config, runtime, pad)
        if traced is not None:
            _end_chain_run(traced, result)
        return result

    def _run_task_in(
        self,
        run: Run,
        task: Task,
        runner: NodeRunner,
        value: Any,
        config: dict[str, Any],
        runtime: Any,
        pad: Scratchpad,
    ) -> TaskResult:
        t1 = RUN_CONFIG.set(config)
        t2 = RUN_RUNTIME.set(runtime)
        t3 = SCRATCHPAD.set(pad)
        t4 = var_child_runnable_config.set(config)  # type: ignore[arg-type]
        try:
            cached = False
            if runner.is_start:
                output = value
            else:
                output, cached = self._call_cached(runner, value, config, runtime)
            return self._finish(run, task, runner, output, cached, config, runtime, None)
        except GraphInterrupt as exc:
            return TaskResult(task=task, interrupts=tuple(_with_ids(exc.interrupts, pad)))
        except ParentCommand as exc:
            return self._parent_command(run, task, exc)
        except Exception as exc:
            _note_node(exc, task.name)
            return TaskResult(task=task, error=exc)
        finally:
            var_child_runnable_config.reset(t4)
            SCRATCHPAD.reset(t3)
            RUN_RUNTIME.reset(t2)
            RUN_CONFIG.reset(t1)

    async def _arun_task(self, run: Run, task: Task, step: int) -> TaskResult:
        runner, value, config, runtime, pad = self._prepare(run, task, step)
        traced = None
        if not runner.is_start and has_callbacks(config):
            traced, config = await achain_run(config, value, task.name)
        result = await self._arun_task_in(run, task, runner, value, config, runtime, pad)
        if traced is not None:
            await _aend_chain_run(traced, result)
        return result

    async def _arun_task_in(
        self,
        run: Run,
        task: Task,
        runner: NodeRunner,
        value: Any,
        config: dict[str, Any],
        runtime: Any,
        pad: Scratchpad,
    ) -> TaskResult:
        t1 = RUN_CONFIG.set(config)
        t2 = RUN_RUNTIME.set(runtime)
        t3 = SCRATCHPAD.set(pad)
        t4 = var_child_runnable_config.set(config)  # type: ignore[arg-type]
        try:
            cached = False
            if runner.is_start:
                output = value
            else:
                output, cached = await self._acall_cached(runner, value, config, runtime)
            branch_results = None
            if runner.branches:
                branch_results = await self._aroute(run, task, runner, output, config, runtime)
            return self._finish(run, task, runner, output, cached, config, runtime, branch_results)
        except GraphInterrupt as exc:
            return TaskResult(task=task, interrupts=tuple(_with_ids(exc.interrupts, pad)))
        except ParentCommand as exc:
            return self._parent_command(run, task, exc)
        except Exception as exc:
            _note_node(exc, task.name)
            return TaskResult(task=task, error=exc)
        finally:
            SCRATCHPAD.reset(t3)
            RUN_RUNTIME.reset(t2)
            RUN_CONFIG.reset(t1)
            var_child_runnable_config.reset(t4)

    async def _aroute(
        self,
        run: Run,
        task: Task,
        runner: NodeRunner,
        output: Any,
        config: dict[str, Any],
        runtime: Any,
    ) -> list[Any]:
        result = (
            runner.start_writes(output)
            if runner.is_start
            else runner.output_writes(
                output, from_subgraph=bool(runner.action and runner.action.is_subgraph)
            )
        )
        values = runner.branch_inputs(
            self.spec, run.snapshot, result.writes, self.state_channels, output
        )
        out = []
        for action, value in zip(runner.branch_actions, values, strict=True):
            if action.is_async or action.is_runnable:
                out.append(await action.acall(value, config, runtime))
            else:
                out.append(action.call(value, config, runtime))
        return out

    def _parent_command(self, run: Run, task: Task, exc: ParentCommand) -> TaskResult:
        command = exc.command
        # A Command(graph=PARENT) raised by a node of *this* graph's child: apply it here.
        runner = self.runners[task.name]
        if runner.action is not None and runner.action.is_subgraph:
            routed = Command(update=command.update, goto=command.goto)
            try:
                return TaskResult(task=task, output=runner.output_writes(routed))
            except Exception as err:
                return TaskResult(task=task, error=err)
        return TaskResult(task=task, parent_command=exc)

    def _cached(self, runner: NodeRunner, value: Any) -> tuple[Any, bool, Any]:
        """(cache key, hit?, cached output) for a node with a cache policy."""
        key = runner.cache_key(value) if self.cache is not None else None
        if key is not None:
            hit = self.cache.get([key])
            if key in hit:
                return key, True, hit[key]
        return key, False, None

    def _call_cached(
        self, runner: NodeRunner, value: Any, config: dict[str, Any], runtime: Any
    ) -> tuple[Any, bool]:
        key, hit, output = self._cached(runner, value)
        if hit:
            return output, True
        output = runner.call(value, config, runtime)
        if key is not None:
            self.cache.set({key: (output, runner.cache_policy.ttl)})
        return output, False

    async def _acall_cached(
        self, runner: NodeRunner, value: Any, config: dict[str, Any], runtime: Any
    ) -> tuple[Any, bool]:
        key, hit, output = self._cached(runner, value)
        if hit:
            return output, True
        output = await runner.acall(value, config, runtime)
        if key is not None:
            self.cache.set({key: (output, runner.cache_policy.ttl)})
        return output, False

    # -- drivers ---------------------------------------------------------------------------

    def _drive(self, run: Run, custom: queue.SimpleQueue[Any] | None) -> Iterator[Emit]:
        gen = run.steps()
        send: Any = None
        max_workers = run.config.get("max_concurrency")
        pool: concurrent.futures.ThreadPoolExecutor | None = None
        try:
            while True:
                try:
                    item = gen.send(send)
                except StopIteration:
                    break
                send = None
                if isinstance(item, Emit):
                    yield item
                    continue
                tasks = item.tasks
                if len(tasks) == 1 and custom is None:
                    send = {tasks[0].id: self._run_task(run, tasks[0], item.step)}
                    while run.child_sink:
                        yield run.child_sink.pop(0)
                    continue
                if custom is None:
                    send = self._run_parallel(run, tasks, item.step, max_workers)
                else:
                    pool = pool or _pool(max_workers)
                    futures = {
                        pool.submit(
                            contextvars.copy_context().run, self._run_task, run, t, item.step
                        ): t
                        for t in tasks
                    }
                    pending = set(futures)
                    while pending:
                        _, pending = concurrent.futures.wait(
                            pending, timeout=0.01, return_when=concurrent.futures.FIRST_COMPLETED
                        )
                        yield from _drain(custom, run)
                    yield from _drain(custom, run)
                    send = {futures[f].id: f.result() for f in futures}
                while run.child_sink:
                    yield run.child_sink.pop(0)
        finally:
            gen.close()

    def _run_parallel(
        self, run: Run, tasks: Sequence[Task], step: int, max_workers: int | None
    ) -> dict[str, TaskResult]:
        """Run a step's tasks on the shared pool, the calling thread taking its share.

        The caller runs tasks too, so nested graphs never wait on a pool that
        their own parents have filled (no deadlock), and a step of many tiny
        tasks does not pay a thread hand-off for each.
        """
        todo = collections.deque(tasks)
        results: dict[str, TaskResult] = {}

        def work() -> None:
            while True:
                try:
                    task = todo.popleft()
                except IndexError:
                    return
                results[task.id] = self._run_task(run, task, step)

        limit = max_workers if max_workers else _POOL_SIZE
        helpers = [
            _pool(max_workers).submit(contextvars.copy_context().run, work)
            for _ in range(min(len(tasks) - 1, max(limit - 1, 0)))
        ]
        contextvars.copy_context().run(work)
        for helper in helpers:
            helper.result()
        return {t.id: results[t.id] for t in tasks}

    async def _adrive(self, run: Run, custom: queue.SimpleQueue[Any] | None) -> AsyncIterator[Emit]:
        gen = run.steps()
        send: Any = None
        limit = run.config.get("max_concurrency")
        semaphore = asyncio.Semaphore(limit) if limit else None

        async def one(task: Task, step: int) -> TaskResult:
            if semaphore is None:
                return await self._arun_task(run, task, step)
            async with semaphore:
                return await self._arun_task(run, task, step)

        try:
            while True:
                try:
                    item = gen.send(send)
                except StopIteration:
                    break
                send = None
                if isinstance(item, Emit):
                    yield item
                    continue
                if custom is None:
                    results = await asyncio.gather(*(one(t, item.step) for t in item.tasks))
                else:
                    gathered = asyncio.ensure_future(
                        asyncio.gather(*(one(t, item.step) for t in item.tasks))
                    )
                    while not gathered.done():
                        await asyncio.wait({gathered}, timeout=0.01)
                        for emit in _drain(custom, run):
                            yield emit
                    for emit in _drain(custom, run):
                        yield emit
                    results = gathered.result()
                send = {r.task.id: r for r in results}
                while run.child_sink:
                    yield run.child_sink.pop(0)
        finally:
            gen.close()

    # -- public running API ------------------------------------------------------------------

    def _stream_run(
        self, input: Any, config: Any, stream_mode: Any, subgraphs: bool, **options: Any
    ) -> tuple[Run, queue.SimpleQueue[Any] | None, str | None]:
        """Set up a streaming run: its modes, its live queue and its messages handler."""
        modes, single = self._modes(stream_mode, config)
        custom, writer = _live_queue(modes)
        run = self._make_run(input, config, modes, writer=writer, **options)
        run.subgraphs = subgraphs
        run.messages = _messages_handler(modes, custom)
        return run, custom, single

    def _deliver(
        self,
        run: Run,
        emit: Emit,
        single: str | None,
        subgraphs: bool,
        output_keys: Any,
        version: str = "v1",
    ) -> Any:
        """Forward a chunk to a parent run, and shape it for this caller (or _SKIP)."""
        if run.parent_sink is not None:
            run.parent_sink.append(emit)
        if version == "v2":
            return self._part(emit, single, output_keys)
        return self._shape(emit, single, subgraphs, output_keys)

    def _part(self, emit: Emit, single: str | None, output_keys: Any) -> Any:
        """A `version="v2"` stream part: {"type", "ns", "data"} (+ "interrupts" for values)."""
        if single is not None and emit.mode != single:
            return _SKIP
        shaped = self._shape(emit, emit.mode, False, output_keys) if not emit.ns else None
        data = emit.payload if emit.ns else shaped
        part: dict[str, Any] = {"type": emit.mode, "ns": emit.ns, "data": data}
        if emit.mode == "values":
            interrupts: tuple[Any, ...] = ()
            if isinstance(data, dict) and "__interrupt__" in data:
                interrupts = tuple(data["__interrupt__"])
                part["data"] = {k: v for k, v in data.items() if k != "__interrupt__"}
            part["interrupts"] = interrupts
        return part

    def stream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        stream_mode: str | Sequence[str] | None = None,
        print_mode: str | Sequence[str] = (),
        output_keys: str | Sequence[str] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: str | None = None,
        subgraphs: bool = False,
        debug: bool | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Iterator[Any]:
        """Run the graph, yielding chunks of the requested stream mode(s) as they happen."""
        run, custom, single = self._stream_run(
            input,
            config,
            stream_mode,
            subgraphs,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
        )
        traced = self._trace_start(run)
        try:
            for emit in self._drive(run, custom):
                chunk = self._deliver(run, emit, single, subgraphs, output_keys, version)
                if chunk is not _SKIP:
                    yield chunk
            _raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                traced.on_chain_error(exc)
            raise
        if traced is not None:
            traced.on_chain_end(self._invoke_output(run, None, "v1"))

    async def astream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        stream_mode: str | Sequence[str] | None = None,
        print_mode: str | Sequence[str] = (),
        output_keys: str | Sequence[str] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: str | None = None,
        subgraphs: bool = False,
        debug: bool | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Async twin of `stream`."""
        run, custom, single = self._stream_run(
            input,
            config,
            stream_mode,
            subgraphs,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
        )
        traced = await self._atrace_start(run)
        try:
            async for emit in self._adrive(run, custom):
                chunk = self._deliver(run, emit, single, subgraphs, output_keys, version)
                if chunk is not _SKIP:
                    yield chunk
            _raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        if traced is not None:
            await traced.on_chain_end(self._invoke_output(run, None, "v1"))

    def invoke(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        stream_mode: str = "values",
        print_mode: str | Sequence[str] = (),
        output_keys: str | Sequence[str] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: str | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Any:
        """Run the graph to the end and return its output (or the chunks of `stream_mode`)."""
        if stream_mode != "values":
            return list(
                self.stream(
                    input,
                    config,
                    context=context,
                    stream_mode=stream_mode,
                    output_keys=output_keys,
                    interrupt_before=interrupt_before,
                    interrupt_after=interrupt_after,
                    durability=durability,
                    **kwargs,
                )
            )
        run = self._make_run(
            input,
            config,
            frozenset(),
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
            writer=_no_writer,
        )
        traced = self._trace_start(run)
        try:
            for emit in self._drive(run, None):
                if run.parent_sink is not None:
                    run.parent_sink.append(emit)
            _raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                traced.on_chain_error(exc)
            raise
        output = self._invoke_output(run, output_keys, version)
        if traced is not None:
            traced.on_chain_end(output)
        return output

    async def ainvoke(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        stream_mode: str = "values",
        print_mode: str | Sequence[str] = (),
        output_keys: str | Sequence[str] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: str | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Any:
        """Async twin of `invoke`."""
        if stream_mode != "values":
            return [
                c
                async for c in self.astream(
                    input,
                    config,
                    context=context,
                    stream_mode=stream_mode,
                    output_keys=output_keys,
                    interrupt_before=interrupt_before,
                    interrupt_after=interrupt_after,
                    durability=durability,
                    **kwargs,
                )
            ]
        run = self._make_run(
            input,
            config,
            frozenset(),
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
            writer=_no_writer,
        )
        traced = await self._atrace_start(run)
        try:
            async for emit in self._adrive(run, None):
                if run.parent_sink is not None:
                    run.parent_sink.append(emit)
            _raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        output = self._invoke_output(run, output_keys, version)
        if traced is not None:
            await traced.on_chain_end(output)
        return output

    def _trace_start(self, run: Run) -> Any:
        """Open the graph's own chain run when callbacks are configured (else None)."""
        if not has_callbacks(run.config):
            return None
        inputs = run.input if run.input is not None else {}
        traced, run.config = chain_run(run.config, inputs, self.get_name())
        return traced

    async def _atrace_start(self, run: Run) -> Any:
        if not has_callbacks(run.config):
            return None
        inputs = run.input if run.input is not None else {}
        traced, run.config = await achain_run(run.config, inputs, self.get_name())
        return traced

    def _invoke_output(self, run: Run, output_keys: Any, version: str) -> Any:
        from foldgraph.types import GraphOutput

        final = run.output_snapshot or run.snapshot
        values = self._output_values(final, output_keys) if run.emitted_values else None
        if version == "v2":
            return GraphOutput(value=values, interrupts=tuple(run.interrupts))
        if run.interrupts:
            out = dict(values) if isinstance(values, dict) else {}
            out["__interrupt__"] = list(run.interrupts)
            return out
        return values

    # -- shaping ---------------------------------------------------------------------------

    def _modes(self, stream_mode: Any, config: Any) -> tuple[frozenset[str], str | None]:
        if stream_mode is None:
            nested = (config or {}).get(CONF, {}).get(_FG_TASK) if config else None
            if nested is None and RUN_CONFIG.get() is not None:
                nested = RUN_CONFIG.get().get(CONF, {}).get(_FG_TASK)
            stream_mode = "values" if nested is not None else self.stream_mode
        if isinstance(stream_mode, str):
            modes = [stream_mode]
            single: str | None = stream_mode
        else:
            modes = list(stream_mode)
            single = None
        for mode in modes:
            if mode not in _ALL_MODES:
                raise ValueError(f"Unknown stream_mode {mode!r}: use one of {sorted(_ALL_MODES)}.")
        return frozenset(modes), single

    def _shape(self, emit: Emit, single: str | None, subgraphs: bool, output_keys: Any) -> Any:
        if emit.ns and not subgraphs:
            return _SKIP
        if single is not None and emit.mode != single:
            return _SKIP
        payload = emit.payload
        if emit.mode == "values" and output_keys is not None and isinstance(payload, dict):
            keys = [output_keys] if isinstance(output_keys, str) else list(output_keys)
            if isinstance(output_keys, str) and "__interrupt__" not in payload:
                payload = payload.get(output_keys)
            else:
                payload = {k: v for k, v in payload.items() if k in keys or k == "__interrupt__"}
        if single is not None:
            return (emit.ns, payload) if subgraphs else payload
        return (emit.ns, emit.mode, payload) if subgraphs else (emit.mode, payload)

    def _stream_values(self, snapshot: Snapshot) -> Any:
        return self._output_values(snapshot, None, self.stream_channels)

    def _output_values(
        self, snapshot: Snapshot, output_keys: Any = None, default: Sequence[str] | None = None
    ) -> Any:
        channels = self.spec.channels
        values = snapshot.values
        if output_keys is None:
            keys: Sequence[str] = self.output_channels if default is None else default
            if list(keys) == [ROOT]:
                stored = values.get(ROOT, MISSING)
                return None if stored is MISSING else channels[ROOT].output(stored)
        elif isinstance(output_keys, str):
            stored = values.get(output_keys, MISSING)
            return None if stored is MISSING else channels[output_keys].output(stored)
        else:
            keys = output_keys
        out = {}
        for key in keys:
            stored = values.get(key, MISSING)
            if stored is not MISSING:
                out[key] = channels[key].output(stored)
        return out

    def _input_update_writes(self, command: Command[Any]) -> list[tuple[str, Any]]:
        pairs = command._update_as_tuples()
        writable = set(self.spec.channels)
        unknown = [k for k, _ in pairs if k not in writable]
        if unknown:
            raise InvalidUpdateError(
                f"Command(update=...) names unknown state key(s) {unknown}; the graph's "
                f"state has keys {self.state_channels}."
            )
        self.runners[START]._give_ids(pairs)
        return list(pairs)

    # -- checkpoints <-> snapshots ------------------------------------------------------------

    def _checkpoint_of(self, snapshot: Snapshot) -> dict[str, Any]:
        values = snapshot.values
        untracked = [k for k in self._untracked if k in values]
        if untracked:
            ev = values.mutate()
            for k in untracked:
                del ev[k]
            values = ev.finish()
        return {
            "v": 4,
            "id": snapshot.id,
            "ts": snapshot.created_at,
            "channel_values": values,
            "channel_versions": snapshot.versions,
            "versions_seen": snapshot.seen,
            "updated_channels": sorted(snapshot.updated),
        }

    def _snapshot_of(self, saved: Any) -> Snapshot:
        cp = saved.checkpoint
        seen = cp.get("versions_seen", {})
        if not isinstance(seen, immutables.Map):
            seen = as_map({k: as_map(v) for k, v in seen.items()})
        parent = (saved.parent_config or {}).get(CONF, {}).get("checkpoint_id")
        values = as_map(cp.get("channel_values", {}))
        missing = [k for k in self._initial if k not in values]
        if missing:
            values = values.update({k: self._initial[k] for k in missing})
        return Snapshot(
            values=values,
            versions=as_map(cp.get("channel_versions", {})),
            seen=seen,
            step=(saved.metadata or {}).get("step", -1),
            updated=frozenset(cp.get("updated_channels") or ()),
            id=cp["id"],
            parent_id=parent,
            metadata=dict(saved.metadata or {}),
            created_at=cp.get("ts", ""),
        )

    def _state_snapshot(
        self,
        snapshot: Snapshot,
        pending: Mapping[str, list[tuple[str, Any]]],
        checkpoint_ns: str,
        thread_id: Any,
        *,
        apply_pending: bool = False,
        child_results: Mapping[str, Any] | None = None,
        subgraphs: bool = False,
        checkpoint_map: Mapping[str, str] | None = None,
    ) -> StateSnapshot:
        tasks = self._in_definition_order(plan(self.spec, snapshot))
        shown = snapshot
        finished: list[tuple[Task, list[tuple[str, Any]]]] = []
        for t in tasks:
            writes = pending.get(t.id)
            if writes and any(c not in (INTERRUPT, ERROR, "__resume__") for c, _ in writes):
                finished.append((t, writes))
        done_ids: set[str] = set()
        if apply_pending and finished:
            # As LangGraph: the latest state shows what finished tasks already wrote.
            shown = apply(self.spec, snapshot, finished)
            if len(finished) == len(tasks):
                tasks = self._in_definition_order(plan(self.spec, shown))
                pending = {}
            else:
                done_ids = {t.id for t, _ in finished}
        values = self._values_of(shown)
        config: dict[str, Any] = {
            CONF: {
                "thread_id": thread_id,
                "checkpoint_ns": checkpoint_ns,
                "checkpoint_id": snapshot.id,
            }
        }
        if checkpoint_map:
            config[CONF]["checkpoint_map"] = dict(checkpoint_map)
        parent_config = (
            {
                CONF: {
                    "thread_id": thread_id,
                    "checkpoint_ns": checkpoint_ns,
                    "checkpoint_id": snapshot.parent_id,
                }
            }
            if snapshot.parent_id
            else None
        )
        pregel_tasks = []
        interrupts: list[Interrupt] = []
        for t in tasks:
            writes = pending.get(t.id, [])
            error = next((v for c, v in writes if c == ERROR), None)
            # The latest state hides interrupts already answered; a past checkpoint
            # shows every interrupt raised from it, as LangGraph does.
            task_interrupts: tuple[Interrupt, ...] = (
                ()
                if apply_pending and _has_result(writes)
                else tuple(i for c, v in writes if c == INTERRUPT for i in v)
            )
            interrupts.extend(task_interrupts)
            result = None
            if child_results is not None and t.id in child_results:
                result = child_results[t.id]
            elif writes:
                state_writes = {c: v for c, v in writes if c in self._state_set}
                result = _plain_dict(state_writes) if state_writes else None
            state = None
            runner = self.runners.get(t.name)
            sub = _subgraph_of(runner)
            if sub is not None:
                sub_ns = f"{checkpoint_ns}{NS_SEP if checkpoint_ns else ''}{t.name}{NS_END}{t.id}"
                sub_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": sub_ns}}
                sub_cp = (
                    sub.checkpointer
                    if sub.checkpointer not in (None, True, False)
                    else self.checkpointer
                )
                is_node = runner.action is not None and runner.action.is_subgraph
                state = sub_config if is_node else None
                if subgraphs and sub_cp is not None:
                    saved = sub_cp.get_tuple(sub_config)
                    if saved is not None:
                        parent_map = dict(checkpoint_map or {checkpoint_ns: snapshot.id})
                        state = sub._state_from_tuple(
                            saved,
                            sub_ns,
                            thread_id,
                            apply_pending=True,
                            subgraphs=True,
                            checkpoint_map={**parent_map, sub_ns: saved.checkpoint["id"]},
                        )
            pregel_tasks.append(
                PregelTask(
                    id=t.id,
                    name=t.name,
                    path=t.path,
                    error=_as_error(error),
                    interrupts=task_interrupts,
                    state=state,
                    result=result,
                )
            )
        next_nodes = tuple(
            t.name
            for t in tasks
            if not (apply_pending and (t.id in done_ids or _has_result(pending.get(t.id))))
        )
        return StateSnapshot(
            values=values,
            next=next_nodes,
            config=config,
            metadata=dict(snapshot.metadata) if snapshot.metadata else None,
            created_at=snapshot.created_at or None,
            parent_config=parent_config,
            tasks=tuple(pregel_tasks),
            interrupts=tuple(interrupts),
        )

    def _in_definition_order(self, tasks: Sequence[Task]) -> tuple[Task, ...]:
        """Tasks as get_state lists them: Sends first, then nodes in the order they were added."""
        rank = self._node_rank
        return tuple(sorted(tasks, key=lambda t: (not t.is_push, rank.get(t.name, -1))))

    def _values_of(self, snapshot: Snapshot) -> Any:
        if self.stream_channels == [ROOT]:
            return self._stream_values(snapshot)
        channels = self.spec.channels
        out = {}
        for key in self.stream_channels:
            stored = snapshot.values.get(key, MISSING)
            if stored is not MISSING:
                out[key] = channels[key].output(stored)
        return out

    def _state_from_tuple(
        self,
        saved: Any,
        checkpoint_ns: str,
        thread_id: Any,
        *,
        apply_pending: bool,
        subgraphs: bool = False,
        child_results: Mapping[str, Any] | None = None,
        checkpoint_map: Mapping[str, str] | None = None,
    ) -> StateSnapshot:
        snapshot = self._snapshot_of(saved)
        pending: dict[str, list[tuple[str, Any]]] = {}
        for tid, chan, val in saved.pending_writes or ():
            pending.setdefault(tid, []).append((chan, val))
        null_writes = pending.pop(NULL_TASK_ID, None)
        if null_writes:
            # Writes given with a Command input show as part of the checkpoint's state.
            state_writes = [(c, v) for c, v in null_writes if c in self._stream_set]
            snapshot = apply_without_step(self.spec, snapshot, state_writes)
        return self._state_snapshot(
            snapshot,
            pending,
            checkpoint_ns,
            thread_id,
            apply_pending=apply_pending,
            subgraphs=subgraphs,
            child_results=child_results,
            checkpoint_map=checkpoint_map,
        )

    def clear_cache(self, nodes: Sequence[str] | None = None) -> None:
        """Forget cached results of `nodes` (all nodes when None)."""
        if self.cache is None:
            raise ValueError("No cache is set for this graph. Cannot clear cache.")
        names = self.node_order if nodes is None else list(nodes)
        self.cache.clear([("__node_cache__", name) for name in names])

    async def aclear_cache(self, nodes: Sequence[str] | None = None) -> None:
        self.clear_cache(nodes)

    def verify_replay(self, config: RunnableConfig) -> Any:
        """Re-fold the thread's recorded writes and check every checkpoint comes back exactly."""
        from foldgraph.history import verify_replay

        return verify_replay(self, dict(config))


class _Skip:
    pass


_SKIP = _Skip()


def _no_writer(_chunk: Any) -> None:
    return None


def _end_chain_run(traced: Any, result: TaskResult) -> None:
    if result.output is not None:
        traced.on_chain_end(result.output.update_chunk())
    else:
        traced.on_chain_error(result.error or GraphInterrupt(result.interrupts))


async def _aend_chain_run(traced: Any, result: TaskResult) -> None:
    if result.output is not None:
        await traced.on_chain_end(result.output.update_chunk())
    else:
        await traced.on_chain_error(result.error or GraphInterrupt(result.interrupts))


def _raise_nested_interrupts(run: Run) -> None:
    """A subgraph's interrupts travel up to its parent as a GraphInterrupt."""
    if run.nested and run.interrupts:
        raise GraphInterrupt(tuple(run.interrupts))


def _live_queue(modes: frozenset[str]) -> tuple[queue.SimpleQueue[Any] | None, Any]:
    """The thread-safe queue for chunks emitted while tasks run, and the custom writer."""
    if not modes & {"custom", "messages"}:
        return None, _no_writer
    live: queue.SimpleQueue[Any] = queue.SimpleQueue()
    return live, (live.put if "custom" in modes else _no_writer)


def _messages_handler(modes: frozenset[str], live: queue.SimpleQueue[Any] | None) -> Any:
    if "messages" not in modes or live is None:
        return None
    from foldgraph._shell.messages import StreamMessagesHandler

    return StreamMessagesHandler(lambda ns, payload: live.put(Emit(ns, "messages", payload)))


def _with_handler(callbacks: Any, handler: Any) -> Any:
    """The run's callbacks plus the messages-stream handler."""
    if callbacks is None:
        return [handler]
    if isinstance(callbacks, list):
        return [*callbacks, handler]
    manager = callbacks.copy()
    manager.add_handler(handler, inherit=True)
    return manager


_POOL_SIZE = min(32, (os.cpu_count() or 1) + 4)
_POOLS: dict[int, concurrent.futures.ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(max_workers: int | None) -> concurrent.futures.ThreadPoolExecutor:
    """A process-wide pool per size: threads are started once, not per run."""
    size = max_workers or _POOL_SIZE
    with _POOLS_LOCK:
        pool = _POOLS.get(size)
        if pool is None:
            pool = _POOLS[size] = concurrent.futures.ThreadPoolExecutor(
                max_workers=size, thread_name_prefix="foldgraph"
            )
        return pool


def _nodes_arg(value: Any, default: Sequence[str]) -> list[str]:
    if value is None:
        return list(default)
    if isinstance(value, str):
        return [value]
    return list(value)


def _drain(custom: queue.SimpleQueue[Any], run: Run) -> Iterator[Emit]:
    while True:
        try:
            item = custom.get_nowait()
        except queue.Empty:
            return
        yield item if isinstance(item, Emit) else Emit(run.ns, "custom", item)


def _with_ids(interrupts: Sequence[Any], pad: Scratchpad) -> list[Interrupt]:
    out = []
    for i in interrupts:
        if isinstance(i, Interrupt) and i.id == "placeholder-id":
            out.append(Interrupt(value=i.value, id=pad.interrupt_id))
        else:
            out.append(i)
    return out


def _note_node(exc: BaseException, node: str) -> None:
    try:
        if not any(
            note.startswith("During task with name") for note in getattr(exc, "__notes__", [])
        ):
            exc.add_note(f"During task with name '{node}'")
    except Exception:
        pass


def _as_error(error: Any) -> Any:
    """A recorded task error, as LangGraph shows it in a snapshot: its repr, as a string."""
    if error is None or isinstance(error, BaseException):
        return error
    return str(error)


def _subgraph_of(runner: NodeRunner | None) -> Pregel | None:
    """The graph a node runs: the node itself, or one its function refers to."""
    if runner is None or runner.action is None:
        return None
    target = runner.action.target
    if isinstance(target, Pregel):
        return target
    func = getattr(target, "__func__", target)
    for cell in getattr(func, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if isinstance(value, Pregel):
            return value
    code = getattr(func, "__code__", None)
    names = getattr(func, "__globals__", {})
    for name in getattr(code, "co_names", ()):
        value = names.get(name)
        if isinstance(value, Pregel):
            return value
    return None


def _has_result(writes: Any) -> bool:
    if not writes:
        return False
    return any(c not in (INTERRUPT, ERROR, "__resume__") for c, _ in writes)


def _plain_dict(d: Mapping[str, Any]) -> dict[str, Any]:
    from foldgraph._kernel.frozen import thaw

    return {k: thaw(v) for k, v in d.items()}


def _run_coroutine(coro: Any) -> Any:
    return asyncio.run(coro)
