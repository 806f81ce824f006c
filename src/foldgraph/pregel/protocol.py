"""`PregelProtocol`: what every runnable graph offers (run, stream, state, drawing),
and `StreamProtocol`: a stream sink with the modes it wants."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.graph import Graph as DrawableGraph

from foldgraph.types import All, StateSnapshot, StateUpdate, StreamMode

__all__ = ("PregelProtocol", "StreamProtocol")


class PregelProtocol(Runnable[Any, Any]):
    """The interface of a compiled graph; `foldgraph.pregel.Pregel` implements it."""

    @abstractmethod
    def with_config(self, config: RunnableConfig | None = None, **kwargs: Any) -> Any: ...

    @abstractmethod
    def get_graph(
        self, config: RunnableConfig | None = None, *, xray: int | bool = False
    ) -> DrawableGraph: ...

    @abstractmethod
    async def aget_graph(
        self, config: RunnableConfig | None = None, *, xray: int | bool = False
    ) -> DrawableGraph: ...

    @abstractmethod
    def get_state(self, config: RunnableConfig, *, subgraphs: bool = False) -> StateSnapshot: ...

    @abstractmethod
    async def aget_state(
        self, config: RunnableConfig, *, subgraphs: bool = False
    ) -> StateSnapshot: ...

    @abstractmethod
    def get_state_history(
        self,
        config: RunnableConfig,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[StateSnapshot]: ...

    @abstractmethod
    def aget_state_history(
        self,
        config: RunnableConfig,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[StateSnapshot]: ...

    @abstractmethod
    def bulk_update_state(
        self, config: RunnableConfig, updates: Sequence[Sequence[StateUpdate]]
    ) -> RunnableConfig: ...

    @abstractmethod
    async def abulk_update_state(
        self, config: RunnableConfig, updates: Sequence[Sequence[StateUpdate]]
    ) -> RunnableConfig: ...

    @abstractmethod
    def update_state(
        self, config: RunnableConfig, values: Any, as_node: str | None = None
    ) -> RunnableConfig: ...

    @abstractmethod
    async def aupdate_state(
        self, config: RunnableConfig, values: Any, as_node: str | None = None
    ) -> RunnableConfig: ...

    @abstractmethod
    def stream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        stream_mode: StreamMode | list[StreamMode] | None = None,
        interrupt_before: All | Sequence[str] | None = None,
        interrupt_after: All | Sequence[str] | None = None,
        subgraphs: bool = False,
        version: str = "v1",
    ) -> Iterator[Any]: ...

    @abstractmethod
    def astream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        stream_mode: StreamMode | list[StreamMode] | None = None,
        interrupt_before: All | Sequence[str] | None = None,
        interrupt_after: All | Sequence[str] | None = None,
        subgraphs: bool = False,
        version: str = "v1",
    ) -> AsyncIterator[Any]: ...

    @abstractmethod
    def invoke(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        interrupt_before: All | Sequence[str] | None = None,
        interrupt_after: All | Sequence[str] | None = None,
        version: str = "v1",
    ) -> Any: ...

    @abstractmethod
    async def ainvoke(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Any = None,
        interrupt_before: All | Sequence[str] | None = None,
        interrupt_after: All | Sequence[str] | None = None,
        version: str = "v1",
    ) -> Any: ...


class StreamProtocol:
    """A callable that receives stream chunks, and the stream modes it wants."""

    __slots__ = ("__call__", "modes")

    modes: set[StreamMode]

    def __init__(self, __call__: Callable[[Any], None], modes: set[StreamMode]) -> None:
        self.__call__ = __call__  # type: ignore[method-assign]
        self.modes = modes


def _register() -> None:
    from foldgraph.pregel import Pregel

    PregelProtocol.register(Pregel)


_register()
