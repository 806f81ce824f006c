"""The low-level graph API: nodes built with `NodeBuilder`, wired by channel names.

    node = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    app = Pregel(nodes={"node": node}, channels={"a": EphemeralValue(str),
                 "b": EphemeralValue(str)}, input_channels=["a"], output_channels=["b"])
    app.invoke({"a": "foo"})  # {"b": "foofoo"}

A node subscribes to channels (it runs in the step after one of them was
written), reads channels (its input: the single subscribed value, or a dict of
the channels it reads), runs its callable and writes the result to channels.
This module turns such nodes into the kernel's spec and the runners the rest of
the package executes; `StateGraph` is one client of the same machinery.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any, NamedTuple

import attrs
from langchain_core.runnables import RunnableSequence
from langchain_core.runnables.base import coerce_to_runnable

from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.names import PULL
from foldgraph._kernel.snapshot import GraphSpec, NodeSpec, Task
from foldgraph._shell.node import action_for
from foldgraph.constants import START
from foldgraph.pregel._node import NodeOutput, NodeRunner
from foldgraph.pregel._timeout import validate_timeout_supported
from foldgraph.types import CachePolicy, RetryPolicy, TimeoutPolicy

logger = logging.getLogger("foldgraph.pregel")

__all__ = [
    "PASSTHROUGH",
    "ChannelWrite",
    "ChannelWriteEntry",
    "NodeBuilder",
    "PregelNode",
    "compile_nodes",
]


class _Passthrough:
    """Write the node's own output (the default value of a `ChannelWriteEntry`)."""

    def __repr__(self) -> str:
        return "PASSTHROUGH"


PASSTHROUGH: Any = _Passthrough()


class ChannelWriteEntry(NamedTuple):
    """One write of a node: to `channel`, the output (or `value`), through `mapper`;
    with `skip_none`, a None is not written."""

    channel: str
    value: Any = PASSTHROUGH
    skip_none: bool = False
    mapper: Callable[[Any], Any] | None = None


@attrs.frozen(slots=True)
class ChannelWrite:
    """The writes a node makes after it ran."""

    writes: tuple[ChannelWriteEntry, ...] = ()

    def pairs(self, output: Any) -> list[tuple[str, Any]]:
        out = []
        for entry in self.writes:
            value = output if entry.value is PASSTHROUGH else entry.value
            if entry.mapper is not None:
                value = entry.mapper(value)
            if entry.skip_none and value is None:
                continue
            out.append((entry.channel, value))
        return out


@attrs.frozen(slots=True)
class PregelNode:
    """A built low-level node: what triggers it, what it reads, what it runs and writes."""

    channels: str | tuple[str, ...]
    triggers: tuple[str, ...]
    bound: Any
    writers: tuple[ChannelWrite, ...] = ()
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    retry_policy: tuple[RetryPolicy, ...] = ()
    cache_policy: CachePolicy | None = None
    timeout: TimeoutPolicy | None = None

    def reads(self) -> tuple[str, ...]:
        return (self.channels,) if isinstance(self.channels, str) else tuple(self.channels)


def _identity(value: Any) -> Any:
    return value


class NodeBuilder:
    """Build a low-level node step by step; `Pregel(nodes=...)` accepts the builder or
    its `build()`."""

    __slots__ = (
        "_bound",
        "_cache_policy",
        "_channels",
        "_metadata",
        "_retry_policy",
        "_tags",
        "_timeout",
        "_triggers",
        "_writes",
    )

    def __init__(self) -> None:
        self._channels: str | list[str] = []
        self._triggers: list[str] = []
        self._tags: list[str] = []
        self._metadata: dict[str, Any] = {}
        self._writes: list[ChannelWriteEntry] = []
        self._bound: list[Any] = []
        self._retry_policy: list[RetryPolicy] = []
        self._cache_policy: CachePolicy | None = None
        self._timeout: TimeoutPolicy | None = None

    def subscribe_only(self, channel: str) -> NodeBuilder:
        """Run when `channel` is written, with its value as the input."""
        if self._channels:
            raise ValueError(
                "Cannot subscribe to single channels when other channels are already subscribed to"
            )
        self._channels = channel
        self._triggers.append(channel)
        return self

    def subscribe_to(self, *channels: str, read: bool = True) -> NodeBuilder:
        """Run when any of `channels` is written, with a dict of channel values as input
        (`read=False`: they trigger the node without being part of its input)."""
        if isinstance(self._channels, str):
            raise ValueError("Cannot subscribe to channels when subscribed to a single channel")
        if read:
            self._channels.extend(channels)
        self._triggers.extend(channels)
        return self

    def read_from(self, *channels: str) -> NodeBuilder:
        """Also put these channels in the input, without being triggered by them."""
        if isinstance(self._channels, str):
            raise ValueError("Cannot read additional channels when subscribed to single channels")
        self._channels.extend(channels)
        return self

    def do(self, node: Any) -> NodeBuilder:
        """The callable (or Runnable) to run; several `do`s run one after the other."""
        self._bound.append(node)
        return self

    def write_to(self, *channels: str | ChannelWriteEntry, **kwargs: Any) -> NodeBuilder:
        """Write the output to `channels`; `name=callable` writes `callable(output)`,
        `name=value` writes that value."""
        self._writes.extend(ChannelWriteEntry(c) if isinstance(c, str) else c for c in channels)
        self._writes.extend(
            ChannelWriteEntry(k, mapper=v) if callable(v) else ChannelWriteEntry(k, value=v)
            for k, v in kwargs.items()
        )
        return self

    def meta(self, *tags: str, **metadata: Any) -> NodeBuilder:
        self._tags.extend(tags)
        self._metadata.update(metadata)
        return self

    def add_retry_policies(self, *policies: RetryPolicy) -> NodeBuilder:
        self._retry_policy.extend(policies)
        return self

    def add_cache_policy(self, policy: CachePolicy) -> NodeBuilder:
        self._cache_policy = policy
        return self

    def set_timeout(self, timeout: float | timedelta | TimeoutPolicy | None) -> NodeBuilder:
        self._timeout = TimeoutPolicy.coerce(timeout)
        return self

    def build(self) -> PregelNode:
        if not self._bound:
            bound: Any = _identity
        elif len(self._bound) == 1:
            bound = self._bound[0]
        else:
            bound = RunnableSequence(*(coerce_to_runnable(b) for b in self._bound))
        channels = self._channels if isinstance(self._channels, str) else tuple(self._channels)
        return PregelNode(
            channels=channels,
            triggers=tuple(self._triggers),
            bound=bound,
            writers=(ChannelWrite(tuple(self._writes)),),
            tags=tuple(self._tags),
            metadata=dict(self._metadata),
            retry_policy=tuple(self._retry_policy),
            cache_policy=self._cache_policy,
            timeout=self._timeout,
        )


@attrs.frozen(slots=True)
class LowLevelRunner(NodeRunner):
    """A `NodeRunner` for a `PregelNode`: its input is a channel value (or a dict of
    them) and its output goes through its channel writers."""

    single: str | None = None
    writers: tuple[ChannelWrite, ...] = ()
    streamed: frozenset[str] = frozenset()
    channels: frozenset[str] | None = None
    """The graph's channels: a write to another name is ignored with LangGraph's warning."""

    def node_input(self, task: Task) -> Any:
        if task.is_push:
            return thaw(task.input)
        if self.single is not None:
            value = task.input.get(self.single)
            return thaw(value)
        return {k: thaw(v) for k, v in task.input.items()}

    def output_writes(self, output: Any, *, from_subgraph: bool = False) -> NodeOutput:
        writes = [pair for writer in self.writers for pair in writer.pairs(output)]
        if self.channels is not None:
            for key, _ in writes:
                if key not in self.channels and not key.startswith("__"):
                    logger.warning(
                        "Task %s with path %s wrote to unknown channel %s, ignoring it.",
                        self.name,
                        (PULL, self.name),
                        key,
                    )
        shown = {k: v for k, v in writes if k in self.streamed}
        return NodeOutput(writes=tuple(writes), updates=(shown,) if shown else ())


def _as_list(channels: str | Sequence[str]) -> list[str]:
    return [channels] if isinstance(channels, str) else list(channels)


def compile_nodes(
    nodes: Mapping[str, PregelNode | NodeBuilder],
    channels: Mapping[str, Any],
    input_channels: str | Sequence[str],
    stream_channels: str | Sequence[str] | None,
    retry_policy: Sequence[RetryPolicy] = (),
    cache_policy: CachePolicy | None = None,
) -> tuple[dict[str, PregelNode], GraphSpec, dict[str, NodeRunner], list[str]]:
    """Built nodes, the kernel spec, the runners and the node order for `Pregel`."""
    built = {
        name: node.build() if isinstance(node, NodeBuilder) else node
        for name, node in nodes.items()
    }
    # The channels keep the key they were given (LangGraph names only a StateGraph's).
    named = dict(channels)
    streamed = frozenset(_as_list(stream_channels if stream_channels is not None else list(named)))
    specs = {}
    runners: dict[str, NodeRunner] = {}
    for name, node in built.items():
        specs[name] = NodeSpec(name=name, triggers=node.triggers, reads=node.reads())
        runners[name] = LowLevelRunner(
            name=name,
            action=action_for(node.bound, name),
            retry_policy=node.retry_policy or tuple(retry_policy) or None,
            cache_policy=node.cache_policy or cache_policy,
            timeout=node.timeout,
            metadata=dict(node.metadata),
            single=node.channels if isinstance(node.channels, str) else None,
            writers=node.writers,
            streamed=streamed,
            channels=frozenset(named),
        )
    runners[START] = NodeRunner.for_start(
        input_keys=tuple(_as_list(input_channels)),
        static_writes=(),
        branches=(),
        state_keys=tuple(named),
    )
    return built, GraphSpec.build(named, specs), runners, list(built)


def input_writes(input_channels: str | Sequence[str], value: Any) -> list[tuple[str, Any]]:
    """The graph input as writes to its input channels (a value, or a dict of them)."""
    if isinstance(input_channels, str):
        return [(input_channels, value)]
    if isinstance(value, Mapping):
        return [(k, value[k]) for k in input_channels if k in value]
    if len(input_channels) == 1:
        return [(input_channels[0], value)]
    raise TypeError(f"Expected a dict of the input channels {list(input_channels)}, got {value!r}")


# Names the runner uses itself (write keys, config keys, path markers), as LangGraph reserves.
_RESERVED = frozenset(
    {
        "langsmith:hidden",
        "__input__",
        "__interrupt__",
        "__resume__",
        "__error__",
        "__no_writes__",
        "__pregel_push",
        "__pregel_pull",
        "checkpoint_ns",
        "checkpoint_id",
        "configurable",
        "|",
        ":",
    }
)


def validate(
    nodes: Mapping[str, PregelNode],
    channels: Mapping[str, Any],
    input_channels: str | Sequence[str],
    output_channels: str | Sequence[str],
    stream_channels: str | Sequence[str] | None,
    interrupt_before_nodes: Any,
    interrupt_after_nodes: Any,
) -> None:
    """Refuse a low-level graph that names a channel or node it does not have, with
    LangGraph's messages (the known channels listed include the Send topic)."""
    for name, node in nodes.items():
        if isinstance(node, PregelNode) and node.timeout is not None:
            # What the node runs: its callable (the default passes its input through)
            # and any writer given as a Runnable; each must be async to be cancelled.
            work = [] if node.bound is _identity else [node.bound]
            work.extend(w for w in node.writers if not isinstance(w, ChannelWrite))
            for target in work:
                validate_timeout_supported(target, name)
    known = repr(sorted([*channels, "__pregel_tasks"]))[:100]
    for name in channels:
        if name in _RESERVED:
            raise ValueError(f"Channel name '{name}' is reserved")
    subscribed: set[str] = set()
    for name, node in nodes.items():
        if name in _RESERVED:
            raise ValueError(f"Node name '{name}' is reserved")
        if not isinstance(node, PregelNode):
            raise TypeError(f"Invalid node type {type(node)}, expected PregelNode or NodeBuilder")
        subscribed.update(node.triggers)
        for channel in node.reads():
            if channel not in channels:
                raise ValueError(
                    f"Node {name} reads channel '{channel}' not in known channels: '{known}'"
                )
    for channel in subscribed:
        if channel not in channels:
            raise ValueError(f"Subscribed channel '{channel}' not in known channels: '{known}'")
    if isinstance(input_channels, str):
        if input_channels not in channels:
            raise ValueError(f"Input channel '{input_channels}' not in known channels: '{known}'")
        if input_channels not in subscribed:
            raise ValueError(f"Input channel {input_channels} is not subscribed to by any node")
    else:
        for channel in input_channels:
            if channel not in channels:
                raise ValueError(f"Input channel '{channel}' not in '{known}'")
        if all(channel not in subscribed for channel in input_channels):
            raise ValueError(
                f"None of the input channels {input_channels} are subscribed to by any node"
            )
    outputs = set(_as_list(output_channels))
    if stream_channels is not None:
        outputs.update(_as_list(stream_channels))
    for channel in outputs:
        if channel not in channels:
            raise ValueError(f"Output channel '{channel}' not in known channels: '{known}'")
    for names in (interrupt_after_nodes, interrupt_before_nodes):
        if names != "*":
            for node_name in names:
                if node_name not in nodes:
                    raise ValueError(f"Node {node_name} not in nodes")
