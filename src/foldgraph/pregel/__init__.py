"""`Pregel`: the runnable form of a compiled graph, as in `langgraph.pregel`.

The run flows down one way through the modules of this package:

    _prepare   make_run: merged config, parent/child graphs, modes, runtime
    _run       Run.steps: the fold, persistence and stream chunks, as a generator
               (its start, resumes, step end, error handlers, saver and chunks beside it:
               _load, _resume, _commit, _handlers, _persist, _chunks)
    _driver    drive / adrive: execute the tasks a step asks for (threads / asyncio)
    _task      run_task / arun_task: one node call, with its scope and writes
    _stream    deliver / invoke_output: what the caller sees
    _state_api get_state, get_state_history, update_state (no node code runs)

`_core.GraphCore` holds what a compiled graph is and how its snapshots look.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import aclosing
from typing import Any, Generic

from langchain_core.runnables import Runnable, RunnableConfig

from foldgraph._deprecated import (
    checkpoint_during_as_durability,
    config_model,
    renamed_parameter,
    warn_config_schema,
)
from foldgraph._shell.tracing import achain_run, chain_run, has_callbacks
from foldgraph.pregel._core import GraphCore, subgraph_of
from foldgraph.pregel._driver import adrive, drive
from foldgraph.pregel._lifecycle import alifecycle, lifecycle
from foldgraph.pregel._lowlevel import NodeBuilder, PregelNode, compile_nodes, input_writes
from foldgraph.pregel._lowlevel import validate as validate_lowlevel
from foldgraph.pregel._node import NodeRunner
from foldgraph.pregel._prepare import (
    attach_control,
    make_run,
    merged_config,
    no_writer,
    stream_run,
)
from foldgraph.pregel._replay import verify_replay
from foldgraph.pregel._run import Run
from foldgraph.pregel._schema import channels_model, context_jsonschema
from foldgraph.pregel._state_api import StateAPI
from foldgraph.pregel._stream import (
    SKIP,
    deliver,
    invoke_output,
    raise_nested_interrupts,
    trace_output,
)
from foldgraph.runtime import RunControl
from foldgraph.types import RetryPolicy
from foldgraph.typing import ContextT, InputT, OutputT, StateT

__all__ = ["NodeBuilder", "NodeRunner", "Pregel"]

_NO_MODES: frozenset[str] = frozenset()


def _as_names(channels: str | Sequence[str]) -> list[str]:
    return [channels] if isinstance(channels, str) else list(channels)


class Pregel(GraphCore, StateAPI, Runnable[Any, Any], Generic[StateT, ContextT, InputT, OutputT]):
    """A compiled graph, runnable: invoke, stream, and their async twins.

    Generic as LangGraph's (`Pregel[StateT, ContextT, InputT, OutputT]`, the last
    three defaulted), for the annotations of code built on it.

    Each run flows one way: `make_run` prepares it, `drive`/`adrive` execute its
    supersteps, `deliver` shapes what it streams, `invoke_output` what it returns.
    """

    step_timeout: float | None = None
    retry_policy: Sequence[Any] = ()
    cache_policy: Any = None
    stream_eager: bool = False
    stream_transformers: tuple[Any, ...] = ()
    """Transformer factories every `stream_events(version="v3")` run registers."""
    _pregel_nodes: dict[str, PregelNode] | None = None

    def __init__(
        self,
        *,
        nodes: Mapping[str, PregelNode | NodeBuilder],
        channels: Mapping[str, Any],
        auto_validate: bool = True,
        stream_mode: str = "values",
        stream_eager: bool = False,
        output_channels: str | Sequence[str],
        stream_channels: str | Sequence[str] | None = None,
        interrupt_after_nodes: Any = (),
        interrupt_before_nodes: Any = (),
        input_channels: str | Sequence[str],
        step_timeout: float | None = None,
        debug: bool | None = None,
        checkpointer: Any = None,
        store: Any = None,
        cache: Any = None,
        retry_policy: RetryPolicy | Sequence[RetryPolicy] = (),
        cache_policy: Any = None,
        context_schema: Any = None,
        config: RunnableConfig | None = None,
        trigger_to_nodes: Mapping[str, Sequence[str]] | None = None,
        node_error_handler_map: Mapping[str, str] | None = None,
        name: str = "LangGraph",
        stream_transformers: Sequence[Any] | None = None,
        **deprecated_kwargs: Any,
    ) -> None:
        """The low-level graph: nodes (`NodeBuilder`s) wired to named channels.

        >>> node = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
        >>> app = Pregel(nodes={"node": node}, channels={"a": EphemeralValue(str),
        ...     "b": EphemeralValue(str)}, input_channels=["a"], output_channels=["b"])
        >>> app.invoke({"a": "foo"})
        {'b': 'foofoo'}
        """
        context_schema = renamed_parameter(
            deprecated_kwargs, "config_type", "context_schema", context_schema, since=(1, 0)
        )
        policies = (retry_policy,) if isinstance(retry_policy, RetryPolicy) else retry_policy
        built, spec, runners, order = compile_nodes(
            nodes, channels, input_channels, stream_channels, policies, cache_policy
        )
        streamed = list(channels) if stream_channels is None else stream_channels
        GraphCore.__init__(
            self,
            spec=spec,
            runners=runners,
            node_order=order,
            stream_channels=streamed,  # type: ignore[arg-type]
            input_channels=input_channels,  # type: ignore[arg-type]
            output_channels=output_channels,  # type: ignore[arg-type]
            state_channels=_as_names(streamed),
            context_schema=context_schema,
            stream_mode=stream_mode,
            checkpointer=checkpointer,
            cache=cache,
            store=store,
            interrupt_before_nodes=interrupt_before_nodes,
            interrupt_after_nodes=interrupt_after_nodes,
            debug=bool(debug),
            name=name,
            config=config,
        )
        self._pregel_nodes = built
        self._declared_channels = dict(channels)
        self._streams_given = stream_channels is not None
        self.step_timeout = step_timeout
        self.retry_policy = tuple(policies)
        self.cache_policy = cache_policy
        self.stream_eager = stream_eager
        self.stream_transformers = tuple(stream_transformers or ())
        if auto_validate:
            self.validate()

    def _input_writes(self, value: Any) -> list[tuple[str, Any]]:
        if self._pregel_nodes is None:
            return GraphCore._input_writes(self, value)
        return input_writes(self.input_channels, value)

    @property
    def nodes(self) -> dict[str, Any]:  # type: ignore[override]
        """The graph's nodes: `PregelNode`s for a low-level graph."""
        if self._pregel_nodes is not None:
            return self._pregel_nodes
        return self.runners

    def validate(self) -> Pregel:
        """Check that every channel a node or the graph names exists; raises `ValueError`."""
        if self._pregel_nodes is None:
            return self
        validate_lowlevel(
            self._pregel_nodes,
            self._declared_channels,
            self.input_channels,
            self.output_channels,
            self.stream_channels if self._streams_given else None,
            self.interrupt_before_nodes,
            self.interrupt_after_nodes,
        )
        return self

    # -- schemas ------------------------------------------------------------------------

    @property
    def InputType(self) -> Any:
        if isinstance(self.input_channels, str):
            return self.spec.channels[self.input_channels].UpdateType
        return dict[str, Any]

    @property
    def OutputType(self) -> Any:
        if isinstance(self.output_channels, str):
            return self.spec.channels[self.output_channels].ValueType
        return dict[str, Any]

    def get_input_schema(self, config: RunnableConfig | None = None) -> Any:
        """A pydantic model of the input: one optional field per input channel."""
        if isinstance(self.input_channels, str):
            return super().get_input_schema(config)
        keys = list(self.input_channels) or list(self.spec.channels)
        return channels_model(self.get_name("Input"), self.spec.channels, keys, value=False)

    def get_output_schema(self, config: RunnableConfig | None = None) -> Any:
        """A pydantic model of the output: one optional field per output channel."""
        if isinstance(self.output_channels, str):
            return super().get_output_schema(config)
        keys = list(self.output_channels)
        return channels_model(self.get_name("Output"), self.spec.channels, keys, value=True)

    def get_input_jsonschema(self, config: RunnableConfig | None = None) -> dict[str, Any]:
        return self.get_input_schema(config).model_json_schema()

    def get_output_jsonschema(self, config: RunnableConfig | None = None) -> dict[str, Any]:
        return self.get_output_schema(config).model_json_schema()

    def get_context_jsonschema(self) -> dict[str, Any] | None:
        """The JSON schema of `context_schema` (None when the graph has none)."""
        return context_jsonschema(self.context_schema)

    @property
    def stream_channels_list(self) -> Sequence[str]:
        return _as_names(self.stream_channels)

    @property
    def stream_channels_asis(self) -> str | Sequence[str]:
        return self.stream_channels

    def copy(self, update: dict[str, Any] | None = None) -> Pregel:
        """A shallow copy with the attributes in `update` replaced.

        A durable saver given as `checkpointer` learns the graph's schema types, as
        one given to `compile()` does, so it can read back the states it stores
        (a server swaps its own saver into every graph this way).
        """
        clone = copy.copy(self)
        for key, value in (update or {}).items():
            if key == "checkpointer" and hasattr(value, "with_allowlist"):
                value = value.with_allowlist(self._schema_types())
            setattr(clone, key, value)
        return clone

    def _schema_types(self) -> set[type]:
        """The record, model and enum classes the graph's state, input and output name."""
        builder = getattr(self, "builder", None)
        if builder is None:
            return set()
        from foldgraph.checkpoint.serde._schema import schema_types

        schemas = (builder.state_schema, builder.input_schema, builder.output_schema)
        return schema_types(schemas)

    # -- subgraphs and drawing ----------------------------------------------------------

    def get_subgraphs(
        self, *, namespace: str | None = None, recurse: bool = False
    ) -> Iterator[tuple[str, Pregel]]:
        """`(name, graph)` for each node that is a graph or calls one; nested names are
        joined with `|` when `recurse`. `namespace` keeps only that path."""
        for name in self.node_order:
            sub = subgraph_of(self.runners.get(name))
            if sub is None:
                continue
            if namespace is not None and namespace != name and not namespace.startswith(f"{name}|"):
                continue  # whole segments: `research` is not a prefix of `research_review`
            if namespace is None or namespace == name:
                yield name, sub  # type: ignore[misc]
                if namespace == name:
                    return
            if recurse and isinstance(sub, Pregel):
                rest = None
                if namespace is not None:
                    rest = namespace[len(name) + 1 :] if namespace != name else None
                for sub_name, child in sub.get_subgraphs(namespace=rest, recurse=recurse):
                    yield f"{name}|{sub_name}", child
                    if namespace is not None:
                        return

    async def aget_subgraphs(
        self, *, namespace: str | None = None, recurse: bool = False
    ) -> AsyncIterator[tuple[str, Pregel]]:
        """Async twin of `get_subgraphs`."""
        for item in self.get_subgraphs(namespace=namespace, recurse=recurse):
            yield item

    def get_graph(self, config: RunnableConfig | None = None, *, xray: int | bool = False) -> Any:
        """A drawable graph (langchain-core `Graph`)."""
        return super().get_graph(config)

    async def aget_graph(
        self, config: RunnableConfig | None = None, *, xray: int | bool = False
    ) -> Any:
        """Async twin of `get_graph`."""
        return self.get_graph(config, xray=xray)

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        base = name or self.name
        return f"{base}{suffix}" if suffix else base

    def config_schema(self, *, include: Sequence[str] | None = None) -> Any:
        """Deprecated (LangGraph 1.0): a pydantic model of the config, `configurable` typed
        by the context schema."""
        warn_config_schema("config_schema")
        return config_model(self.get_name("Config"), self.context_schema, include)

    def get_config_jsonschema(self, *, include: Sequence[str] | None = None) -> dict[str, Any]:
        """Deprecated (LangGraph 1.0): the JSON schema of `config_schema()`."""
        warn_config_schema("get_config_jsonschema")
        model = config_model(self.get_name("Config"), self.context_schema, include)
        return model.model_json_schema()

    def with_config(self, config: RunnableConfig | None = None, **kwargs: Any) -> Pregel:
        clone = copy.copy(self)
        clone.config = merged_config(self.config, {**(config or {}), **kwargs})  # type: ignore[assignment]
        return clone

    def stream_events(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        version: str = "v2",
        transformers: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Callback events (`v1`/`v2`, as langchain-core), or a v3 run stream.

        With `version="v3"` the run is returned as a `GraphRunStream`: read its
        projections (`values`, `messages`, `lifecycle`, `subgraphs`, and those
        of `transformers`, given as classes or `scope -> transformer`
        factories) or iterate its protocol events; reading drives the run.
        Other keywords go to `stream` (`stream_mode` and `subgraphs` are set by v3).
        """
        if version != "v3":
            return super().stream_events(input, config, version=version, **kwargs)  # type: ignore[call-overload]
        from foldgraph.pregel._v3 import flagged, make_mux, reject_owned_kwargs, stream_modes
        from foldgraph.stream.run_stream import GraphRunStream

        reject_owned_kwargs(kwargs)
        mux = make_mux(self.config, config, self.stream_transformers, transformers, is_async=False)
        parts = self.stream(
            input,
            flagged(config),
            stream_mode=stream_modes(mux),
            subgraphs=True,
            version="v2",
            **_v3_run_options(kwargs),
        )
        return GraphRunStream(iter(parts), mux)

    def astream_events(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        version: str = "v2",
        transformers: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async `stream_events`; with `version="v3"`, await it for an `AsyncGraphRunStream`."""
        if version != "v3":
            return super().astream_events(input, config, version=version, **kwargs)  # type: ignore[call-overload]
        from foldgraph.pregel._v3 import reject_owned_kwargs

        reject_owned_kwargs(kwargs)
        return self._astream_v3(input, config, transformers, kwargs)

    async def _astream_v3(
        self,
        input: Any,
        config: RunnableConfig | None,
        transformers: Sequence[Any] | None,
        kwargs: dict[str, Any],
    ) -> Any:
        from foldgraph.pregel._v3 import flagged, make_mux, stream_modes
        from foldgraph.stream.run_stream import AsyncGraphRunStream

        mux = make_mux(self.config, config, self.stream_transformers, transformers, is_async=True)
        parts = self.astream(
            input,
            flagged(config),
            stream_mode=stream_modes(mux),
            subgraphs=True,
            version="v2",
            **_v3_run_options(kwargs),
        )
        return AsyncGraphRunStream(parts.__aiter__(), mux)

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
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> Iterator[Any]:
        """Run the graph, yielding chunks of the requested stream mode(s) as they happen."""
        durability = checkpoint_during_as_durability(durability, kwargs)
        run, live, single = stream_run(
            self,
            input,
            config,
            stream_mode,
            subgraphs,
            version,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
        )
        attach_control(run, control)
        traced = self._trace_start(run)
        try:
            for emit in drive(run, live):
                chunk = deliver(run, emit, single, subgraphs, output_keys, version)
                if chunk is not SKIP:
                    yield chunk
            raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                traced.on_chain_error(exc)
            raise
        lifecycle(run, traced)
        if traced is not None:
            traced.on_chain_end(trace_output(run))

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
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Async twin of `stream`."""
        durability = checkpoint_during_as_durability(durability, kwargs)
        run, live, single = stream_run(
            self,
            input,
            config,
            stream_mode,
            subgraphs,
            version,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
        )
        attach_control(run, control)
        traced = await self._atrace_start(run)
        try:
            # Closed with the stream: a consumer that stops early cancels the step running.
            async with aclosing(adrive(run, live)) as emits:
                async for emit in emits:
                    chunk = deliver(run, emit, single, subgraphs, output_keys, version)
                    if chunk is not SKIP:
                        yield chunk
            raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        await alifecycle(run, traced)
        if traced is not None:
            await traced.on_chain_end(trace_output(run))

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
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run the graph to the end and return its output (or the chunks of `stream_mode`)."""
        if kwargs:
            durability = checkpoint_during_as_durability(durability, kwargs)
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
                    control=control,
                    version=version,
                    **kwargs,
                )
            )
        run = make_run(
            self,
            input,
            config,
            _NO_MODES,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
            writer=no_writer,
        )
        attach_control(run, control)
        # Callbacks are opened only when some are configured (tracing, stream_events).
        traced = self._trace_start(run) if run.config.get("callbacks") else None
        try:
            sink = run.parent_sink
            if sink is None:
                for _ in drive(run, None):
                    pass
            else:
                for emit in drive(run, None):
                    sink.append(emit)
            if run.nested:
                raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                traced.on_chain_error(exc)
            raise
        if traced is None:
            return invoke_output(run, output_keys, version)
        lifecycle(run, traced)
        traced.on_chain_end(trace_output(run, output_keys))
        return invoke_output(run, output_keys, version)

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
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async twin of `invoke`."""
        if kwargs:
            durability = checkpoint_during_as_durability(durability, kwargs)
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
                    control=control,
                    version=version,
                    **kwargs,
                )
            ]
        run = make_run(
            self,
            input,
            config,
            _NO_MODES,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
            writer=no_writer,
        )
        attach_control(run, control)
        traced = await self._atrace_start(run)
        try:
            async with aclosing(adrive(run, None)) as emits:
                async for emit in emits:
                    if run.parent_sink is not None:
                        run.parent_sink.append(emit)
            raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        await alifecycle(run, traced)
        if traced is not None:
            await traced.on_chain_end(trace_output(run, output_keys))
        return invoke_output(run, output_keys, version)

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
        return verify_replay(self, dict(config))


def _v3_run_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keywords a v3 run passes to `stream`/`astream`: breakpoints and the run
    control always, as None when not given (an override of `stream` sees them, as
    LangGraph's v3 passes them), then the caller's other keywords."""
    options = {
        name: kwargs.get(name) for name in ("interrupt_before", "interrupt_after", "control")
    }
    return {**options, **kwargs}
