"""Running one task, top-down: scope, input, the node call, its writes, its routes, its result.

`run_task` reads in the order a task runs, and the functions after it follow in the
order it calls them: calling the node (cache, retries), what it wrote, its conditional
edges, the task's result; `arun_task` and its awaited steps come last. What the run
reads of the node (its input, its return as writes, what its edges read) is the
compiled node's (`_node.NodeRunner`); what code inside the node reaches is its scope
(`_scope`). Nothing here touches the fold or the saver.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence
from typing import Any

import attrs
from langchain_core.runnables.config import merge_configs, var_child_runnable_config

from foldgraph._context import TASK_SCOPE, Scratchpad
from foldgraph._kernel.fold import fresh_values, read_values
from foldgraph._kernel.names import NS_END, NS_SEP, PUSH, ROOT
from foldgraph._kernel.snapshot import Task
from foldgraph._shell.coerce import to_schema
from foldgraph._shell.mutation import InputBefore, before_call, warn_unreturned
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
from foldgraph.constants import TASKS
from foldgraph.errors import GraphBubbleUp, GraphInterrupt, NodeCancelledError, ParentCommand
from foldgraph.pregel._branch import run_name
from foldgraph.pregel._node import NodeOutput, NodeRunner, Writes
from foldgraph.pregel._protocol import TaskResult, new_task_result
from foldgraph.pregel._retry import next_attempt, next_interval, retry_matches
from foldgraph.pregel._run import Run
from foldgraph.pregel._scope import LazyTaskScope, child_config
from foldgraph.pregel._timeout import run_with_timeout, sync_timeout_unsupported
from foldgraph.types import Command, Interrupt, Send, TimeoutPolicy

__all__ = ["arun_task", "run_task"]


def run_task(run: Run, task: Task, step: int) -> TaskResult:
    """Run one task on this thread and report how it ended (never raises for node errors)."""
    runner = run.graph.runners[task.name]
    scope = LazyTaskScope(run, task, step)
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
    t2 = var_child_runnable_config.set(child_config(scope, runner))  # type: ignore[arg-type]
    try:
        cached = False
        before = None
        direct = runner.direct
        if (
            direct is not None
            and not runner.warn_unreturned_mutations
            and (runner.cache_policy is None or run.graph.cache is None)
        ):
            # A plain function with nothing around it: called here, as `_call_node` would.
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


# -- calling the node ------------------------------------------------------------------------------


def _call_cached(
    run: Run, runner: NodeRunner, value: Any, scope: LazyTaskScope
) -> tuple[Any, bool]:
    cache = run.graph.cache
    if cache is None or runner.cache_policy is None:
        return _call_node(runner, value, scope), False
    key, hit, output = _cached(cache, runner, value)
    if hit:
        return output, True
    output = _call_node(runner, value, scope)
    if key is not None:
        cache.set({key: (output, runner.cache_policy.ttl)})
    return output, False


def _cached(cache: Any, runner: NodeRunner, value: Any) -> tuple[Any, bool, Any]:
    """(cache key, hit?, cached output) for a node with a cache policy."""
    key = runner.cache_key(value) if cache is not None else None
    if key is not None:
        hit = cache.get([key])
        if key in hit:
            return key, True, hit[key]
    return key, False, None


def _call_node(runner: NodeRunner, value: Any, scope: Any) -> Any:
    """The node's call, attempted again as its retry policies allow."""
    assert runner.action is not None
    if runner.timeout is not None:
        # A timed node run by the sync API: nothing could cancel it (LangGraph's error).
        raise sync_timeout_unsupported(runner.name)
    attempt = 0
    while True:
        attempt += 1
        if attempt > 1:
            scope.runtime = next_attempt(scope.runtime, attempt)
        try:
            return runner.action.call(value, scope)
        except GraphBubbleUp:
            raise
        except asyncio.CancelledError as exc:
            # A sync node has no event loop to be cancelled by: its own doing.
            raise NodeCancelledError(runner.name) from exc
        except Exception as exc:
            policy = next((p for p in runner.retry_policies if retry_matches(p, exc)), None)
            if policy is None or attempt >= policy.max_attempts:
                raise
            time.sleep(next_interval(policy, attempt))


# -- what it wrote ---------------------------------------------------------------------------------


def _writes(run: Run, runner: NodeRunner, output: Any) -> NodeOutput:
    if runner.is_start:
        result = runner.start_writes(output)
        if run.start_extra:
            result = NodeOutput(writes=(*result.writes, *run.start_extra), updates=result.updates)
        return result
    return runner.output_writes(
        output, from_subgraph=runner.action is not None and runner.action.is_subgraph
    )


def _before_call(task: Task, value: Any) -> InputBefore | None:
    # A Send's argument is not state: changing it loses nothing the graph keeps.
    return None if task.is_push else before_call(value)


def _check_mutations(run: Run, runner: NodeRunner, before: InputBefore, result: NodeOutput) -> None:
    written = {c for c, _ in result.writes}
    warn_unreturned(runner.name, before, run.graph.spec.channels, run.snapshot.values, written)


# -- its conditional edges -------------------------------------------------------------------------


_ROUTE_RESULTS = frozenset({str, list, tuple, type(None), Send})
"""What conditional edges usually return, none of them a coroutine."""


# A node's run in LangGraph is a sequence: the node (step 1), its writes (step 2),
# then each conditional edge (steps 3, 4, ...); traces carry those step tags.
_FIRST_BRANCH_STEP = 3


def _route(
    run: Run,
    runner: NodeRunner,
    result: NodeOutput,
    scope: LazyTaskScope,
    output: Any = None,
    traced: Any = None,
) -> list[Any]:
    out = []
    values = _edge_inputs(run, runner, result, scope, output)
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


def _edge_inputs(
    run: Run, runner: NodeRunner, result: NodeOutput, scope: LazyTaskScope, output: Any
) -> list[Any]:
    """What each branch of the node reads: the state with the node's writes applied.

    The channel updates this computes are kept on the scope, for the step's `apply`.
    """
    graph = run.graph
    folded: dict[str, Any] = {}
    snapshot = run.snapshot
    # Writes the node sent while running (CONFIG_KEY_SEND, push_message) come first.
    writes = (*scope.pushed, *result.writes) if scope.pushed else result.writes
    values = branch_inputs(
        runner, graph.spec, snapshot, writes, graph.state_channels, output, run.stop, folded
    )
    if folded:
        scope.folded = (snapshot, folded)
    return values


def branch_inputs(
    runner: NodeRunner,
    spec: Any,
    snapshot: Any,
    writes: Sequence[tuple[str, Any]],
    fallback: Sequence[str],
    output: Any = None,
    stop: int = 0,
    folded: Any = None,
) -> list[Any]:
    """What each conditional edge gets: the state after this task's own writes, as the
    schema it reads (a dict, a dataclass or pydantic instance, or the root value);
    each edge gets its own private copy.

    As in LangGraph, an edge without a schema of its own whose node returned a
    dict also sees that dict's other keys (the state read wins on shared keys).
    """
    # The fresh values alone: a snapshot around them would only be read for its step.
    local = fresh_values(spec, snapshot, writes, folded)
    step = snapshot.step
    reads = runner.branch_reads or tuple((tuple(fallback), None, ()) for _ in runner.branches)
    out = []
    for (keys, schema, managed), (_, branch) in zip(reads, runner.branches, strict=True):
        state = read_values(spec, local, step, keys, managed, stop)
        if keys == (ROOT,):
            out.append(state.get(ROOT))
            continue
        value = to_schema(schema, state) if schema is not None else state
        if type(value) is dict and isinstance(output, dict) and branch.input_schema is None:
            value = {**output, **value}
        out.append(value)
    return out


def route_writes(runner: NodeRunner, results: Sequence[Any]) -> Writes:
    """Writes for the destinations chosen by each conditional edge of a node."""
    writes: Writes = []
    for (_, branch), result in zip(runner.branches, results, strict=True):
        for dest in branch.destinations(result, runner.name):
            writes.extend(runner.goto_writes(dest, "a conditional edge"))
    return writes


# -- the task's result -----------------------------------------------------------------------------


def _finish(
    run: Run,
    task: Task,
    runner: NodeRunner,
    result: NodeOutput,
    cached: bool,
    scope: LazyTaskScope,
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


def _end_chain_run(traced: Any, result: TaskResult, policy: Any = None) -> None:
    if result.output is not None:
        end_chain_run(traced, result.output.update_chunk(), policy)
    else:
        traced.on_chain_error(result.error or GraphInterrupt(result.interrupts))


# -- the async run: the same steps, awaited --------------------------------------------------------


async def arun_task(run: Run, task: Task, step: int) -> TaskResult:
    """Async twin of `run_task`."""
    runner = run.graph.runners[task.name]
    if task.path[0] == PUSH and (timeout := _send_timeout(run, task)) is not None:
        runner = attrs.evolve(runner, timeout=timeout)  # this task's own limits
    scope = LazyTaskScope(run, task, step)
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
    t2 = var_child_runnable_config.set(child_config(scope, runner))  # type: ignore[arg-type]
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


def _send_timeout(run: Run, task: Task) -> TimeoutPolicy | None:
    """The timeout a `Send` gave its task (`Send(node, arg, timeout=...)`), if any."""
    index = task.path[1]
    sends = run.snapshot.values.get(TASKS)
    if type(index) is not int or sends is None or index >= len(sends):
        return None
    send = sends[index]
    return send.timeout if isinstance(send, Send) and send.node == task.name else None


async def _acall_cached(
    run: Run, runner: NodeRunner, value: Any, scope: LazyTaskScope
) -> tuple[Any, bool]:
    cache = run.graph.cache
    if cache is None or runner.cache_policy is None:
        return await _acall_node(runner, value, scope), False
    key, hit, output = _cached(cache, runner, value)
    if hit:
        return output, True
    output = await _acall_node(runner, value, scope)
    if key is not None:
        cache.set({key: (output, runner.cache_policy.ttl)})
    return output, False


async def _acall_node(runner: NodeRunner, value: Any, scope: Any) -> Any:
    """The node's call awaited, each attempt under its timeout, retried as `_call_node`."""
    assert runner.action is not None
    attempt = 0
    while True:
        attempt += 1
        if attempt > 1:
            scope.runtime = next_attempt(scope.runtime, attempt)
        try:
            if runner.timeout is None:
                return await runner.action.acall(value, scope)
            return await _timed_attempt(runner, value, scope)
        except GraphBubbleUp:
            raise
        except asyncio.CancelledError as exc:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the run itself is being cancelled
            raise NodeCancelledError(runner.name) from exc
        except Exception as exc:
            policy = next((p for p in runner.retry_policies if retry_matches(p, exc)), None)
            if policy is None or attempt >= policy.max_attempts:
                raise
            await asyncio.sleep(next_interval(policy, attempt))


async def _timed_attempt(runner: NodeRunner, value: Any, scope: Any) -> Any:
    """One attempt under the node's timeout; its runtime carries the attempt's clock."""
    assert runner.action is not None and runner.timeout is not None
    action = runner.action
    base = scope.runtime

    base_config = scope.config

    async def attempt(timed: Any, progress: Any) -> Any:
        scope.runtime = timed
        if progress is not None:
            # Inside the attempt's own task: the context variable stays with it.
            scope.config = merge_configs(base_config, {"callbacks": [progress]})
            var_child_runnable_config.set(scope.config)  # type: ignore[arg-type]
        return await action.acall(value, scope)

    try:
        return await run_with_timeout(runner.name, runner.timeout, attempt, base)
    finally:
        scope.runtime = base
        scope.config = base_config


async def _aroute(
    run: Run,
    runner: NodeRunner,
    result: NodeOutput,
    scope: LazyTaskScope,
    output: Any = None,
    traced: Any = None,
) -> list[Any]:
    out = []
    values = _edge_inputs(run, runner, result, scope, output)
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


async def _aend_chain_run(traced: Any, result: TaskResult, policy: Any = None) -> None:
    if result.output is not None:
        await aend_chain_run(traced, result.output.update_chunk(), policy)
    else:
        await traced.on_chain_error(result.error or GraphInterrupt(result.interrupts))
