"""langgraph.json's `checkpointer` section: a saver of one's own (`path`) and its `serde`.

- `path` names an async context manager (an `@asynccontextmanager` function, or an
  object that is one) yielding a checkpointer; the server enters it at start, uses
  the saver for every graph, and exits it at shut-down. It must be a foldgraph saver
  (a graph file written for LangGraph gets one with `--alias-langgraph`).
- `serde` configures the built-in saver's serializer: `allowed_json_modules` and
  `allowed_msgpack_modules` (lists of `["pkg", "module", "Type"]`) are the types stored
  rows may be decoded into, besides foldgraph's and the ones the server has encoded;
  `pickle_fallback: true` lets values the codec cannot encode be pickled (trusted
  storage only). foldgraph has no "decode any importable class" mode: `true` for a
  module list is refused, and so is `serde` beside `path` (a saver of one's own has its
  own serializer).

`ttl` is applied by `server.ttl`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import attrs

from foldgraph.server.config import ConfigError, GraphSpec, ServerConfig


@attrs.frozen
class CheckpointerSettings:
    """What the `checkpointer` section asks for, checked before the server starts."""

    factory: Any = None
    serializer: Any = None


def checkpointer_settings(
    config: ServerConfig, source: str = "langgraph.json"
) -> CheckpointerSettings:
    """Read and check `checkpointer.path` and `checkpointer.serde` (`ConfigError` if wrong)."""
    section = dict(config.checkpointer or {})
    serde = section.get("serde")
    path = section.get("path")
    if serde and path:
        raise ConfigError(
            f"{source}: checkpointer.serde configures the built-in checkpointer; the one "
            "checkpointer.path names uses its own serializer: remove one of the two"
        )
    factory = None
    if path:
        from foldgraph.server.graphs import _import_attr

        factory = _import_attr(GraphSpec("checkpointer.path", path), config.root)
    return CheckpointerSettings(factory, _serializer(serde, source) if serde else None)


def _serializer(serde: dict[str, Any], source: str) -> Any:
    from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    lists = {}
    for key in ("allowed_json_modules", "allowed_msgpack_modules"):
        value = serde.get(key)
        if value is True:
            raise ConfigError(
                f"{source}: checkpointer.serde.{key} is true: foldgraph never decodes a class "
                "a stored row merely names; list the types instead "
                '([["my_package", "module", "Type"], ...])'
            )
        if value is not None and not (
            isinstance(value, list)
            and all(isinstance(e, list) and e and all(isinstance(p, str) for p in e) for e in value)
        ):
            raise ConfigError(
                f"{source}: checkpointer.serde.{key} must be a list of "
                f'["module", ..., "Type"] lists, got {value!r}'
            )
        lists[key] = [tuple(entry) for entry in value] if value else None
    pickle_fallback = serde.get("pickle_fallback", False)
    if not isinstance(pickle_fallback, bool):
        raise ConfigError(f"{source}: checkpointer.serde.pickle_fallback must be true or false")
    return JsonPlusSerializer(pickle_fallback=pickle_fallback, **lists)


@contextlib.asynccontextmanager
async def open_checkpointer(settings: CheckpointerSettings, built_in: Any) -> AsyncIterator[Any]:
    """The saver the graphs use: the one `path` names, or the built-in one (with `serde`)."""
    if settings.factory is None:
        if settings.serializer is None:
            yield built_in
            return
        built_in.serde = settings.serializer
        yield built_in
        return
    made = settings.factory() if callable(settings.factory) else settings.factory
    if not hasattr(made, "__aenter__"):
        raise ConfigError(
            "checkpointer.path must name an async context manager (an @asynccontextmanager "
            f"function) that yields a checkpointer; calling it gave {type(made).__name__}"
        )
    async with made as saver:
        from foldgraph.checkpoint.base import BaseCheckpointSaver

        if not isinstance(saver, BaseCheckpointSaver):
            raise ConfigError(
                f"checkpointer.path yielded {type(saver).__module__}.{type(saver).__name__}, "
                "not a foldgraph checkpointer: build it from foldgraph.checkpoint (or start "
                "the server with --alias-langgraph so `langgraph.checkpoint` is foldgraph's)"
            )
        yield saver
