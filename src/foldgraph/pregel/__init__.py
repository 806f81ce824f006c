"""`Pregel`: the runnable form of a compiled graph, as in `langgraph.pregel`.

The run flows down one way through the modules of this package:

    _prepare   make_run: merged config, parent/child graphs, modes, runtime
    _run       Run.steps: the fold, persistence and stream chunks, as a generator
    _driver    drive / adrive: execute the tasks a step asks for (threads / asyncio)
    _task      run_task / arun_task: one node call, with its scope and writes
    _stream    deliver / invoke_output: what the caller sees
    _state_api get_state, get_state_history, update_state (no node code runs)

`_core.GraphCore` holds what a compiled graph is and how its snapshots look.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig

from foldgraph._deprecated import (
    checkpoint_during_as_durability,
    config_model,
    warn_config_schema,
)
from foldgraph._shell.tracing import achain_run, chain_run, has_callbacks
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._driver import adrive, drive
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
from foldgraph.pregel._state_api import StateAPI
from foldgraph.pregel._stream import SKIP, deliver, invoke_output, raise_nested_interrupts
from foldgraph.runtime import RunControl

__all__ = ["NodeRunner", "Pregel"]


class Pregel(GraphCore, StateAPI, Runnable[Any, Any]):
    """A compiled graph, runnable: invoke, stream, and their async twins.

    Each run flows one way: `make_run` prepares it, `drive`/`adrive` execute its
    supersteps, `deliver` shapes what it streams, `invoke_output` what it returns.
    """

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
        if traced is not None:
            traced.on_chain_end(invoke_output(run, None, "v1"))

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
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
        )
        attach_control(run, control)
        traced = await self._atrace_start(run)
        try:
            async for emit in adrive(run, live):
                chunk = deliver(run, emit, single, subgraphs, output_keys, version)
                if chunk is not SKIP:
                    yield chunk
            raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        if traced is not None:
            await traced.on_chain_end(invoke_output(run, None, "v1"))

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
                    **kwargs,
                )
            )
        run = make_run(
            self,
            input,
            config,
            frozenset(),
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
            writer=no_writer,
        )
        attach_control(run, control)
        traced = self._trace_start(run)
        try:
            for emit in drive(run, None):
                if run.parent_sink is not None:
                    run.parent_sink.append(emit)
            raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                traced.on_chain_error(exc)
            raise
        output = invoke_output(run, output_keys, version)
        if traced is not None:
            traced.on_chain_end(output)
        return output

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
                    **kwargs,
                )
            ]
        run = make_run(
            self,
            input,
            config,
            frozenset(),
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            durability=durability,
            writer=no_writer,
        )
        attach_control(run, control)
        traced = await self._atrace_start(run)
        try:
            async for emit in adrive(run, None):
                if run.parent_sink is not None:
                    run.parent_sink.append(emit)
            raise_nested_interrupts(run)
        except Exception as exc:
            if traced is not None:
                await traced.on_chain_error(exc)
            raise
        output = invoke_output(run, output_keys, version)
        if traced is not None:
            await traced.on_chain_end(output)
        return output

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
