"""Preparing a run: merged config, parent and child graphs, modes, runtime.

`make_run` turns the caller's arguments into a `Run` ready to be driven. A graph
invoked inside a node of another graph finds its parent run here (through the
task's config) and inherits its saver, namespace, durability and stream sink.
"""

from __future__ import annotations

import queue
from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import CONFIG_KEYS

from foldgraph._context import TASK_SCOPE, outer_config
from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.names import CONFIG_KEY_READ, CONFIG_KEY_SEND, NS_END, NS_SEP
from foldgraph._shell.coerce import coerce_context
from foldgraph.constants import CONF
from foldgraph.pregel._core import GraphCore, own_namespace
from foldgraph.pregel._protocol import FG_TASK, Emit
from foldgraph.pregel._run import Run
from foldgraph.runtime import RunControl

__all__ = [
    "ALL_MODES",
    "make_run",
    "merge_config",
    "merged_config",
    "no_writer",
    "stream_modes",
    "stream_run",
    "with_str_thread",
]

ALL_MODES = frozenset(
    {"values", "updates", "custom", "checkpoints", "tasks", "debug", "messages", "tools"}
)


def merge_config(graph: GraphCore, config: RunnableConfig | None) -> dict[str, Any]:
    """The graph's own config (from `with_config`) with the call's on top, checked.

    As in LangGraph, a key given as None means its default, a top-level key that
    is not a config key (`{"thread_id": ...}`) is taken as a `configurable` entry,
    and a recursion limit below 1 is a ValueError before anything runs. Always a
    new dict (its `configurable` may be shared with the caller's).
    """
    merged = merged_config(graph.config, config)
    conf = merged.get(CONF)
    if conf:
        thread_id = conf.get("thread_id")
        if thread_id is not None and not isinstance(thread_id, str):
            conf = merged[CONF] = {**conf, "thread_id": str(thread_id)}
        keys = _TO_METADATA.intersection(conf)
        if keys:
            metadata = merged.get("metadata") or {}
            extra = {k: conf[k] for k in keys if conf[k] and k not in metadata}
            if extra:
                merged["metadata"] = {**metadata, **extra}
    limit = merged.get("recursion_limit")
    if limit is not None and limit < 1:
        raise ValueError("recursion_limit must be at least 1")
    return merged


def with_str_thread(config: Any) -> Any:
    """`config` with its `thread_id` as a string: LangGraph stores and shows a thread
    given as a UUID (or an int) under its `str`, so both name the same thread."""
    conf = config.get(CONF) if config else None
    thread_id = conf.get("thread_id") if conf else None
    if thread_id is None or isinstance(thread_id, str):
        return config
    return {**config, CONF: {**conf, "thread_id": str(thread_id)}}


_TO_METADATA = frozenset(
    ("thread_id", "checkpoint_id", "checkpoint_ns", "task_id", "run_id", "assistant_id", "graph_id")
)
"""Keys of `configurable` a run's metadata also carries (as LangGraph's run config does)."""


_CONFIG_KEYS = frozenset(CONFIG_KEYS)


def merged_config(base: Any, config: Any) -> dict[str, Any]:
    """`base` with `config` on top (a new dict): None values are skipped, `configurable`
    entries merged, and a top-level key that is not a config key goes to `configurable`."""
    merged = {k: v for k, v in base.items() if v is not None} if base else {}
    if not config:
        return merged
    for key, value in config.items():
        if value is None:
            continue
        if key == CONF:
            merged[CONF] = {**merged.get(CONF, {}), **value}
        elif key in _CONFIG_KEYS:
            merged[key] = value
        else:
            merged[CONF] = {**merged.get(CONF, {}), key: value}
    return merged


def make_run(
    graph: GraphCore,
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
    cfg = merge_config(graph, config)
    conf = cfg.get(CONF, {})
    parent_ref = conf.get(FG_TASK)
    relay: tuple[Any, ...] = ()
    if parent_ref is None:
        outer = outer_config()
        if outer is not None:
            # Called inside a node: inherit the node's config (thread and all), unless
            # the call names its own checkpoint (a thread_id, say): then, as in
            # LangGraph, it is a graph of its own, run as a root on that thread.
            own = _addresses_own_checkpoint(conf)
            if not own:
                parent_ref = outer.get(CONF, {}).get(FG_TASK)
            cfg = {
                **outer,
                **cfg,
                CONF: conf if own else {**outer.get(CONF, {}), **conf},
                "metadata": {**outer.get("metadata", {}), **cfg.get("metadata", {})},
            }
            if outer.get("tags") and cfg.get("tags") is not outer.get("tags"):
                # The caller's tags and the graph's own, in that order (as LangGraph).
                cfg["tags"] = list(dict.fromkeys([*outer["tags"], *(cfg.get("tags") or ())]))
            if own:
                _drop_handlers(cfg, _streams_only_its_graph)
                relay = _messages_handlers_in(cfg)
            conf = cfg[CONF]
    checkpointer = graph.checkpointer
    ns: tuple[str, ...] = ()
    checkpoint_ns = ""
    parent_resume: list[Any] | None = None
    stateful_child = False
    sink = None
    parent_run = None
    child_saver = None
    null_resume: list[Any] = []
    if parent_ref is not None:
        parent_run, parent_task = parent_ref
        ns = (*parent_run.ns, f"{parent_task.name}{NS_END}{parent_task.id}")
        checkpoint_ns = parent_run.task_namespace(parent_task)
        scope = TASK_SCOPE.get()
        if scope is not None:
            # Each later graph call of one task gets its own namespace: `|1`, `|2`, ...
            pad = scope.scratchpad
            calls = pad.subgraph_calls
            pad.subgraph_calls = calls + 1
            if calls:
                ns = (*ns, str(calls))
                checkpoint_ns = f"{checkpoint_ns}{NS_SEP}{calls}"
        # As LangGraph: a nested graph saves with the saver its parent lends it (never
        # its own), none with checkpointer=False; what it lends on is what it was lent.
        child_saver = parent_run.child_saver
        stateful_child = checkpointer is True and child_saver is not None
        if stateful_child:
            # One namespace for all its calls, no task ids: in streams too (as LangGraph).
            checkpoint_ns = own_namespace(graph, checkpoint_ns)
            ns = tuple(checkpoint_ns.split(NS_SEP))
        checkpointer = None if checkpointer is False else child_saver
        durability = durability or parent_run.durability
        answer = parent_run.resumed.get(parent_task.id, MISSING)
        if answer is not MISSING and scope is not None:
            # The answer the task was resumed with waits here for the first graph it
            # calls that takes it: one with a waiting interrupt, or one starting afresh.
            pad = scope.scratchpad
            if pad.child_resume is None:
                pad.child_resume = [answer]
            parent_resume = pad.child_resume
        # One answer given without an id is taken once, by the first interrupt() to
        # ask at any depth (LangGraph's null resume).
        null_resume = parent_run.null_resume
        sink = parent_run.sink
        conf = {k: v for k, v in conf.items() if k not in _NOT_INHERITED}
        conf["checkpoint_ns"] = checkpoint_ns
        conf["__fg_parents__"] = {
            **parent_run._parents(),
            parent_run.checkpoint_ns: parent_run.snapshot.id,
        }
        cfg[CONF] = conf  # cfg is this run's own dict (see merge_config)
    else:
        conf = cfg[CONF] = _root_address(conf)
        if checkpointer is True:
            raise RuntimeError("checkpointer=True cannot be used for root graphs.")
        if checkpointer is False:
            checkpointer = None
        child_saver = checkpointer
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
    runtime = None
    runtime_parts = None
    if context is None and parent_run is not None:
        runtime = parent_run.runtime
        if writer is not no_writer:
            # Streamed with "custom" inside a node: its writes go to that node's stream
            # only, as LangGraph's innermost writer takes them.
            runtime = runtime.override(stream_writer=writer)
        elif "custom" in parent_run.modes:
            runtime = runtime.override(stream_writer=custom_writer(sink, ns))
    else:
        # Made when first asked for (`Run.runtime`); the context is checked now.
        runtime_parts = (
            context if context is None else coerce_context(graph.context_schema, context),
            graph.store,
            writer,
        )
    run = Run(
        graph=graph,
        input=input,
        config=cfg,
        modes=modes,
        interrupt_before=_nodes_arg(interrupt_before, graph.interrupt_before_nodes),
        interrupt_after=_nodes_arg(interrupt_after, graph.interrupt_after_nodes),
        durability=durability or "async",
        checkpointer=checkpointer,
        child_saver=child_saver,
        _runtime=runtime,
        _runtime_parts=runtime_parts,
    )
    if parent_run is None:
        if relay:
            # A graph on its own thread inside a node: the streams of callers asking for
            # subgraphs hear its chat models through the callbacks, and get its nodes'
            # written messages through this.
            from foldgraph._shell.messages import StreamMessagesHandler

            run.messages = StreamMessagesHandler.relaying(relay)
        return run  # a root run: the fields a nested run sets keep their defaults
    run.sink_modes = run.sink_takes = parent_run.sink_takes
    if writer is not no_writer:
        run.sink_modes = run.sink_modes - {"custom"}  # its own stream takes them
    if sink is not None:
        if not modes:
            run.modes = parent_run.modes
        elif not modes >= run.sink_modes:
            # Streamed inside a node of a root streaming subgraphs: the root gets this
            # graph's chunks of the modes it streams, the node those it asked for.
            run.modes = modes | run.sink_modes
            run.shown_modes = modes
    run.ns = ns
    run.checkpoint_ns = checkpoint_ns
    run.parent_resume = parent_resume
    run.null_resume = null_resume
    run.nested = True
    run.stateful_child = stateful_child
    run.resuming = parent_run.resuming
    run.replay = parent_run.replay
    run.parent_sink = sink
    run.sink = sink
    run.messages = parent_run.messages
    return run


# A nested graph's tasks get their own send/read; the caller's task's are not its own.
_NOT_INHERITED = frozenset((FG_TASK, "checkpoint_id", CONFIG_KEY_SEND, CONFIG_KEY_READ))


def _root_address(conf: dict[str, Any]) -> dict[str, Any]:
    """A root run's configurable, as LangGraph reads it. A subgraph's config (from its
    history) given to the root graph addresses the root's checkpoint in its
    checkpoint_map, and the subgraph's own through the same map; a run with a
    checkpoint_map records it as the parents of the checkpoints it saves."""
    mapping = conf.get("checkpoint_map")
    if conf.get("checkpoint_ns"):
        conf = {k: v for k, v in conf.items() if k != "checkpoint_id"}
        conf["checkpoint_ns"] = ""
        if mapping and "" in mapping:
            conf["checkpoint_id"] = mapping[""]
    if mapping:
        conf = {**conf, "__fg_parents__": dict(mapping)}
    return conf


_COORDINATES = ("thread_id", "checkpoint_ns", "checkpoint_id", "checkpoint_map")


def _addresses_own_checkpoint(conf: dict[str, Any]) -> bool:
    return any(conf.get(key) not in (None, "", {}) for key in _COORDINATES)


def stream_run(
    graph: GraphCore,
    input: Any,
    config: Any,
    stream_mode: Any,
    subgraphs: bool,
    version: str = "v1",
    **options: Any,
) -> tuple[Run, queue.SimpleQueue[Any] | None, str | None]:
    """Set up a streaming run: its modes, its live queue and its messages handler."""
    modes, single = stream_modes(graph, stream_mode, config)
    calls = graph.streams_task_calls
    live, writer = _live_queue(modes, calls)
    run = make_run(graph, input, config, modes, writer=writer, **options)
    run.subgraphs = subgraphs
    if calls and live is not None and modes & _CALL_MODES:
        run.live_calls = live.put
    if subgraphs and (run.sink is None or run.nested):
        # The root of the tree (or of a graph streamed with subgraphs inside a node):
        # every graph below sends its chunks here, in the order they happen (through
        # the live queue when the run has one); a nested run passes them on.
        run.sink = _QueueSink(live) if live is not None else run.child_sink
        run.sink_takes = run.modes
    # Content-block events only for the v3 reader's own stream (a v2 stream it marks):
    # a graph a node streams with `stream_mode="messages"` keeps v1 chunks under it.
    v2 = version == "v2" and bool((config or {}).get(CONF, {}).get(_MESSAGES_V2))
    handler = _messages_handler(modes, live, run, subgraphs, v2)
    tools = None
    if "tools" in modes and live is not None:
        from foldgraph._shell.tools import StreamToolCallHandler

        tools = StreamToolCallHandler(
            lambda ns, data: live.put(Emit(ns, "tools", data)), subgraphs=subgraphs
        )
        run.tools = tools
    if handler is not None or tools is not None:
        _own_stream_handlers(run, handler, tools)
    if handler is not None and not run.nested:
        handler.relay = _messages_handlers_in(run.config)
    if handler is not None:
        run.messages = handler
    return run, live, single


def _messages_handlers_in(config: dict[str, Any]) -> tuple[Any, ...]:
    """The messages-stream handlers among `config`'s callbacks (a caller's)."""
    callbacks = config.get("callbacks")
    if not callbacks:
        return ()
    from foldgraph._shell.messages import StreamMessagesHandler

    handlers = callbacks if isinstance(callbacks, list) else callbacks.handlers
    return tuple(h for h in handlers if isinstance(h, StreamMessagesHandler))


_MESSAGES_V2 = "__pregel_stream_messages_v2"


def _own_stream_handlers(run: Run, messages: Any, tools: Any) -> None:
    """A run streaming messages or tools hears its tasks' events through its own handler.

    The caller's handlers ride in the config this run inherits. Inside a node that
    streams a graph, the caller's stream gets the graph's chunks through the run's
    sink (when it asked for subgraphs) and never otherwise, so its handler of the same
    kind is dropped here: a chunk reaches each stream once, and only a stream that
    takes it (as LangGraph). A graph on a thread of its own has no sink: a caller's
    handler asking for subgraphs keeps hearing it, a v3 reader's content-block
    handler does not when the graph streams v1 messages itself.
    """
    from foldgraph._shell.messages import StreamMessagesHandler, StreamMessagesHandlerV2
    from foldgraph._shell.tools import StreamToolCallHandler

    def drop(h: Any) -> bool:
        if h is messages or h is tools:
            return False
        if messages is not None and isinstance(h, StreamMessagesHandler):
            return run.nested or (
                isinstance(h, StreamMessagesHandlerV2)
                and not isinstance(messages, StreamMessagesHandlerV2)
            )
        return run.nested and tools is not None and isinstance(h, StreamToolCallHandler)

    _drop_handlers(run.config, drop)


def _streams_only_its_graph(handler: Any) -> bool:
    """A caller's messages or tools handler without `subgraphs=True`: a graph run as a
    root inside a node (on a thread of its own) starts its namespaces at the root, so
    such a handler would take its chunks for the caller's graph's (LangGraph drops it)."""
    from foldgraph._shell.messages import StreamMessagesHandler
    from foldgraph._shell.tools import StreamToolCallHandler

    return isinstance(handler, StreamMessagesHandler | StreamToolCallHandler) and not (
        handler.subgraphs
    )


def _drop_handlers(config: dict[str, Any], drop: Any) -> None:
    """Remove the callback handlers `drop` picks from `config` (a run's own dict)."""
    callbacks = config.get("callbacks")
    if not callbacks:
        return
    if isinstance(callbacks, list):
        if any(drop(h) for h in callbacks):
            config["callbacks"] = [h for h in callbacks if not drop(h)]
        return
    handlers = getattr(callbacks, "handlers", ())
    inheritable = getattr(callbacks, "inheritable_handlers", ())
    if not any(drop(h) for h in (*handlers, *inheritable)):
        return
    manager = callbacks.copy()
    manager.handlers = [h for h in manager.handlers if not drop(h)]
    manager.inheritable_handlers = [h for h in manager.inheritable_handlers if not drop(h)]
    config["callbacks"] = manager


class _QueueSink:
    """A live queue seen as a sink: subgraph chunks interleave with custom and messages
    chunks in the order they are produced."""

    __slots__ = ("append",)

    def __init__(self, live: queue.SimpleQueue[Any]) -> None:
        self.append = live.put


def custom_writer(sink: Any, ns: tuple[str, ...]) -> Any:
    """A subgraph's (or a task call's) `custom` writer: its chunks carry its namespace,
    and are dropped unless the root streams with `subgraphs=True` (as LangGraph)."""
    if sink is None:
        return no_writer
    return lambda chunk: sink.append(Emit(ns, "custom", chunk))


def stream_modes(
    graph: GraphCore, stream_mode: Any, config: Any
) -> tuple[frozenset[str], str | None]:
    if stream_mode is None:
        nested = (config or {}).get(CONF, {}).get(FG_TASK) if config else None
        outer = outer_config()
        if nested is None and outer is not None:
            own = _addresses_own_checkpoint((config or {}).get(CONF) or {})
            nested = None if own else outer.get(CONF, {}).get(FG_TASK)
        stream_mode = "values" if nested is not None else graph.stream_mode
    if isinstance(stream_mode, str):
        modes = [stream_mode]
        single: str | None = stream_mode
    else:
        modes = list(stream_mode)
        single = None
    for mode in modes:
        if mode not in ALL_MODES:
            raise ValueError(f"Unknown stream_mode {mode!r}: use one of {sorted(ALL_MODES)}.")
    return frozenset(modes), single


def no_writer(_chunk: Any) -> None:
    return None


_CALL_MODES = frozenset({"updates", "tasks", "debug"})


def _live_queue(
    modes: frozenset[str], calls: bool = False
) -> tuple[queue.SimpleQueue[Any] | None, Any]:
    """The thread-safe queue for chunks emitted while tasks run, and the custom writer
    (`calls`: the graph's task calls stream their results as they end)."""
    if not modes & {"custom", "messages", "tools"} and not (calls and modes & _CALL_MODES):
        return None, no_writer
    live = LiveQueue()
    return live, (live.put if "custom" in modes else no_writer)


class LiveQueue(queue.SimpleQueue):  # type: ignore[type-arg]
    """A run's live queue: thread-safe, and an async driver waiting on a step is woken
    as each chunk arrives (`waker`), so it streams the chunk before the task that put it
    goes on (as LangGraph delivers them), not at its next look."""

    waker: Any = None

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        super().put(item)
        waker = self.waker
        if waker is not None:
            waker()


def _messages_handler(
    modes: frozenset[str],
    live: queue.SimpleQueue[Any] | None,
    run: Run,
    subgraphs: bool,
    v2: bool = False,
) -> Any:
    """The messages-mode handler; `v2` (a v3 run) wants content-block events."""
    if "messages" not in modes or live is None:
        return None
    from foldgraph._shell.messages import StreamMessagesHandler, StreamMessagesHandlerV2

    handler = StreamMessagesHandlerV2 if v2 else StreamMessagesHandler
    return handler(
        lambda ns, payload: live.put(Emit(ns, "messages", payload)),
        # Below a caller streaming subgraphs, every depth goes on to the caller's sink.
        depth=None if subgraphs or run.sink is not None else len(run.ns),
        subgraphs=subgraphs,
    )


def _nodes_arg(value: Any, default: Sequence[str]) -> Sequence[str]:
    if value is None:
        return default  # the graph's own list: a run only reads it
    if isinstance(value, str):
        return [value]
    return list(value)


def attach_control(run: Run, control: Any) -> None:
    """Give a run its `RunControl` (from the caller, else its parent's, else a fresh one).

    The runtime carries it too, so a node can read `runtime.drain_requested`.
    """
    runtime = run._runtime
    if control is None:
        control = (runtime.control if runtime is not None else None) or RunControl()
    run.control = control
    if runtime is not None and runtime.control is not control:
        run._runtime = runtime.override(control=control)
