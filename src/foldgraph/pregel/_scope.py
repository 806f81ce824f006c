"""A task's scope: the config, runtime and scratchpad node code reaches, built on first read.

`LazyTaskScope` is what `_context.TASK_SCOPE` holds while a task runs (`get_config`,
`get_runtime`, `interrupt()` read it); `child_config` is what LangChain code inside the
node finds in `var_child_runnable_config`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from foldgraph._context import Scratchpad, TaskScope
from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.fold import read_fresh, read_state
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.names import (
    CONFIG_KEY_DURABILITY,
    CONFIG_KEY_READ,
    CONFIG_KEY_SEND,
    PREVIOUS,
)
from foldgraph._kernel.snapshot import Task
from foldgraph._shell.node import NODE_ERROR
from foldgraph.constants import CONF
from foldgraph.pregel._node import NodeRunner
from foldgraph.pregel._protocol import FG_TASK
from foldgraph.pregel._run import Run
from foldgraph.runtime import ExecutionInfo

__all__ = ["LazyTaskScope", "child_config"]


class LazyTaskScope(TaskScope):
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
    """The `CONFIG_KEY_READ` function of a task (see `LazyTaskScope.read_channels`).

    `channels` names the graph's state channels: a reader of the whole state (a
    ToolNode given bare tool calls) reads those.
    """

    __slots__ = ("channels", "scope")

    def __init__(self, scope: LazyTaskScope, channels: Sequence[str]) -> None:
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

    def __init__(self, scope: LazyTaskScope) -> None:
        self._scope: LazyTaskScope | None = scope

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


def child_config(scope: LazyTaskScope, runner: NodeRunner) -> dict[str, Any]:
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
