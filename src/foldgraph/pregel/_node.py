"""A node as compiled: what its task reads as input, what its return writes, what its edges read.

The task that calls it is `_task`'s; this holds the node's data and what is derived from it.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import attrs
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import merge_configs

from foldgraph._kernel.channels import Overwrite
from foldgraph._kernel.frozen import freeze, thaw
from foldgraph._kernel.message_log import coerce_messages
from foldgraph._kernel.names import PUSH, ROOT
from foldgraph._kernel.records import tuple_builder
from foldgraph._kernel.snapshot import Task
from foldgraph._shell.coerce import input_builder, object_fields
from foldgraph._shell.node import NodeAction, action_for
from foldgraph.constants import END, START, TASKS
from foldgraph.errors import ErrorCode, InvalidUpdateError, ParentCommand, create_error_message
from foldgraph.pregel._branch import Branch
from foldgraph.types import CachePolicy, Command, RetryPolicy, Send, TimeoutPolicy

__all__ = ["BranchRead", "GraphBase", "NodeOutput", "NodeRunner", "subgraph_of"]

BranchRead = tuple[tuple[str, ...], Any, tuple[tuple[str, str], ...]]
"""What a conditional edge reads: channel keys, the schema, and (key, kind) managed values."""

Writes = list[tuple[str, Any]]


class NodeOutput(NamedTuple):
    """What one task produced: channel writes, and the per-item updates for the stream.

    A NamedTuple: one is made per task, immutable (`_new_output` builds it in C).
    """

    writes: tuple[tuple[str, Any], ...]
    updates: tuple[dict[str, Any], ...] = ()
    cached: bool = False

    def update_chunk(self) -> Any:
        """The value shown under the node's name in the `updates` stream."""
        if not self.updates:
            return None
        if len(self.updates) == 1:
            if ROOT in self.updates[0]:
                return thaw(self.updates[0][ROOT])
            return {k: thaw(v) for k, v in self.updates[0].items()}
        # Several updates (a list of Commands, a Command writing a key twice): as
        # LangGraph, one dict of all the writes, unless a key is written more than
        # once; then one dict per write, in order. A root channel's values as a list.
        pairs = [(k, v) for u in self.updates for k, v in u.items()]
        if any(k == ROOT for k, _ in pairs):
            return [thaw(v) for k, v in pairs if k == ROOT]
        keys = {k for k, _ in pairs}
        if len(keys) < len(pairs):
            return [{k: thaw(v)} for k, v in pairs]
        return {k: thaw(v) for k, v in pairs}


_new_output = tuple_builder(NodeOutput)
"""`NodeOutput` from (writes, updates, cached), built in C."""


class GraphBase:
    """What every compiled graph is (`GraphCore`): how a node finds the graph it runs."""

    __slots__ = ()


@attrs.frozen(slots=True)
class NodeRunner:
    """Everything the runner needs to execute one node and route after it."""

    name: str
    action: NodeAction | None
    input_schema: Any = None
    writable: frozenset[str] = frozenset()
    managed_keys: frozenset[str] = frozenset()
    static_writes: tuple[tuple[str, Any], ...] = ()
    branches: tuple[tuple[str, Branch], ...] = ()
    branch_reads: tuple[BranchRead, ...] = ()
    """Per conditional edge: the channels it reads and the schema it gets them as."""
    state_keys: tuple[str, ...] = ()
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None
    cache_policy: CachePolicy | None = None
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    input_keys: tuple[str, ...] = ()
    root: bool = False
    message_keys: frozenset[str] = frozenset()
    """Channels whose written messages get ids: add_messages ones and DeltaChannels."""
    delta_keys: frozenset[str] = frozenset()
    """The DeltaChannels among `message_keys` (their reducer may be anything)."""
    node_names: frozenset[str] = frozenset()
    strict_updates: bool = False
    """Reject updates to keys the state does not declare (LangGraph drops them)."""
    warn_unreturned_mutations: bool = False
    """Warn when the node changes its input in place and does not return the change."""
    error_handler: str | None = None
    """The node that takes over when this one fails after its retries."""
    timeout: TimeoutPolicy | None = None
    """Limits of each attempt (async nodes only)."""
    trace_policy: Any = None
    """What tracers record of the node's inputs and outputs (`TracePolicy`)."""
    branch_actions: tuple[NodeAction, ...] = attrs.field(default=(), eq=False)
    bound: Any = attrs.field(default=None, eq=False, repr=False)
    """The node's Runnable, as LangGraph programs read it (`graph.nodes[name].bound`)."""
    is_start: bool = attrs.field(init=False, eq=False, repr=False)
    """START maps the input to writes and runs no user code (it has no action)."""
    direct: Any = attrs.field(init=False, eq=False, repr=False)
    """The node's function when calling it is all `_task._call_node` would do (a plain sync
    function, nothing injected, no retry or timeout), so the task calls it with no layer
    between."""
    input_build: Any = attrs.field(init=False, eq=False, repr=False)
    """How the node's input is built from the state read (None: the dict itself)."""
    none_output: NodeOutput = attrs.field(init=False, eq=False, repr=False)
    """What a node that returns None writes: only its static edges (made once)."""

    def __attrs_post_init__(self) -> None:
        action = self.action
        plain = (
            action is not None
            and not action.is_runnable
            and not action.is_async
            and not action.inject
            and not action.recurse
            and self.retry_policy is None
            and self.timeout is None
        )
        object.__setattr__(self, "is_start", action is None)
        object.__setattr__(self, "input_build", input_builder(self.input_schema))
        object.__setattr__(self, "direct", action.target if plain else None)  # type: ignore[union-attr]
        object.__setattr__(self, "none_output", NodeOutput(writes=self.static_writes))

    @classmethod
    def for_start(
        cls,
        *,
        input_keys: tuple[str, ...],
        static_writes: tuple[tuple[str, Any], ...],
        branches: tuple[tuple[str, Branch], ...],
        state_keys: tuple[str, ...],
        message_keys: frozenset[str] = frozenset(),
        delta_keys: frozenset[str] = frozenset(),
        branch_reads: tuple[BranchRead, ...] = (),
        strict_updates: bool = False,
    ) -> NodeRunner:
        return cls(
            name=START,
            branch_reads=branch_reads,
            strict_updates=strict_updates,
            message_keys=message_keys,
            delta_keys=delta_keys,
            action=None,
            input_keys=input_keys,
            static_writes=static_writes,
            branches=branches,
            state_keys=state_keys,
        )

    def with_nodes(self, names: frozenset[str]) -> NodeRunner:
        return attrs.evolve(
            self,
            node_names=names,
            branch_actions=tuple(action_for(b.path, n) for n, b in self.branches),
        )

    @property
    def retry_policies(self) -> tuple[RetryPolicy, ...]:
        if self.retry_policy is None:
            return ()
        if isinstance(self.retry_policy, RetryPolicy):
            return (self.retry_policy,)
        return tuple(self.retry_policy)

    # -- LangGraph's `PregelNode` surface: `graph.nodes[name]` called on its own -------------

    @property
    def tags(self) -> list[str] | None:
        return None

    @property
    def subgraphs(self) -> list[Any]:
        """The graph this node runs or calls, if any (as `get_subgraphs` finds it)."""
        found = subgraph_of(self)
        return [found] if found is not None else []

    def copy(self, update: Mapping[str, Any]) -> NodeRunner:
        """A copy with the fields in `update` replaced."""
        return attrs.evolve(self, **update)

    def _own_config(self, config: RunnableConfig | None) -> RunnableConfig:
        return merge_configs({"metadata": dict(self.metadata)}, config)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        """Call the node's runnable alone, outside any graph (writes nothing)."""
        return self.bound.invoke(input, self._own_config(config), **kwargs)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return await self.bound.ainvoke(input, self._own_config(config), **kwargs)

    def stream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Any]:
        yield from self.bound.stream(input, self._own_config(config), **kwargs)

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        async for chunk in self.bound.astream(input, self._own_config(config), **kwargs):
            yield chunk

    # -- input ------------------------------------------------------------------------------

    def node_input(self, task: Task) -> Any:
        if task.path[0] == PUSH:
            # A Send's argument is stored with the step: the node gets its own copy.
            return thaw(freeze(task.input))
        if self.is_start:
            return task.input.get(START)
        if self.root:
            return task.input.get(ROOT)
        build = self.input_build
        return task.input if build is None else build(task.input)

    # -- cache ------------------------------------------------------------------------------

    def cache_key(self, value: Any) -> tuple[tuple[str, ...], str] | None:
        if self.cache_policy is None:
            return None
        raw = self.cache_policy.key_func(value)
        digest = hashlib.blake2b(
            raw if isinstance(raw, bytes) else str(raw).encode(), digest_size=16
        ).hexdigest()
        return (("__node_cache__", self.name), digest)

    # -- output -----------------------------------------------------------------------------

    def give_input_ids(self, value: Any) -> None:
        """Ids for the input's messages, on the caller's objects, before the input is stored.

        Done before the input checkpoint is written (and sealed), so that assigning
        them never changes anything already stored.
        """
        if self.message_keys and value is not None:
            try:
                self._give_ids(list(self._input_pairs(value).items()))
            except InvalidUpdateError:
                pass  # reported when START runs

    def start_writes(self, value: Any) -> NodeOutput:
        """The input, written to the input channels, plus the edges leaving START."""
        pairs = self._input_pairs(value)
        return NodeOutput(
            writes=(*self._give_ids(list(pairs.items())), *self.static_writes),
            updates=(pairs,) if pairs else (),
        )

    def _input_pairs(self, value: Any) -> dict[str, Any]:
        if value is None:
            pairs: dict[str, Any] = {}
        elif self.input_keys == (ROOT,):
            pairs = {ROOT: value}
        elif isinstance(value, Mapping):
            pairs = {k: value[k] for k in self.input_keys if k in value}
        else:
            fields = object_fields(value)
            if fields is None:
                raise InvalidUpdateError(
                    f"Expected dict, got {value!r}: the graph input must be a mapping (or an "
                    "instance of the input schema) with the input keys "
                    f"{list(self.input_keys)}."
                )
            pairs = {k: v for k, v in fields.items() if k in self.input_keys}
        return pairs

    def output_writes(self, output: Any, *, from_subgraph: bool = False) -> NodeOutput:
        """Channel writes for what a node returned (dict, schema instance, Command, list)."""
        if output is None and not self.root:
            return self.none_output
        if type(output) is dict and output.keys() <= self.writable and not self.root:
            # The common case: a plain dict of known keys.
            update = dict(output)
            pairs = list(update.items())
            if self.message_keys:
                pairs = self._give_ids(pairs)
            return _new_output(((*pairs, *self.static_writes), (update,) if update else (), False))
        updates: list[dict[str, Any]] = []
        writes: Writes = []
        if output is None:
            pass
        elif isinstance(output, Command):
            self._command(output, writes, updates)
        elif self.root and not (
            isinstance(output, list | tuple) and any(isinstance(i, Command) for i in output)
        ):
            updates.append({ROOT: output})
        elif isinstance(output, Mapping):
            updates.append(self._checked(output, from_subgraph))
        elif (
            isinstance(output, list | tuple)
            and output
            and any(isinstance(item, Command) for item in output)
        ):
            for item in output:
                if isinstance(item, Command):
                    self._command(item, writes, updates)
                elif item is not None:
                    sub = self.output_writes(item, from_subgraph=from_subgraph)
                    updates.extend(sub.updates)
        else:
            fields = object_fields(output)
            if fields is None:
                raise InvalidUpdateError(
                    create_error_message(
                        message=f"Expected dict, got {output}",
                        error_code=ErrorCode.INVALID_GRAPH_NODE_RETURN_VALUE,
                    )
                )
            updates.append(self._checked(fields, from_subgraph=True))
        state_writes = self._give_ids([pair for update in updates for pair in update.items()])
        return NodeOutput(
            writes=(*state_writes, *writes, *self.static_writes),
            updates=tuple(u for u in updates if u),
        )

    def _give_ids(self, pairs: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
        """Messages bound for an add_messages channel get a uuid4 id now.

        Done here, in the shell, as LangGraph does it: the node's own message objects
        get the id in place, and messages given as strings, tuples or dicts are
        converted here with fresh ids (in the returned writes), so the kernel's fold
        never needs randomness and every run hands out new ids.
        """
        if not self.message_keys:
            return pairs
        out = pairs
        for i, (key, value) in enumerate(pairs):
            if key in self.message_keys:
                if key in self.delta_keys:
                    with_ids = stamp_message_ids(value)
                else:
                    with_ids = give_message_ids(value)
                if with_ids is not value:
                    if out is pairs:
                        out = list(pairs)
                    out[i] = (key, with_ids)
        return out

    def _checked(self, update: Mapping[str, Any], from_subgraph: bool) -> dict[str, Any]:
        if type(update) is dict and all(k in self.writable for k in update):
            return dict(update)
        if self.strict_updates and not from_subgraph:
            self._reject_unknown(update)
        return {k: v for k, v in update.items() if k in self.writable}

    def _reject_unknown(self, update: Mapping[str, Any]) -> None:
        unknown = [k for k in update if k not in self.writable and k not in self.managed_keys]
        if unknown:
            raise InvalidUpdateError(
                f"Node '{self.name}' returned an update for unknown state key(s) "
                f"{', '.join(repr(k) for k in unknown)}; the graph's state has keys "
                f"{sorted(self.writable)}. Declare the key in the state schema (or in a schema "
                "a node reads), or stop returning it. (This check is on because the graph "
                "was compiled with strict_updates=True.)"
            )

    def _command(
        self, command: Command[Any], writes: Writes, updates: list[dict[str, Any]]
    ) -> None:
        if command.graph == Command.PARENT:
            raise ParentCommand(command)
        if command.graph is not None:
            raise InvalidUpdateError(
                f"Node '{self.name}' returned Command(graph={command.graph!r}); only "
                "Command.PARENT (or None, for this graph) is supported."
            )
        pairs = command._update_as_tuples()
        if pairs:
            if len({k for k, _ in pairs}) < len(pairs):
                # A key written more than once: every write counts, in order.
                for key, value in pairs:
                    updates.append(self._checked({key: value}, from_subgraph=False))
            else:
                updates.append(self._checked(dict(pairs), from_subgraph=False))
        for goto in command._gotos():
            writes.extend(self.goto_writes(goto, "Command.goto"))

    def goto_writes(self, target: Any, what: str) -> Writes:
        if isinstance(target, Send):
            if target.node not in self.node_names:
                raise InvalidUpdateError(
                    f"Node '{self.name}' sent to unknown node '{target.node}' via {what}; "
                    f"known nodes: {sorted(self.node_names)}."
                )
            return [(TASKS, target)]
        if target == END:
            return []
        if not isinstance(target, str) or target not in self.node_names:
            raise InvalidUpdateError(
                f"'{self.name}' routed to unknown node {target!r} via {what}; known nodes: "
                f"{sorted(self.node_names)}. Route to one of them or to END."
            )
        return [(f"branch:to:{target}", None)]


def subgraph_of(runner: NodeRunner | None) -> Any:
    """The graph a node runs: the node itself, or one its function refers to."""
    if runner is None or runner.action is None:
        return None
    target = runner.action.target
    if isinstance(target, GraphBase):
        return target
    func = getattr(target, "__func__", target)
    for cell in getattr(func, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if isinstance(value, GraphBase):
            return value
    from foldgraph.pregel._subgraph_scan import reachable_graph

    return reachable_graph(func, _is_graph)


def _is_graph(value: Any) -> bool:
    return isinstance(value, GraphBase)


def give_message_ids(value: Any) -> Any:
    """Set a fresh uuid4 id on every message in `value` that has none (in place), and
    return `value` with messages given as strings, tuples or dicts converted (with ids).

    `value` is one side of `add_messages`: a list item by item, anything else one item.
    """
    if isinstance(value, Overwrite):
        inner = give_message_ids(value.value)
        return value if inner is value.value else Overwrite(inner)
    if isinstance(value, dict) and (
        "__overwrite__" in value or value.get("type") == "__overwrite__"
    ):
        return value  # an Overwrite in its JSON form: the kernel reads it
    items = value if isinstance(value, list) else (value,)
    convert = False
    for item in items:
        if isinstance(item, BaseMessage):
            if item.id is None:
                item.id = str(uuid.uuid4())
        elif isinstance(item, str | dict | tuple):
            convert = True
    if not convert:
        return value
    converted = coerce_messages(list(items))
    for message in converted:
        if message.id is None:
            message.id = str(uuid.uuid4())
    return converted if isinstance(value, list) else converted[0]


def stamp_message_ids(value: Any) -> Any:
    """Ids for the messages written to a DeltaChannel of any reducer (LangGraph's rule).

    Message objects get a uuid4 in place; a message given as a dict (role or type
    set) gets one too: alone, as a copy of the dict with an id, and in a list, as a
    message. Anything else is left for the reducer. Returns `value`, or a copy of
    its list when a dict in it became a message.
    """
    if isinstance(value, Overwrite):
        inner = value.value
        if isinstance(inner, list | tuple):
            for item in inner:
                _stamp(item)
        return value
    if isinstance(value, list):
        out = [_listed_with_id(item) for item in value]
        return value if all(a is b for a, b in zip(out, value, strict=True)) else out
    if isinstance(value, dict) and _is_message_dict(value) and not value.get("id"):
        return {**value, "id": str(uuid.uuid4())}
    _stamp(value)
    return value


def _is_message_dict(item: dict[str, Any]) -> bool:
    return item.get("role") in _MESSAGE_ROLES or item.get("type") in _MESSAGE_TYPES


_MESSAGE_ROLES = frozenset({"user", "human", "assistant", "ai", "tool", "system", "function"})
_MESSAGE_TYPES = frozenset({"human", "ai", "tool", "system", "function", "remove"})


def _listed_with_id(item: Any) -> Any:
    if isinstance(item, dict) and _is_message_dict(item):
        (message,) = coerce_messages([item])
        if not message.id:
            message.id = str(uuid.uuid4())
        return message
    _stamp(item)
    return item


def _stamp(item: Any) -> None:
    if isinstance(item, BaseMessage) and item.id is None:
        item.id = str(uuid.uuid4())


def as_plain(value: Any) -> Any:
    """A stored form thawed for the caller; other values as they are."""
    return thaw(value)
