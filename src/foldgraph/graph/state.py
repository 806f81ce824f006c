"""`StateGraph`: the user-facing builder, translated into a pure `GraphSpec` at compile time."""

from __future__ import annotations

import copy
import inspect
import typing
import warnings
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from datetime import timedelta
from typing import Any, Generic, Self

import attrs
import typing_extensions
from langchain_core.runnables import Runnable, RunnableConfig
from pydantic import create_model

from foldgraph._deprecated import renamed_parameter
from foldgraph._kernel.channels import (
    BaseChannel,
    BinaryOperatorAggregate,
    DeltaChannel,
    EphemeralValue,
    LastValue,
    LastValueAfterFinish,
    NamedBarrierValue,
    NamedBarrierValueAfterFinish,
    Topic,
)
from foldgraph._kernel.names import NS_END, NS_SEP, RESERVED, ROOT
from foldgraph._kernel.snapshot import GraphSpec, NodeSpec
from foldgraph._shell.coerce import input_builder, is_schema_class, schema_fields
from foldgraph._shell.node import _is_async_callable, action_for, node_name
from foldgraph.constants import END, START, TASKS
from foldgraph.managed import ManagedValue
from foldgraph.pregel import NodeRunner, Pregel
from foldgraph.pregel._branch import Branch, own_name
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._node import BranchRead
from foldgraph.pregel._schema import schema_jsonschema, schema_model
from foldgraph.pregel._timeout import validate_timeout_supported
from foldgraph.types import (
    CachePolicy,
    Command,
    RetryPolicy,
    TimeoutPolicy,
    TracePolicy,
    ensure_valid_checkpointer,
)
from foldgraph.typing import ContextT, InputT, OutputT, StateT

__all__ = ["CompiledStateGraph", "StateGraph"]


@attrs.frozen(slots=True)
class StateNodeSpec:
    """A node as declared on the builder.

    `runnable` is what LangGraph programs read (a Runnable; a function given to
    `add_node` is wrapped in a `RunnableCallable`, its `.func` or `.afunc`);
    `action` is the object given to `add_node`, which the runner calls directly.
    """

    runnable: Any = attrs.field(eq=False)
    metadata: dict[str, Any] | None
    input_schema: Any
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None
    cache_policy: CachePolicy | None
    ends: tuple[str, ...] | dict[str, str] | None = ()
    defer: bool = False
    action: Any = attrs.field(default=None, eq=False, repr=False)
    error_handler_node: str | None = None
    """The handler node that takes over when this node fails (after its retries)."""
    is_error_handler: bool = False
    timeout: TimeoutPolicy | None = None
    trace_policy: Any = None


@attrs.define(slots=True)
class _NodeDefaults:
    """What `set_node_defaults` gave; applied at compile(), per-node values winning."""

    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None
    cache_policy: CachePolicy | None = None
    error_handler: Any = None
    timeout: TimeoutPolicy | None = None


DEFAULT_ERROR_HANDLER = "__default_error_handler__"


def _check_handler(handler: Any) -> None:
    if not (callable(handler) or isinstance(handler, Runnable | dict)):
        raise TypeError(
            "Expected a Runnable, callable or dict."
            f"Instead got an unsupported type: {type(handler)}"
        )


def _handler_spec(handler: Any, name: str, input_schema: Any) -> StateNodeSpec:
    return StateNodeSpec(
        runnable=_as_runnable(handler, name),
        action=handler,
        metadata=None,
        input_schema=input_schema,
        retry_policy=None,
        cache_policy=None,
        is_error_handler=True,
    )


def _as_runnable(action: Any, name: str) -> Any:
    """The Runnable LangGraph shows for a node: Runnables as given, callables wrapped."""
    if isinstance(action, Runnable):
        return action
    from foldgraph.utils.runnable import RunnableCallable

    _warn_config_annotation(action)
    try:
        if _is_async_callable(action):
            return RunnableCallable(None, action, name=name, trace=False)
        return RunnableCallable(action, name=name, trace=False)
    except (TypeError, ValueError):  # no inspectable signature: show it as given
        return action


_CONFIG_ANNOTATIONS = (
    inspect.Parameter.empty,
    RunnableConfig,
    "RunnableConfig",
    RunnableConfig | None,
    typing.Optional[RunnableConfig],  # noqa: UP045 (the spelling users write)
    "RunnableConfig | None",
    "Optional[RunnableConfig]",
)


def _warn_config_annotation(action: Any) -> None:
    """LangGraph's warning for a node whose `config` parameter is typed as something else
    than a `RunnableConfig` (it still gets the config here)."""
    try:
        param = inspect.signature(action).parameters.get("config")
    except (TypeError, ValueError):
        return
    if param is None or param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
        return
    if any(param.annotation == ok for ok in _CONFIG_ANNOTATIONS):
        return
    warnings.warn(
        "The 'config' parameter should be typed as 'RunnableConfig' or 'RunnableConfig | "
        f"None', not '{param.annotation}'. ",
        UserWarning,
        stacklevel=4,
    )


def _managed_kind(annotation: Any) -> str | None:
    if typing.get_origin(annotation) is typing.Annotated:
        for meta in typing.get_args(annotation)[1:]:
            if isinstance(meta, type) and issubclass(meta, ManagedValue):
                return meta.kind
    if isinstance(annotation, type) and issubclass(annotation, ManagedValue):
        return annotation.kind
    return None


def _reducer_arity_ok(fn: Callable[..., Any]) -> tuple[bool, str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True, ""
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values()):
        return True, str(sig)
    return len(positional) == 2, str(sig)


_TYPEDDICT_QUALIFIERS = frozenset(
    q
    for q in (
        getattr(typing, "Required", None),
        getattr(typing, "NotRequired", None),
        getattr(typing, "ReadOnly", None),
        typing_extensions.Required,
        typing_extensions.NotRequired,
        typing_extensions.ReadOnly,
    )
    if q is not None
)


def _strip_qualifiers(annotation: Any) -> Any:
    """`NotRequired[Annotated[list, add]]` declares the same channel as `Annotated[list, add]`."""
    while typing.get_origin(annotation) in _TYPEDDICT_QUALIFIERS:
        annotation = typing.get_args(annotation)[0]
    return annotation


def channel_for(key: str, annotation: Any) -> BaseChannel | str:
    """The channel a state field declares, or the managed-value kind it names."""
    annotation = _strip_qualifiers(annotation)
    kind = _managed_kind(annotation)
    if kind is not None:
        return kind
    if typing.get_origin(annotation) is typing.Annotated:
        base, *meta = typing.get_args(annotation)
        # A channel may sit anywhere among the extras, as in LangGraph (langchain's
        # agent state writes `Annotated[int, UntrackedValue, PrivateStateAttr]`);
        # a reducer only last.
        for item in meta:
            if isinstance(item, DeltaChannel):
                return item.retyped(_strip_qualifiers(base)).named(key)
            if isinstance(item, BaseChannel):
                return item.named(key)
            if isinstance(item, type) and issubclass(item, BaseChannel):
                return item(base).named(key)
        last = meta[-1]
        if callable(last):
            ok, sig = _reducer_arity_ok(last)
            if not ok:
                raise ValueError(f"Invalid reducer signature. Expected (a, b) -> c. Got {sig}")
            return BinaryOperatorAggregate(base, last, key=key)
        return LastValue(base, key=key)
    return LastValue(annotation, key=key)


def _command_ends(func: Any) -> tuple[str, ...]:
    """Destinations named by a `-> Command[Literal[...]]` return hint."""
    try:
        hint = typing.get_type_hints(func).get("return")
    except Exception:
        return ()
    if hint is None:
        return ()
    hints = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union,) else (hint,)
    ends: list[str] = []
    for h in hints:
        if typing.get_origin(h) is Command:
            for arg in typing.get_args(h):
                if typing.get_origin(arg) is typing.Literal:
                    ends.extend(typing.get_args(arg))
    return tuple(ends)


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


def branch_channel(node: str) -> str:
    return f"branch:to:{node}"


def join_channel(starts: Sequence[str], end: str) -> str:
    return f"join:{'+'.join(starts)}:{end}"


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


def _build(
    builder: StateGraph[Any, Any, Any, Any],
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


def _interrupt_marker(name: str, before: Any, after: Any) -> str | None:
    """`before`, `after` or `before,after`: where a static breakpoint stops at `name`.

    As in LangGraph's drawings, only nodes listed by name are marked (not `"*"`).
    """
    is_before = before != "*" and name in (before or ())
    is_after = after != "*" and name in (after or ())
    if is_before and is_after:
        return "before,after"
    return "before" if is_before else "after" if is_after else None


def draw(
    builder: StateGraph[Any, Any, Any, Any],
    compiled: Any = None,
    subgraphs: Mapping[str, Any] | None = None,
) -> Any:
    """A langchain-core drawable `Graph` of the builder's nodes and edges, laid out as
    LangGraph lays it out: START, the nodes in the order added; the edges of nodes
    reached from START (a node that leads nowhere gets one to END): from START
    first, then by (source, target), plain edges to END last. A conditional edge whose
    ends are unknown (no path map, no `Literal` hint) is not drawn. `subgraphs` (name ->
    drawn subgraph) are drawn inline.
    """
    from langchain_core.runnables.graph import Graph

    before = getattr(compiled, "interrupt_before_nodes", ())
    after = getattr(compiled, "interrupt_after_nodes", ())
    drawn = Graph()
    drawn.add_node(None, START)
    for name, spec in builder.nodes.items():
        metadata = dict(spec.metadata or {})
        if spec.defer:
            metadata["defer"] = True
        marker = _interrupt_marker(name, before, after)
        if marker is not None:
            metadata["__interrupt"] = marker
        tools = getattr(spec.runnable, "tools_by_name", None)
        if isinstance(tools, Mapping) and tools:
            metadata["__tools"] = list(tools)
        drawn.add_node(spec.runnable, name, metadata=metadata or None)

    edges: set[tuple[str, str, bool, str | None]] = {(s, e, False, None) for s, e in builder.edges}
    for starts, end in builder.waiting_edges:
        edges.update((s, end, False, None) for s in starts)
    for source, branches in builder.branches.items():
        for branch in branches.values():
            for key, end in (branch.ends or {}).items():
                label = str(key)  # LangGraph labels edges with the key's text: True -> "True"
                edges.add((source, end, True, label if label != end else None))
    for name, spec in builder.nodes.items():
        ends = spec.ends or ()
        labels = ends if isinstance(ends, dict) else {e: None for e in ends}
        edges.update((name, t, True, label if label != t else None) for t, label in labels.items())

    def add(source: str, target: str, data: Any = None, conditional: bool = False) -> None:
        if any(e.source == source and e.target == target for e in drawn.edges):
            return
        if target == END and END not in drawn.nodes:
            drawn.add_node(None, END)
        drawn.add_edge(drawn.nodes[source], drawn.nodes[target], data, conditional)

    termini = {t for _, t, _, _ in edges if t != END} - {s for s, _, _, _ in edges}
    edges.update((source, END, False, None) for source in termini)
    reached = _reached(edges)
    for source, target, conditional, label in sorted(
        (e for e in edges if e[0] in reached), key=_edge_order
    ):
        add(source, target, label, conditional)
    for name, sub in (subgraphs or {}).items():
        _inline(drawn, name, sub)
    return drawn


def _edge_order(edge: tuple[str, str, bool, str | None]) -> tuple[Any, ...]:
    """LangGraph's edge order: from START first, plain edges to END last, else by name."""
    source, target, conditional, label = edge
    group = 0 if source == START else 2 if target == END and not conditional else 1
    return (group, source, target, conditional, label is not None, label or "")


def _reached(edges: set[tuple[str, str, bool, str | None]]) -> set[str]:
    """The nodes a run can reach from START (edges of the others are not drawn)."""
    reached, todo = {START}, [START]
    while todo:
        node = todo.pop()
        for source, target, _, _ in edges:
            if source == node and target not in reached:
                reached.add(target)
                todo.append(target)
    return reached


def _inline(drawn: Any, name: str, sub: Any) -> None:
    """Replace node `name` by the drawing of its subgraph (without its START and END)."""
    if not (len(sub.nodes) > 1 and name in drawn.nodes and sub.first_node() and sub.last_node()):
        return
    sub.trim_first_node()
    sub.trim_last_node()
    drawn.nodes.pop(name)
    first, last = drawn.extend(sub, prefix=name)
    for index, edge in enumerate(drawn.edges):
        if edge.source == name:
            edge = edge.copy(source=last.id)
        if edge.target == name:
            edge = edge.copy(target=first.id)
        drawn.edges[index] = edge
