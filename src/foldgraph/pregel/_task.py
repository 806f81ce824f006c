"""Running one task: its config, runtime and scratchpad, the node call, its writes.

`run_task` and `arun_task` are the sync and async forms; both build the task's
scope once, call the node (through the cache when it has a policy), route its
branches, and turn what happened into a `TaskResult`. Nothing here touches
the fold or the saver.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence
from typing import Any

import attrs
from langchain_core.runnables.config import var_child_runnable_config

from foldgraph._context import TASK_SCOPE, Scratchpad, TaskScope
from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.fold import read_fresh, read_state
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.names import (
    CONFIG_KEY_DURABILITY,
    CONFIG_KEY_READ,
    CONFIG_KEY_SEND,
    NS_END,
    NS_SEP,
    PREVIOUS,
    PUSH,
)
from foldgraph._kernel.snapshot import Task
from foldgraph._shell.mutation import InputBefore, before_call, warn_unreturned
from foldgraph._shell.node import NODE_ERROR
from foldgraph._shell.tracing import (
    achain_run,
    achild_run,
    aend_chain_run,
    astream_chunk,
    chain_run,
    child_run,
    end_chain_run,
    has_callbacks,
    stream_chunk,
)
from foldgraph.constants import CONF, TASKS
from foldgraph.errors import GraphInterrupt, NodeCancelledError, ParentCommand
from foldgraph.pregel._branch import run_name
from foldgraph.pregel._node import NodeOutput, NodeRunner, route_writes
from foldgraph.pregel._protocol import FG_TASK, TaskResult, new_task_result
from foldgraph.pregel._run import Run
from foldgraph.runtime import ExecutionInfo
from foldgraph.types import Command, Interrupt, Send, TimeoutPolicy

__all__ = ["arun_task", "run_task"]


def _task_config(run: Run, task: Task, step: int) -> dict[str, Any]:
    base = run.config
    conf = dict(base.get(CONF, {}))
    task_ns = run.task_namespace(task)
    conf["checkpoint_ns"] = task_ns
    conf[FG_TASK] = (run, task)
    conf[CONFIG_KEY_DURABILITY] = run.durability  # LangGraph's key: nodes may read it
    shared = base.get("metadata", {})
    metadata = {
        **shared,
        "langgraph_step": step,
        "langgraph_node": task.name,
        "langgraph_triggers": task.triggers,
        "langgraph_path": task.path,
        "langgraph_checkpoint_ns": task_ns,
    }
    # Below the root, the outermost task's namespace, kept at every depth (as LangGraph:
    # it is the namespace a nested graph was invoked with). A root graph's nodes have none.
    outer_ns = shared.get("checkpoint_ns") or base.get(CONF, {}).get("checkpoint_ns")
    if outer_ns:
        metadata["checkpoint_ns"] = outer_ns
    config = {**base, CONF: conf, "metadata": metadata}
    if run.messages is not None:
        config["callbacks"] = _with_handler(base.get("callbacks"), run.messages)
    if run.tools is not None:
        config["callbacks"] = _with_handler(config.get("callbacks"), run.tools)
    return config


class _Scope(TaskScope):
    """A task's scope; config, runtime and scratchpad are built on first read."""

    __slots__ = (
        "_config",
        "_pad",
        "_run",
        "_runtime",
        "_started",
        "_step",
        "_task",
        "folded",
        "pushed",
    )

    def __init__(self, run: Run, task: Task, step: int) -> None:
        self._run = run
        self._task = task
        self._step = step
        self._started = time.time()
        self._config: dict[str, Any] | None = None
        self._runtime: Any = None
        self._pad: Scratchpad | None = None
        self.calls = None
        self.loop = None
        self.pushed: list[tuple[str, Any]] | None = None
        self.folded: tuple[Any, dict[str, Any]] | None = None
        """(snapshot, channel updates) the conditional edges' read computed (see `apply`)."""

    def push_writes(self, writes: list[tuple[str, Any]]) -> None:
        """Writes a node makes while it runs (`push_message`), applied before its return."""
        if self.pushed is None:
            self.pushed = []
        self.pushed.extend(writes)

    def read_channels(self, select: str | Sequence[str], fresh: bool = False) -> Any:
        """LangGraph's `CONFIG_KEY_READ`: channel values as this task found them, or
        (`fresh`) with the writes it sent while running folded in.

        One name gives its value (None when empty); a list gives a dict of those that
        hold a value. Each read is a private copy, as a node's input is.
        """
        run = self._run
        keys = [select] if isinstance(select, str) else list(select)
        spec = run.graph.spec
        if fresh and self.pushed:
            values = read_fresh(spec, run.snapshot, self.pushed, keys, (), run.stop)
        else:
            values = read_state(spec, run.snapshot, keys, (), run.stop)
        return values.get(select) if isinstance(select, str) else values

    @property  # type: ignore[override]
    def config(self) -> dict[str, Any]:
        config = self._config
        if config is None:
            run = self._run
            config = self._config = _task_config(run, self._task, self._step)
            conf = config[CONF]
            conf[CONFIG_KEY_SEND] = self.push_writes
            conf[CONFIG_KEY_READ] = _TaskRead(self, run.graph.state_channels)
            if run.node_errors:
                node_error = run.node_errors.get(self._task.id)
                if node_error is not None:
                    config[CONF][NODE_ERROR] = node_error
        return config

    @config.setter
    def config(self, value: dict[str, Any]) -> None:
        self._config = value

    @property  # type: ignore[override]
    def runtime(self) -> Any:
        runtime = self._runtime
        if runtime is None:
            run, task = self._run, self._task
            runtime = run.runtime
            previous = run.snapshot.values.get(PREVIOUS, MISSING)
            if previous is not MISSING:
                # What an entrypoint saved on its last run of this thread.
                runtime = runtime.override(previous=thaw(previous))
            run_id = run.config.get("run_id")
            runtime = runtime.override(
                execution_info=ExecutionInfo(
                    checkpoint_id=run.checkpoint_id(),
                    checkpoint_ns=run.task_namespace(task),
                    task_id=task.id,
                    thread_id=run.thread_id,
                    run_id=str(run_id) if run_id else None,
                    node_first_attempt_time=self._started,
                )
            )
            self._runtime = runtime
        return runtime

    @runtime.setter
    def runtime(self, value: Any) -> None:
        self._runtime = value

    @property  # type: ignore[override]
    def scratchpad(self) -> Scratchpad:
        pad = self._pad
        if pad is None:
            run, task = self._run, self._task
            pad = self._pad = Scratchpad(
                run.task_interrupt_id(task),
                run.resume_values(task),
                null_resume=run.null_resume,
            )
        return pad

    @scratchpad.setter
    def scratchpad(self, value: Scratchpad) -> None:
        self._pad = value


class _TaskRead:
    """The `CONFIG_KEY_READ` function of a task (see `_Scope.read_channels`).

    `channels` names the graph's state channels: a reader of the whole state (a
    ToolNode given bare tool calls) reads those.
    """

    __slots__ = ("channels", "scope")

    def __init__(self, scope: _Scope, channels: Sequence[str]) -> None:
        self.scope = scope
        self.channels = channels

    def __call__(self, select: str | Sequence[str], fresh: bool = False) -> Any:
        return self.scope.read_channels(select, fresh)


class _LazyConfig(dict):  # type: ignore[type-arg]
    """The task's config as LangChain code inside a plain node finds it, built on first use.

    Every dict method fills it from the scope first, so it reads as the full task
    config; a node that never calls LangChain code never pays for building it.
    """

    __slots__ = ("_scope",)

    def __init__(self, scope: _Scope) -> None:
        self._scope: _Scope | None = scope

    def _fill(self) -> None:
        scope = self._scope
        if scope is not None:
            self._scope = None
            dict.update(self, scope.config)


def _filling(name: str) -> Any:
    method = getattr(dict, name)

    def filled(self: _LazyConfig, *args: Any, **kwargs: Any) -> Any:
        self._fill()
        return method(self, *args, **kwargs)

    filled.__name__ = name
    return filled


for _name in (
    "__getitem__",
    "__contains__",
    "__iter__",
    "__len__",
    "__repr__",
    "__eq__",
    "__ne__",
    "__or__",
    "__ror__",
    "__ior__",
    "__reversed__",
    "__setitem__",
    "__delitem__",
    "__reduce_ex__",
    "get",
    "keys",
    "values",
    "items",
    "copy",
    "setdefault",
    "pop",
    "popitem",
    "update",
    "clear",
):
    setattr(_LazyConfig, _name, _filling(_name))


_new_dict = dict.__new__


def _child_config(scope: _Scope, runner: NodeRunner) -> dict[str, Any]:
    """What `var_child_runnable_config` holds while the task runs.

    A node that takes the config (a Runnable, or a function with a `config`
    parameter) gets the full config now; a plain function gets a lazy one.
    """
    action = runner.action
    if scope._config is not None:
        return scope.config
    if action is None:
        # START maps the input to writes and runs no user code, unless it routes.
        if runner.branches:
            return scope.config
    elif action.is_runnable or action.inject:
        return scope.config
    # Made without the class call: one Python frame (`__init__`) less per task.
    lazy = _new_dict(_LazyConfig)
    lazy._scope = scope
    return lazy


def _writes(run: Run, runner: NodeRunner, output: Any) -> NodeOutput:
    if runner.is_start:
        result = runner.start_writes(output)
        if run.start_extra:
            result = NodeOutput(writes=(*result.writes, *run.start_extra), updates=result.updates)
        return result
    return runner.output_writes(
        output, from_subgraph=runner.action is not None and runner.action.is_subgraph
    )


def _finish(
    run: Run,
    task: Task,
    runner: NodeRunner,
    result: NodeOutput,
    cached: bool,
    scope: _Scope,
    branch_results: list[Any] | None,
) -> TaskResult:
    graph = run.graph
    if scope.pushed:
        result = NodeOutput(
            writes=(*scope.pushed, *result.writes),
            updates=_updates_with_pushed(graph, scope.pushed, result.updates),
            cached=result.cached,
        )
    if run.messages is not None and not runner.is_start:
        from foldgraph._shell.messages import graph_namespace, written_metadata

        # What the node returned, not its writes: a message given as a dict or a
        # string is converted for the channel but not streamed (as in LangGraph).
        written = [v for u in result.updates for c, v in u.items() if c in graph._stream_set]
        meta = scope.config.get("metadata", {})
        run.messages.emit_written(
            graph_namespace(meta),
            written,
            written_metadata(meta, nested=run.nested),
        )
    if runner.branches:
        extra = route_writes(runner, branch_results or [])
        result = NodeOutput(writes=(*result.writes, *extra), updates=result.updates, cached=cached)
    elif cached:
        result = NodeOutput(writes=result.writes, updates=result.updates, cached=True)
    return TaskResult(task=task, output=result, folded=scope.folded)


def _updates_with_pushed(
    graph: Any, pushed: Sequence[tuple[str, Any]], updates: Sequence[dict[str, Any]]
) -> tuple[dict[str, Any], ...]:
    """A task's update chunk when it also sent writes while running, as LangGraph
    shapes it from all the task's writes: one dict of them, or one dict per write
    when a channel was written more than once."""
    state = graph._state_set
    pairs = [(k, v) for k, v in pushed if k in state]
    pairs.extend(pair for update in updates for pair in update.items())
    if len({k for k, _ in pairs}) < len(pairs):
        return tuple({k: v} for k, v in pairs)
    return (dict(pairs),) if pairs else ()


def _branch_inputs(
    run: Run, runner: NodeRunner, result: NodeOutput, scope: _Scope, output: Any
) -> list[Any]:
    """What each branch of the node reads: the state with the node's writes applied.

    The channel updates this computes are kept on the scope, for the step's `apply`.
    """
    graph = run.graph
    folded: dict[str, Any] = {}
    snapshot = run.snapshot
    # Writes the node sent while running (CONFIG_KEY_SEND, push_message) come first.
    writes = (*scope.pushed, *result.writes) if scope.pushed else result.writes
    values = runner.branch_inputs(
        graph.spec, snapshot, writes, graph.state_channels, output, run.stop, folded
    )
    if folded:
        scope.folded = (snapshot, folded)
    return values


_ROUTE_RESULTS = frozenset({str, list, tuple, type(None), Send})
"""What conditional edges usually return, none of them a coroutine."""

# A node's run in LangGraph is a sequence: the node (step 1), its writes (step 2),
# then each conditional edge (steps 3, 4, ...); traces carry those step tags.
_FIRST_BRANCH_STEP = 3


def _route(
    run: Run,
    runner: NodeRunner,
    result: NodeOutput,
    scope: _Scope,
    output: Any = None,
    traced: Any = None,
) -> list[Any]:
    out = []
    values = _branch_inputs(run, runner, result, scope, output)
    for i, (value, action) in enumerate(zip(values, runner.branch_actions, strict=True)):
        res = action.call(value, scope)
        # asyncio.iscoroutine asks the Coroutine ABC (a Python-level call) for every
        # type it has not seen be one: a route's usual results are known not to be.
        if type(res) not in _ROUTE_RESULTS and asyncio.iscoroutine(res):
            res = asyncio.run(res)
        if traced is not None:
            name = run_name(runner.branches[i][1].path)
            child_run(traced, value, name, f"seq:step:{_FIRST_BRANCH_STEP + i}", res)
        out.append(res)
    return out


async def _aroute(
    run: Run,
    runner: NodeRunner,
    result: NodeOutput,
    scope: _Scope,
    output: Any = None,
    traced: Any = None,
) -> list[Any]:
    out = []
    values = _branch_inputs(run, runner, result, scope, output)
    for i, (value, action) in enumerate(zip(values, runner.branch_actions, strict=True)):
        if action.is_async or action.is_runnable:
            res = await action.acall(value, scope)
        else:
            res = action.call(value, scope)
        if traced is not None:
            name = run_name(runner.branches[i][1].path)
            await achild_run(traced, value, name, f"seq:step:{_FIRST_BRANCH_STEP + i}", res)
        out.append(res)
    return out


def _before_call(task: Task, value: Any) -> InputBefore | None:
    # A Send's argument is not state: changing it loses nothing the graph keeps.
    return None if task.is_push else before_call(value)


def _check_mutations(run: Run, runner: NodeRunner, before: InputBefore, result: NodeOutput) -> None:
    written = {c for c, _ in result.writes}
    warn_unreturned(runner.name, before, run.graph.spec.channels, run.snapshot.values, written)


def run_task(run: Run, task: Task, step: int) -> TaskResult:
    """Run one task on this thread and report how it ended (never raises for node errors)."""
    runner = run.graph.runners[task.name]
    scope = _Scope(run, task, step)
    value = runner.node_input(task)
    if run.messages is not None and not runner.is_start:
        run.messages.see_input(value, run.ns)
    traced = None
    if not runner.is_start and (
        run.messages is not None or run.tools is not None or run.config.get("callbacks")
    ):
        traced, scope.config = chain_run(
            scope.config,
            value,
            task.name,
            tag=f"graph:step:{step}",
            policy=runner.trace_policy,
            child_tag="seq:step:1",
        )
    t1 = TASK_SCOPE.set(scope)
    t2 = var_child_runnable_config.set(_child_config(scope, runner))  # type: ignore[arg-type]
    try:
        cached = False
        before = None
        direct = runner.direct
        if (
            direct is not None
            and not runner.warn_unreturned_mutations
            and (runner.cache_policy is None or run.graph.cache is None)
        ):
            # A plain function with nothing around it: called here, as `runner.call` would.
            try:
                output = direct(value)
            except asyncio.CancelledError as exc:
                raise NodeCancelledError(runner.name) from exc
            result = runner.output_writes(output)
        else:
            if runner.is_start:
                output = value
            else:
                if runner.warn_unreturned_mutations:
                    before = _before_call(task, value)
                output, cached = _call_cached(run, runner, value, scope)
            result = _writes(run, runner, output)
            if before is not None:
                _check_mutations(run, runner, before, result)
        branch_results = (
            _route(run, runner, result, scope, output, traced) if runner.branches else None
        )
        if traced is not None:
            stream_chunk(traced, output)
        if scope.pushed or cached or runner.branches or run.messages is not None:
            outcome = _finish(run, task, runner, result, cached, scope, branch_results)
        else:
            outcome = new_task_result((task, result, None, (), None, (), scope.folded))
    except GraphInterrupt as exc:
        outcome = TaskResult(task=task, interrupts=_with_ids(exc.interrupts, scope.scratchpad))
    except ParentCommand as exc:
        outcome = _parent_command(run, task, exc)
    except Exception as exc:
        _note_node(exc, task.name)
        outcome = TaskResult(task=task, error=exc)
    finally:
        var_child_runnable_config.reset(t2)
        TASK_SCOPE.reset(t1)
    if scope.calls is not None:
        scope.calls.wait()
        outcome = outcome._replace(calls=tuple(scope.calls.records))
    if traced is not None:
        _end_chain_run(traced, outcome, runner.trace_policy)
    return outcome


def _send_timeout(run: Run, task: Task) -> TimeoutPolicy | None:
    """The timeout a `Send` gave its task (`Send(node, arg, timeout=...)`), if any."""
    index = task.path[1]
    sends = run.snapshot.values.get(TASKS)
    if type(index) is not int or sends is None or index >= len(sends):
        return None
    send = sends[index]
    return send.timeout if isinstance(send, Send) and send.node == task.name else None


async def arun_task(run: Run, task: Task, step: int) -> TaskResult:
    """Async twin of `run_task`."""
    runner = run.graph.runners[task.name]
    if task.path[0] == PUSH and (timeout := _send_timeout(run, task)) is not None:
        runner = attrs.evolve(runner, timeout=timeout)  # this task's own limits
    scope = _Scope(run, task, step)
    scope.loop = asyncio.get_running_loop()
    value = runner.node_input(task)
    if run.messages is not None and not runner.is_start:
        run.messages.see_input(value, run.ns)
    traced = None
    if not runner.is_start and (
        run.messages is not None or run.tools is not None or has_callbacks(run.config)
    ):
        traced, scope.config = await achain_run(
            scope.config,
            value,
            task.name,
            tag=f"graph:step:{step}",
            policy=runner.trace_policy,
            child_tag="seq:step:1",
        )
    t1 = TASK_SCOPE.set(scope)
    t2 = var_child_runnable_config.set(_child_config(scope, runner))  # type: ignore[arg-type]
    try:
        cached = False
        before = None
        if runner.is_start:
            output = value
        else:
            if runner.warn_unreturned_mutations:
                before = _before_call(task, value)
            output, cached = await _acall_cached(run, runner, value, scope)
        result = _writes(run, runner, output)
        if before is not None:
            _check_mutations(run, runner, before, result)
        branch_results = (
            await _aroute(run, runner, result, scope, output, traced) if runner.branches else None
        )
        if traced is not None:
            await astream_chunk(traced, output)
        outcome = _finish(run, task, runner, result, cached, scope, branch_results)
    except GraphInterrupt as exc:
        outcome = TaskResult(task=task, interrupts=_with_ids(exc.interrupts, scope.scratchpad))
    except ParentCommand as exc:
        outcome = _parent_command(run, task, exc)
    except Exception as exc:
        _note_node(exc, task.name)
        outcome = TaskResult(task=task, error=exc)
    except asyncio.CancelledError:
        if scope.calls is not None:
            # Cancelled with the run: the task calls that ended are kept.
            scope.calls.cancel()
            run.keep_calls(scope.calls.records)
        raise
    finally:
        var_child_runnable_config.reset(t2)
        TASK_SCOPE.reset(t1)
    if scope.calls is not None:
        await scope.calls.await_all()
        outcome = outcome._replace(calls=tuple(scope.calls.records))
    if traced is not None:
        await _aend_chain_run(traced, outcome, runner.trace_policy)
    return outcome


def _parent_command(run: Run, task: Task, exc: ParentCommand) -> TaskResult:
    """A `Command(graph=...)` raised in a task, as LangGraph routes it: one addressed to
    the graph this task runs (it came up from a subgraph the task ran, as a node or
    inside its function) is this task's output; `Command.PARENT` raised by the task's
    own node is addressed to the graph above, and goes up."""
    command = exc.command
    here = run.task_namespace(task)
    if command.graph in (here, recast_namespace(here), task.name):
        routed = Command(update=command.update, goto=command.goto)
        try:
            return TaskResult(task=task, output=run.graph.runners[task.name].output_writes(routed))
        except Exception as err:
            return TaskResult(task=task, error=err)
    if command.graph == Command.PARENT:
        exc = ParentCommand(dataclasses.replace(command, graph=_parent_namespace(here)))
    return TaskResult(task=task, parent_command=exc)


def recast_namespace(ns: str) -> str:
    """A namespace without task ids and without the numbers of repeated calls."""
    return NS_SEP.join(p.split(NS_END)[0] for p in ns.split(NS_SEP) if not p.isdigit())


def _parent_namespace(ns: str) -> str:
    """The namespace of the task that runs the graph `ns` is in ("" at the root)."""
    return NS_SEP.join([p for p in ns.split(NS_SEP) if not p.isdigit()][:-1])


def _cached(cache: Any, runner: NodeRunner, value: Any) -> tuple[Any, bool, Any]:
    """(cache key, hit?, cached output) for a node with a cache policy."""
    key = runner.cache_key(value) if cache is not None else None
    if key is not None:
        hit = cache.get([key])
        if key in hit:
            return key, True, hit[key]
    return key, False, None


def _call_cached(run: Run, runner: NodeRunner, value: Any, scope: _Scope) -> tuple[Any, bool]:
    cache = run.graph.cache
    if cache is None or runner.cache_policy is None:
        return runner.call(value, scope), False
    key, hit, output = _cached(cache, runner, value)
    if hit:
        return output, True
    output = runner.call(value, scope)
    if key is not None:
        cache.set({key: (output, runner.cache_policy.ttl)})
    return output, False


async def _acall_cached(
    run: Run, runner: NodeRunner, value: Any, scope: _Scope
) -> tuple[Any, bool]:
    cache = run.graph.cache
    if cache is None or runner.cache_policy is None:
        return await runner.acall(value, scope), False
    key, hit, output = _cached(cache, runner, value)
    if hit:
        return output, True
    output = await runner.acall(value, scope)
    if key is not None:
        cache.set({key: (output, runner.cache_policy.ttl)})
    return output, False


def _end_chain_run(traced: Any, result: TaskResult, policy: Any = None) -> None:
    if result.output is not None:
        end_chain_run(traced, result.output.update_chunk(), policy)
    else:
        traced.on_chain_error(result.error or GraphInterrupt(result.interrupts))


async def _aend_chain_run(traced: Any, result: TaskResult, policy: Any = None) -> None:
    if result.output is not None:
        await aend_chain_run(traced, result.output.update_chunk(), policy)
    else:
        await traced.on_chain_error(result.error or GraphInterrupt(result.interrupts))


def _with_handler(callbacks: Any, handler: Any) -> Any:
    """The run's callbacks plus the messages-stream handler (once: a subgraph's run
    inherits it from its parent task's config)."""
    if callbacks is None:
        return [handler]
    if isinstance(callbacks, list):
        return callbacks if handler in callbacks else [*callbacks, handler]
    if handler in callbacks.handlers:
        return callbacks
    manager = callbacks.copy()
    manager.add_handler(handler, inherit=True)
    return manager


def _with_ids(interrupts: Sequence[Any], pad: Scratchpad) -> tuple[Interrupt, ...]:
    out = []
    for i in interrupts:
        if isinstance(i, Interrupt) and i.id == "placeholder-id":
            out.append(dataclasses.replace(i, id=pad.interrupt_id))
        else:
            out.append(i)
    return tuple(out)


def _note_node(exc: BaseException, node: str) -> None:
    try:
        if not any(
            note.startswith("During task with name") for note in getattr(exc, "__notes__", [])
        ):
            exc.add_note(f"During task with name '{node}'")
    except Exception:
        pass
