"""Compiling a `StateGraph` builder into the kernel's `GraphSpec` and one `NodeRunner` per node."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from foldgraph._kernel.channels import (
    BaseChannel,
    BinaryOperatorAggregate,
    DeltaChannel,
    EphemeralValue,
    LastValueAfterFinish,
    NamedBarrierValue,
    NamedBarrierValueAfterFinish,
    Topic,
)
from foldgraph._kernel.names import ROOT
from foldgraph._kernel.snapshot import GraphSpec, NodeSpec
from foldgraph._shell.node import action_for
from foldgraph.constants import END, START, TASKS
from foldgraph.pregel import NodeRunner, Pregel
from foldgraph.pregel._node import BranchRead
from foldgraph.pregel._timeout import validate_timeout_supported


def branch_channel(node: str) -> str:
    return f"branch:to:{node}"


def join_channel(starts: Sequence[str], end: str) -> str:
    return f"join:{'+'.join(starts)}:{end}"


def _build(
    builder: Any,  # a StateGraph (imported by it, so not named here)
    *,
    strict_updates: bool = False,
    warn_unreturned_mutations: bool = False,
) -> tuple[GraphSpec, dict[str, NodeRunner], list[str]]:
    nodes = builder._effective_nodes()
    channels: dict[str, BaseChannel] = dict(builder.channels)
    channels[START] = EphemeralValue(Any, key=START)
    channels[TASKS] = Topic(Any, key=TASKS)
    for name, node in nodes.items():
        key = branch_channel(name)
        channels[key] = (
            LastValueAfterFinish(Any, key=key)
            if node.defer
            else EphemeralValue(Any, guard=False, key=key)
        )
    joins: dict[str, list[str]] = defaultdict(list)
    joined: dict[str, list[str]] = defaultdict(list)
    for starts, end in sorted(builder.waiting_edges):
        key = join_channel(starts, end)
        joined[end].append(key)
        deferred = end in nodes and nodes[end].defer
        channels[key] = (
            NamedBarrierValueAfterFinish(Any, frozenset(starts), key=key)
            if deferred
            else NamedBarrierValue(Any, frozenset(starts), key=key)
        )
        for start in starts:
            joins[start].append(key)

    # Grouped once, so compile() stays linear in the number of edges.
    edges_from: dict[str, list[str]] = defaultdict(list)
    for src, end in sorted(builder.edges):
        if end != END:
            edges_from[src].append(end)

    def static_writes(source: str) -> tuple[tuple[str, Any], ...]:
        writes: list[tuple[str, Any]] = [(branch_channel(end), None) for end in edges_from[source]]
        writes.extend((key, source) for key in joins.get(source, ()))
        return tuple(writes)

    node_specs: dict[str, NodeSpec] = {}
    runners: dict[str, NodeRunner] = {}
    state_keys = [k for k in builder.schemas[builder.state_schema] if k in builder.channels]
    input_keys = [k for k in builder.schemas[builder.input_schema] if k in builder.channels]

    # DeltaChannels replay their saved writes on each read, so the messages written
    # to them get ids before they are kept, whatever their reducer (as in LangGraph).
    delta_keys = frozenset(k for k, c in builder.channels.items() if isinstance(c, DeltaChannel))
    message_keys = delta_keys | frozenset(
        k
        for k, c in builder.channels.items()
        if isinstance(c, BinaryOperatorAggregate) and c.monoid.name == "add_messages"
    )
    node_specs[START] = NodeSpec(name=START, triggers=(START,), reads=(START,))

    def branch_reads(source: str, default_schema: Any) -> tuple[BranchRead, ...]:
        """What each conditional edge of `source` reads: channel keys, the schema, and the
        managed values (a router sees `remaining_steps` as the node does)."""
        out = []
        for branch in builder.branches.get(source, {}).values():
            schema = branch.input_schema or default_schema
            fields = builder.schemas.get(schema, builder.schemas[builder.state_schema])
            keys = tuple(k for k, c in fields.items() if not isinstance(c, str))
            managed = tuple((k, c) for k, c in fields.items() if isinstance(c, str))
            out.append((keys, schema, managed))
        return tuple(out)

    runners[START] = NodeRunner.for_start(
        input_keys=tuple(input_keys),
        static_writes=static_writes(START),
        branches=tuple(builder.branches.get(START, {}).items()),
        state_keys=tuple(state_keys),
        message_keys=message_keys,
        delta_keys=delta_keys,
        branch_reads=branch_reads(START, builder.state_schema),
        strict_updates=strict_updates,
    )
    writable = frozenset(builder.channels)
    state_tuple = tuple(state_keys)
    managed_keys = frozenset(builder.managed)
    root = list(builder.channels) == [ROOT]
    for name, node in nodes.items():
        schema_fields_ = builder.schemas.get(
            node.input_schema, builder.schemas[builder.state_schema]
        )
        reads = tuple(k for k, c in schema_fields_.items() if not isinstance(c, str))
        managed = tuple((k, c) for k, c in schema_fields_.items() if isinstance(c, str))
        triggers = (
            ()  # an error handler runs only when its node fails, never from an edge
            if node.is_error_handler
            else (branch_channel(name), *sorted(joined.get(name, ())))
        )
        node_specs[name] = NodeSpec(name=name, triggers=triggers, reads=reads, managed=managed)
        target = node.runnable if node.action is None else node.action
        if node.timeout is not None:
            validate_timeout_supported(target, name)
        runners[name] = NodeRunner(
            name=name,
            action=action_for(target, name, is_subgraph=isinstance(target, Pregel)),
            input_schema=node.input_schema,
            writable=writable,
            managed_keys=managed_keys,
            static_writes=static_writes(name),
            branches=tuple(builder.branches.get(name, {}).items()),
            branch_reads=branch_reads(name, node.input_schema),
            state_keys=state_tuple,
            root=root,
            message_keys=message_keys,
            delta_keys=delta_keys,
            retry_policy=node.retry_policy,
            cache_policy=node.cache_policy,
            metadata=node.metadata or {},
            strict_updates=strict_updates,
            warn_unreturned_mutations=warn_unreturned_mutations,
            bound=node.runnable,
            error_handler=node.error_handler_node,
            timeout=node.timeout,
            trace_policy=node.trace_policy,
        )
    return GraphSpec.build(channels, node_specs), runners, list(nodes)
