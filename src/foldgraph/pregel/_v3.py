"""`stream_events(version="v3")`: a run read through stream transformers.

The run is an ordinary `stream(..., version="v2", subgraphs=True)` asking for
the stream modes the registered transformers need; its parts feed a
`StreamMux` built from the built-in transformers, the graph's
`stream_transformers` and the call's `transformers`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import ensure_config

from foldgraph._kernel.names import NS_SEP
from foldgraph.constants import CONF
from foldgraph.stream._mux import StreamMux
from foldgraph.stream._types import StreamTransformer, warn_beta
from foldgraph.stream.transformers import (
    LifecycleTransformer,
    MessagesTransformer,
    SubgraphTransformer,
    ValuesTransformer,
)

__all__ = ["MESSAGES_V2", "make_mux", "reject_owned_kwargs", "stream_modes"]

MESSAGES_V2 = "__pregel_stream_messages_v2"
"""Config key: the messages stream carries chat models' content-block events."""

_BUILTINS = (ValuesTransformer, MessagesTransformer, LifecycleTransformer, SubgraphTransformer)


def reject_owned_kwargs(kwargs: dict[str, Any]) -> None:
    """v3 sets `stream_mode` and `subgraphs` itself; a caller's would break it."""
    given = [k for k in ("stream_mode", "subgraphs") if k in kwargs]
    if given:
        raise TypeError(
            "stream_events(version='v3') / astream_events(version='v3') do "
            f"not accept {', '.join(given)}; v3 owns these "
            "(stream_mode is built from the transformer mux, subgraphs is "
            "forced True so nested namespaces flow through scoped muxes)."
        )


def _factories(specs: Sequence[Any] | None) -> list[Callable[[tuple[str, ...]], Any]]:
    found = []
    for spec in specs or ():
        if isinstance(spec, StreamTransformer):
            raise TypeError(
                "stream_events(version='v3') transformers must be scope-aware callables, "
                f"got pre-built instance {type(spec).__name__}. Pass the "
                "transformer class or a factory like "
                "`lambda scope: MyTransformer(scope, ...)`."
            )
        if not callable(spec):
            raise TypeError(
                "stream_events(version='v3') transformers must be scope-aware callables, "
                f"got {type(spec).__name__}."
            )
        found.append(spec)
    return found


def make_mux(
    graph_config: RunnableConfig | None,
    config: RunnableConfig | None,
    compiled: Sequence[Any],
    extra: Sequence[Any] | None,
    *,
    is_async: bool,
) -> StreamMux:
    """The root mux of a run, scoped to the namespace the caller runs in (if in a node)."""
    warn_beta()
    ns = ensure_config(config).get(CONF, {}).get("checkpoint_ns") or (graph_config or {}).get(
        CONF, {}
    ).get("checkpoint_ns")
    factories = [*_BUILTINS, *_factories(compiled), *_factories(extra)]
    return StreamMux(
        factories=factories, scope=tuple(ns.split(NS_SEP)) if ns else (), is_async=is_async
    )


def stream_modes(mux: StreamMux) -> list[str]:
    """The stream modes the mux's transformers need, each once."""
    modes: list[str] = []
    for transformer in mux._transformers:
        for mode in getattr(transformer, "required_stream_modes", ()):
            if mode not in modes:
                modes.append(mode)
    return modes


def flagged(config: RunnableConfig | None) -> RunnableConfig:
    """`config` asking for content-block events on the messages stream."""
    config = dict(config or {})
    config[CONF] = {**config.get(CONF, {}), MESSAGES_V2: True}
    return config  # type: ignore[return-value]
