"""An entrypoint as a graph: one node fed by the input channel, writing its return and save.

The entrypoint's function is the only node. It runs on the value written to
`__start__`; what it returns goes to `__end__` (the run's output) and to
`__previous__` (what the next run on the thread is given as `previous`),
unless it returns `entrypoint.final(value=..., save=...)` to keep them apart.
Everything else (checkpoints, history, streams, interrupts) is the runner's,
as for any graph.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, get_args, get_origin

import attrs
from langchain_core.runnables import Runnable

from foldgraph._kernel.channels import EphemeralValue, LastValue
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.names import PREVIOUS, ROOT
from foldgraph._kernel.snapshot import GraphSpec, NodeSpec, Task
from foldgraph._shell.node import action_for
from foldgraph.constants import END, START
from foldgraph.pregel import Pregel
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._node import NodeOutput, NodeRunner
from foldgraph.types import CachePolicy, RetryPolicy, TimeoutPolicy

__all__ = ["EntrypointGraph", "Final", "build"]

R = TypeVar("R")
S = TypeVar("S")


@dataclasses.dataclass(frozen=True, slots=True)
class Final(Generic[R, S]):
    """Return `value` to the caller and save `save` for the next run's `previous`."""

    value: R
    save: S


@attrs.frozen(slots=True)
class EntrypointRunner(NodeRunner):
    """The entrypoint's node: its input is the run's input, its output the return value."""

    def node_input(self, task: Task) -> Any:
        if task.is_push:
            return task.input
        return thaw(task.input.get(START))

    def output_writes(self, output: Any, *, from_subgraph: bool = False) -> NodeOutput:
        if isinstance(output, Final):
            value, save = output.value, output.save
        else:
            value = save = output
        return NodeOutput(writes=((END, value), (PREVIOUS, save)), updates=({ROOT: value},))


class EntrypointGraph(Pregel):
    """The `Pregel` an `@entrypoint` makes (LangGraph returns a plain `Pregel`)."""

    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None = None
    cache_policy: CachePolicy | None = None
    streams_task_calls = True

    def __init__(self, *, input_type: Any = Any, output_type: Any = Any, **core: Any) -> None:
        # Built from its parts, as a compiled StateGraph is (not from low-level nodes).
        GraphCore.__init__(self, **core)
        self._input_type = input_type
        self._output_type = output_type

    # The schemas are the function's: its first parameter's annotation in, its return
    # annotation (the first argument of `entrypoint.final[...]`) out, as in LangGraph.
    @property
    def InputType(self) -> Any:
        return self._input_type

    @property
    def OutputType(self) -> Any:
        return self._output_type

    def get_input_schema(self, config: Any = None) -> Any:
        return Runnable.get_input_schema(self, config)

    def get_output_schema(self, config: Any = None) -> Any:
        return Runnable.get_output_schema(self, config)

    def get_graph(self, config: Any = None, *, xray: int | bool = False) -> Any:
        """START -> the function -> END, as LangGraph draws an entrypoint."""
        from langchain_core.runnables.graph import Graph

        drawn = Graph()
        name = self.node_order[0]
        node = drawn.add_node(self.runners[name].action.target, name)  # type: ignore[union-attr]
        start = drawn.add_node(None, START)
        end = drawn.add_node(None, END)
        drawn.add_edge(start, node)
        drawn.add_edge(node, end, conditional=True)
        return drawn


def signature_types(func: Callable[..., Any]) -> tuple[Any, Any]:
    """(input, output) types of an entrypoint, read from its signature as LangGraph reads
    them (annotations as written; an unannotated or bare `entrypoint.final` one is Any)."""
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    input_type = Any
    if params and params[0].annotation is not inspect.Signature.empty:
        input_type = params[0].annotation
    returned = sig.return_annotation
    if returned is inspect.Signature.empty or returned is Final:
        return input_type, Any
    if get_origin(returned) is Final:
        args = get_args(returned)
        if len(args) != 2:
            raise TypeError(
                "Please an annotation for both the return_ and the save values.For example, "
                "`-> entrypoint.final[int, str]` would assign a return_ a type of `int` and "
                "save the type `str`."
            )
        return input_type, args[0]
    return input_type, returned


def build(
    func: Callable[..., Any],
    *,
    checkpointer: Any,
    store: Any,
    cache: Any,
    context_schema: Any,
    cache_policy: CachePolicy | None,
    retry_policy: RetryPolicy | Sequence[RetryPolicy] | None,
    timeout: TimeoutPolicy | None = None,
) -> EntrypointGraph:
    name = func.__name__
    channels = {
        START: EphemeralValue(Any, key=START),
        END: LastValue(Any, key=END),
        PREVIOUS: LastValue(Any, key=PREVIOUS),
    }
    spec = GraphSpec.build(channels, {name: NodeSpec(name=name, triggers=(START,), reads=(START,))})
    runner = EntrypointRunner(
        name=name,
        action=action_for(func, name),
        writable=frozenset({END, PREVIOUS}),
        retry_policy=retry_policy,
        cache_policy=cache_policy,
        timeout=timeout,
    )
    input_type, output_type = signature_types(func)
    graph = EntrypointGraph(
        input_type=input_type,
        output_type=output_type,
        spec=spec,
        runners={name: runner},
        node_order=[name],
        stream_channels=[END],
        input_channels=[START],
        output_channels=[END],
        state_channels=[END],
        context_schema=context_schema,
        stream_mode="updates",
        checkpointer=checkpointer,
        cache=cache,
        store=store,
        single_output=True,
    )
    graph.retry_policy = retry_policy
    graph.cache_policy = cache_policy
    return graph
