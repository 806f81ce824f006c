"""`StateGraph`: the user-facing builder, translated into a pure `GraphSpec` at compile time."""

from __future__ import annotations

import copy
import inspect
import typing
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from datetime import timedelta
from typing import Any, Generic, Self

import attrs
from langchain_core.runnables import Runnable
from pydantic import create_model

from foldgraph._deprecated import renamed_parameter
from foldgraph._kernel.channels import BaseChannel, LastValue
from foldgraph._kernel.names import NS_END, NS_SEP, RESERVED, ROOT
from foldgraph._shell.coerce import input_builder, is_schema_class, schema_fields
from foldgraph._shell.node import node_name
from foldgraph.constants import END, START
from foldgraph.graph._build import _build
from foldgraph.graph._channels import channel_for
from foldgraph.graph._draw import draw
from foldgraph.graph._nodes import (
    DEFAULT_ERROR_HANDLER,
    StateNodeSpec,
    _as_runnable,
    _check_handler,
    _command_ends,
    _handler_spec,
    _NodeDefaults,
)
from foldgraph.pregel import Pregel
from foldgraph.pregel._branch import Branch, own_name
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._schema import schema_jsonschema, schema_model
from foldgraph.types import (
    CachePolicy,
    RetryPolicy,
    TimeoutPolicy,
    TracePolicy,
    ensure_valid_checkpointer,
)
from foldgraph.typing import ContextT, InputT, OutputT, StateT

__all__ = ["CompiledStateGraph", "StateGraph"]


class StateGraph(Generic[StateT, ContextT, InputT, OutputT]):
    """A graph whose nodes read and write a shared state, declared by a schema.

    >>> builder = StateGraph(State)
    >>> builder.add_node("a", a).add_edge(START, "a")
    >>> graph = builder.compile()
    """

    def __init__(
        self,
        state_schema: type[StateT],
        context_schema: type[ContextT] | None = None,
        *,
        input_schema: type[InputT] | None = None,
        output_schema: type[OutputT] | None = None,
        **deprecated: Any,
    ) -> None:
        context_schema = renamed_parameter(
            deprecated, "config_schema", "context_schema", context_schema, since=(1, 0)
        )
        input_schema = renamed_parameter(
            deprecated, "input", "input_schema", input_schema, since=(0, 5)
        )
        output_schema = renamed_parameter(
            deprecated, "output", "output_schema", output_schema, since=(0, 5)
        )
        if deprecated:
            raise TypeError(f"StateGraph() got unexpected keyword arguments: {sorted(deprecated)}")
        self.nodes: dict[str, StateNodeSpec] = {}
        self.edges: set[tuple[str, str]] = set()
        self.branches: defaultdict[str, dict[str, Branch]] = defaultdict(dict)
        self.channels: dict[str, BaseChannel] = {}
        self.managed: dict[str, str] = {}
        self.schemas: dict[Any, dict[str, BaseChannel | str]] = {}
        self.waiting_edges: set[tuple[tuple[str, ...], str]] = set()
        self.compiled = False
        self._node_defaults = _NodeDefaults()
        self.state_schema = state_schema
        self.context_schema = context_schema
        self.input_schema = input_schema or state_schema
        self.output_schema = output_schema or state_schema
        self._add_schema(self.state_schema)
        self._add_schema(self.input_schema, allow_managed=False)
        self._add_schema(self.output_schema, allow_managed=False)

    # -- schemas ---------------------------------------------------------------------------

    def _add_schema(self, schema: Any, /, allow_managed: bool = True) -> None:
        if schema in self.schemas:
            return
        if is_schema_class(schema) or (
            isinstance(schema, type) and getattr(schema, "__annotations__", None)
        ):
            fields = schema_fields(schema)
        else:
            # A bare type (`int`, `Annotated[list, add]`): the whole state is one value.
            fields = {ROOT: schema}
        found = {key: channel_for(key, ann) for key, ann in fields.items()}
        managed = [k for k, c in found.items() if isinstance(c, str)]
        if managed and not allow_managed:
            names = ", ".join(managed)
            raise ValueError(
                f"Invalid managed channels detected in {getattr(schema, '__name__', schema)}: "
                f"{names}. "
                "Managed channels are not permitted in Input/Output schema."
            )
        self.schemas[schema] = found
        for key, channel in found.items():
            if isinstance(channel, str):
                self.managed.setdefault(key, channel)
                continue
            existing = self.channels.get(key)
            if existing is None:
                self.channels[key] = channel
            elif existing != channel and not isinstance(channel, LastValue):
                if isinstance(existing, LastValue):
                    raise ValueError(f"Channel '{key}' already exists with a different type")
                raise ValueError(f"Channel '{key}' already exists with a different type")

    # -- nodes and edges -------------------------------------------------------------------

    def add_node(
        self,
        node: str | Callable[..., Any] | Any,
        action: Callable[..., Any] | Any | None = None,
        *,
        defer: bool = False,
        metadata: dict[str, Any] | None = None,
        input_schema: type[Any] | None = None,
        retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
        cache_policy: CachePolicy | None = None,
        destinations: dict[str, str] | tuple[str, ...] | None = None,
        error_handler: Any = None,
        timeout: float | timedelta | TimeoutPolicy | None = None,
        trace_policy: TracePolicy | None = None,
        **kwargs: Any,
    ) -> Self:
        """Add a node: `add_node("name", fn)` or `add_node(fn)` (named after the function).

        `error_handler` (a function or Runnable) takes over when the node fails after
        its retries: it gets the state and, through an `error: NodeError` parameter,
        what failed; what it returns is the update instead (a `Command` may route on).
        """
        retry_policy = renamed_parameter(
            kwargs, "retry", "retry_policy", retry_policy, since=(0, 5)
        )
        input_schema = renamed_parameter(
            kwargs, "input", "input_schema", input_schema, since=(0, 5)
        )
        if kwargs:
            raise TypeError(f"add_node() got unexpected keyword arguments: {sorted(kwargs)}")
        if not isinstance(node, str):
            if not (callable(node) or isinstance(node, Runnable | dict)):
                raise TypeError(
                    "add_node() takes a node name (a str) and an action, or an action alone "
                    f"(a Runnable, callable or dict); got {node!r} of type "
                    f'{type(node).__name__}. Use add_node("name", action).'
                )
            action, name = node, node_name(node)
        else:
            name = node
            if action is None:
                raise ValueError(
                    f"Node `{name}` has no action: pass a function or runnable, "
                    f'e.g. add_node("{name}", my_function).'
                )
        for character in (NS_SEP, NS_END):
            if character in name:
                raise ValueError(
                    f"'{character}' is a reserved character and is not allowed in the node names."
                )
        if name in self.nodes:
            raise ValueError(f"Node `{name}` already present.")
        if name in (START, END):
            raise ValueError(f"Node `{name}` is reserved.")

        if input_schema is None:
            input_schema = self._infer_input_schema(action)
        if input_schema is not None and input_schema is not self.state_schema:
            self._add_schema(input_schema)
        ends: Any = destinations if destinations is not None else _command_ends(action)
        policy = TimeoutPolicy.coerce(timeout)
        handler_name = None
        if error_handler is not None:
            _check_handler(error_handler)
            handler_name = f"__error_handler__{name}"
            if handler_name in self.nodes:
                raise ValueError(
                    f"Auto-generated error handler node `{handler_name}` already exists."
                )
            self.nodes[handler_name] = _handler_spec(
                error_handler, handler_name, input_schema or self.state_schema
            )
        self.nodes[name] = StateNodeSpec(
            runnable=_as_runnable(action, name),
            action=action,
            metadata=metadata,
            input_schema=input_schema or self.state_schema,
            retry_policy=retry_policy,
            cache_policy=cache_policy,
            ends=ends,
            defer=defer,
            error_handler_node=handler_name,
            timeout=policy,
            trace_policy=trace_policy,
        )
        return self

    def set_node_defaults(
        self,
        *,
        retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None,
        cache_policy: CachePolicy | None = None,
        error_handler: Any = None,
        timeout: float | timedelta | TimeoutPolicy | None = None,
    ) -> Self:
        """Policies for every node that does not set its own, applied at compile().

        Retry and timeout defaults cover error-handler nodes too; cache and handler
        defaults only regular nodes (a handler never catches itself). Subgraphs do
        not inherit them.
        """
        defaults = self._node_defaults
        if retry_policy is not None:
            defaults.retry_policy = retry_policy
        if cache_policy is not None:
            defaults.cache_policy = cache_policy
        if error_handler is not None:
            _check_handler(error_handler)
            defaults.error_handler = error_handler
        if timeout is not None:
            defaults.timeout = TimeoutPolicy.coerce(timeout)
        return self

    def _effective_nodes(self) -> dict[str, StateNodeSpec]:
        """The nodes with `set_node_defaults` applied (the builder itself is left as it is)."""
        defaults = self._node_defaults
        nodes = dict(self.nodes)
        handler = None
        if defaults.error_handler is not None:
            if DEFAULT_ERROR_HANDLER in nodes:
                raise ValueError(
                    "Auto-generated default error handler node "
                    f"`{DEFAULT_ERROR_HANDLER}` already exists."
                )
            handler = DEFAULT_ERROR_HANDLER
            nodes[handler] = _handler_spec(defaults.error_handler, handler, self.state_schema)
        if handler is None and defaults == _NodeDefaults():
            return nodes
        for name, spec in nodes.items():
            changes: dict[str, Any] = {}
            regular = not spec.is_error_handler
            if regular and handler is not None and spec.error_handler_node is None:
                changes["error_handler_node"] = handler
            if defaults.retry_policy is not None and spec.retry_policy is None:
                changes["retry_policy"] = defaults.retry_policy
            if regular and defaults.cache_policy is not None and spec.cache_policy is None:
                changes["cache_policy"] = defaults.cache_policy
            if defaults.timeout is not None and spec.timeout is None:
                changes["timeout"] = defaults.timeout
            if changes:
                nodes[name] = attrs.evolve(spec, **changes)
        return nodes

    def _infer_input_schema(self, action: Any) -> Any:
        target = action
        if not (inspect.isfunction(action) or inspect.ismethod(action)):
            call = getattr(action, "__call__", None)  # noqa: B004 - a callable object's hints
            if inspect.ismethod(call) and not isinstance(action, Runnable):
                target = call
            else:
                target = getattr(action, "func", None) or getattr(action, "afunc", None)
            if target is None:
                return None
        try:
            params = list(inspect.signature(target).parameters.values())
            hints = typing.get_type_hints(target)
        except Exception:
            return None
        if not params:
            return None
        hint = hints.get(params[0].name)
        if hint is not None and is_schema_class(hint):
            return hint
        return None

    def add_edge(self, start_key: str | list[str], end_key: str) -> Self:
        """An edge: `end_key` runs after `start_key`; a list of starts waits for all of them."""
        if isinstance(start_key, str):
            if start_key == END:
                raise ValueError("END cannot be a start node")
            if end_key == START:
                raise ValueError("START cannot be an end node")
            self.edges.add((start_key, end_key))
            return self
        for start in start_key:
            if start == END:
                raise ValueError("END cannot be a start node")
            if start not in self.nodes:
                raise ValueError(f"Need to add_node `{start}` first")
        if end_key == START:
            raise ValueError("START cannot be an end node")
        if end_key != END and end_key not in self.nodes:
            raise ValueError(f"Need to add_node `{end_key}` first")
        self.waiting_edges.add((tuple(start_key), end_key))
        return self

    def add_conditional_edges(
        self,
        source: str,
        path: Callable[..., Any] | Any,
        path_map: dict[Hashable, str] | list[str] | None = None,
    ) -> Self:
        """Route after `source` by calling `path` on the state."""
        name = own_name(path) or "condition"
        if name in self.branches[source]:
            raise ValueError(f"Branch with name `{name}` already exists for node `{source}`")
        # As LangGraph: a routing function whose first parameter is annotated with a
        # schema class reads that schema; otherwise it reads its source node's input.
        schema = self._infer_input_schema(path)
        if schema is not None and schema is not self.state_schema:
            self._add_schema(schema)
        self.branches[source][name] = Branch.from_path(path, path_map, input_schema=schema)
        return self

    def add_sequence(
        self, nodes: Sequence[Callable[..., Any] | tuple[str, Callable[..., Any]]]
    ) -> Self:
        """Add nodes and chain them with edges, in order."""
        if len(nodes) < 1:
            raise ValueError("Sequence requires at least one node.")
        previous: str | None = None
        for item in nodes:
            if isinstance(item, tuple) and len(item) == 2:
                name, action = item
            else:
                name, action = node_name(item), item
            if name in self.nodes:
                raise ValueError(
                    f"Node names must be unique: node with the name '{name}' already exists. "
                    "If you need to use two different runnables/callables with the same name "
                    "(for example, using `lambda`), please provide them as tuples (name, "
                    "runnable/callable)."
                )
            self.add_node(name, action)
            if previous is not None:
                self.add_edge(previous, name)
            previous = name
        return self

    def set_entry_point(self, key: str) -> Self:
        return self.add_edge(START, key)

    def set_conditional_entry_point(
        self, path: Callable[..., Any], path_map: dict[Hashable, str] | list[str] | None = None
    ) -> Self:
        return self.add_conditional_edges(START, path, path_map)

    def set_finish_point(self, key: str) -> Self:
        return self.add_edge(key, END)

    # -- validate and compile --------------------------------------------------------------

    def validate(self, interrupt: Sequence[str] | None = None) -> Self:
        for key in self.channels:
            if key in RESERVED:
                raise ValueError(f"Channel name '{key}' is reserved")
        for name in self.nodes:
            if name in RESERVED:
                raise ValueError(f"Node name '{name}' is reserved")
        all_sources = {src for src, _ in self.edges}
        for starts, _ in self.waiting_edges:
            all_sources.update(starts)
        for source in self.branches:
            all_sources.add(source)
        for source in sorted(all_sources):
            if source not in self.nodes and source != START:
                raise ValueError(f"Found edge starting at unknown node '{source}'")
        if START not in all_sources:
            raise ValueError(
                "Graph must have an entrypoint: add at least one edge from START to another node"
            )
        all_targets = {end for _, end in self.edges}
        all_targets.update(end for _, end in self.waiting_edges)
        for source, branches in self.branches.items():
            for name, branch in branches.items():
                for end in (branch.ends or {}).values():
                    if end not in self.nodes and end != END:
                        raise ValueError(
                            f"At '{source}' node, '{name}' branch found unknown target '{end}'"
                        )
        for spec in self.nodes.values():
            all_targets.update(spec.ends or ())
        for target in sorted(all_targets):
            if target not in self.nodes and target != END:
                raise ValueError(f"Found edge ending at unknown node `{target}`")
        if interrupt:
            for node in interrupt:
                if node != "*" and node not in self.nodes:
                    raise ValueError(f"Interrupt node `{node}` not found")
        self.compiled = True
        return self

    def compile(
        self,
        checkpointer: Any = None,
        *,
        cache: Any = None,
        store: Any = None,
        interrupt_before: Sequence[str] | str | None = None,
        interrupt_after: Sequence[str] | str | None = None,
        debug: bool = False,
        name: str | None = None,
        transformers: Sequence[Any] | None = None,
        strict_updates: bool = False,
        warn_unreturned_mutations: bool = False,
    ) -> CompiledStateGraph[StateT, ContextT, InputT, OutputT]:
        """Validate the graph and build its runnable form.

        `strict_updates=True` (foldgraph only) makes an update to a key the state
        does not declare an `InvalidUpdateError` naming the node and key; by default
        such keys are dropped, as LangGraph drops them.
        `transformers` (classes or `scope -> transformer` factories) are registered
        in every `stream_events(version="v3")` run of the graph.
        `warn_unreturned_mutations=True` (foldgraph only) warns with
        `UnreturnedMutationWarning` when a node changes its input in place and
        does not return the change (which is then lost; in LangGraph it would
        leak into later nodes).
        """
        checkpointer = ensure_valid_checkpointer(checkpointer)
        if checkpointer not in (None, True, False):
            # A durable saver's serializer may then rebuild the classes the schemas name.
            from foldgraph.checkpoint.serde._schema import schema_types

            schemas = (self.state_schema, self.input_schema, self.output_schema)
            checkpointer = checkpointer.with_allowlist(schema_types(schemas))
        before = _as_node_list(interrupt_before)
        after = _as_node_list(interrupt_after)
        self.validate(interrupt=[*before, *after])
        return CompiledStateGraph(
            builder=self,
            strict_updates=strict_updates,
            warn_unreturned_mutations=warn_unreturned_mutations,
            checkpointer=checkpointer,
            cache=cache,
            store=store,
            interrupt_before_nodes=before,
            interrupt_after_nodes=after,
            debug=debug,
            name=name or "LangGraph",
            stream_transformers=transformers,
        )


def _as_node_list(value: Sequence[str] | str | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


class CompiledStateGraph(
    Pregel[StateT, ContextT, InputT, OutputT], Generic[StateT, ContextT, InputT, OutputT]
):
    """A `StateGraph` ready to run: the kernel spec plus how to call each node."""

    def __init__(
        self,
        *,
        builder: StateGraph[Any, Any, Any, Any],
        schema_to_mapper: dict[Any, Any] | None = None,
        strict_updates: bool = False,
        warn_unreturned_mutations: bool = False,
        stream_transformers: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.stream_transformers = tuple(stream_transformers or ())
        self._built_with = {
            "strict_updates": strict_updates,
            "warn_unreturned_mutations": warn_unreturned_mutations,
            "stream_transformers": stream_transformers,
            **kwargs,
        }
        # `schema_to_mapper` is accepted for LangGraph's signature; schemas are coerced
        # by the runner, not by per-schema mappers.
        spec, runners, order = _build(
            builder,
            strict_updates=strict_updates,
            warn_unreturned_mutations=warn_unreturned_mutations,
        )
        state_keys = [k for k in builder.schemas[builder.state_schema] if k in builder.channels]
        GraphCore.__init__(
            self,
            spec=spec,
            runners=runners,
            node_order=order,
            stream_channels=list(builder.channels),
            input_channels=[
                k for k in builder.schemas[builder.input_schema] if k in builder.channels
            ],
            output_channels=[
                k for k in builder.schemas[builder.output_schema] if k in builder.channels
            ],
            state_channels=state_keys,
            context_schema=builder.context_schema,
            stream_mode="updates",
            **kwargs,
        )
        self.builder = builder
        self.typed_output = input_builder(builder.output_schema)

    def _schema_keys(self, schema: Any) -> list[str]:
        return [k for k in self.builder.schemas[schema] if k in self.builder.channels]

    def attach_node(self, key: str, node: StateNodeSpec[Any, ContextT] | None) -> None:
        """Add node `key` (a builder's `StateNodeSpec`) to this compiled graph.

        START (or a None spec) needs nothing. Unlike LangGraph, where these are
        steps of `compile()`, a part attached afterwards takes part in runs.
        """
        if key != START and node is not None:
            self._rebuilt(lambda b: b.nodes.__setitem__(key, node))

    def attach_edge(self, starts: str | Sequence[str], end: str) -> None:
        """Add an edge (a list of starts: `end` waits for all of them) to this compiled graph."""
        if isinstance(starts, str):
            self._rebuilt(lambda b: b.edges.add((starts, end)))
        else:
            self._rebuilt(lambda b: b.waiting_edges.add((tuple(starts), end)))

    def attach_branch(
        self, start: str, name: str, branch: Branch, *, with_reader: bool = True
    ) -> None:
        """Add conditional edge `name` after `start` to this compiled graph.

        `with_reader` is LangGraph's (whether the router reads fresh state); a
        router here always reads the state its node wrote.
        """
        self._rebuilt(lambda b: b.branches[start].__setitem__(name, branch))

    def _rebuilt(self, change: Callable[[StateGraph[Any, Any, Any, Any]], None]) -> None:
        """Rebuild this graph from a copy of its builder with `change` made (the builder
        it was compiled from is left as it is)."""
        builder = copy.copy(self.builder)
        builder.nodes = dict(builder.nodes)
        builder.edges = set(builder.edges)
        builder.waiting_edges = set(builder.waiting_edges)
        builder.branches = defaultdict(dict, {k: dict(v) for k, v in builder.branches.items()})
        change(builder)
        config = self.config
        CompiledStateGraph.__init__(self, builder=builder, **self._built_with)
        self.config = config

    def get_input_schema(self, config: Any = None) -> Any:
        """A pydantic model of the input (the input schema itself when it is a model)."""
        schema = self.builder.input_schema
        return schema_model(schema, self._schema_keys(schema), self.get_name("Input"))

    def get_output_schema(self, config: Any = None) -> Any:
        """A pydantic model of the output."""
        schema = self.builder.output_schema
        model = schema_model(schema, self._schema_keys(schema), self.get_name("Output"))
        if model is schema:  # a pydantic output schema is shown under the graph's name
            model = create_model(self.get_name("Output"), __base__=schema)
        return model

    def get_input_jsonschema(self, config: Any = None) -> dict[str, Any]:
        """The input's JSON schema: a pydantic model's or a TypedDict's own, else one built
        from the fields (titled `<name>Input`)."""
        schema = self.builder.input_schema
        return schema_jsonschema(schema, self._schema_keys(schema), self.get_name("Input"))

    def get_output_jsonschema(self, config: Any = None) -> dict[str, Any]:
        """The output's JSON schema, as `get_input_jsonschema`."""
        schema = self.builder.output_schema
        return schema_jsonschema(schema, self._schema_keys(schema), self.get_name("Output"))

    def get_graph(self, config: Any = None, *, xray: int | bool = False) -> Any:
        """A drawable graph (langchain-core `Graph`): mermaid, ASCII, JSON.

        `xray=True` draws subgraphs inline at every depth, `xray=n` to depth n.
        """
        subgraphs = {}
        if xray:
            depth = xray if isinstance(xray, bool) or xray <= 0 else xray - 1
            subgraphs = {
                name: sub.get_graph(config, xray=depth) for name, sub in self.get_subgraphs()
            }
        return draw(self.builder, self, subgraphs)
