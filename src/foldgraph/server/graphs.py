"""The graphs a server serves: loaded from `langgraph.json`'s `graphs` and handed to runs.

An entry names a compiled graph, an `@entrypoint`, an uncompiled `StateGraph`, or a
factory that takes the run's config and returns one of those (directly, awaited, or
as a sync or async context manager). Every graph handed out carries the server's
saver and store, swapped in through `Pregel.copy`: a graph's own checkpointer is
not used, as with LangGraph's server.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import pathlib
import sys
from collections.abc import AsyncIterator, Mapping
from typing import Any

from foldgraph.pregel import Pregel
from foldgraph.server.config import ConfigError, GraphSpec, ServerConfig


class GraphRegistry:
    """Graphs by id, loaded once at start-up; factories are called per use."""

    def __init__(self, checkpointer: Any, store: Any) -> None:
        self.checkpointer = checkpointer
        self.store = store
        self._objects: dict[str, Any] = {}
        self._static: dict[str, Pregel] = {}
        self.specs: dict[str, GraphSpec] = {}

    @classmethod
    def from_config(
        cls,
        config: ServerConfig,
        checkpointer: Any,
        store: Any,
        loaded: dict[str, Any] | None = None,
    ) -> GraphRegistry:
        """The registry of `config`'s graphs (`loaded`: objects `load_graphs` already imported)."""
        loaded = loaded if loaded is not None else load_graphs(config)
        registry = cls(checkpointer, store)
        for spec in config.graphs:
            registry.add(spec, loaded[spec.graph_id])
        return registry

    def add(self, spec: GraphSpec, obj: Any) -> None:
        """Serve `obj` (a graph, builder or factory) under `spec.graph_id`."""
        obj = _check_foldgraph(spec, obj)
        if hasattr(obj, "compile") and not isinstance(obj, Pregel):
            obj = obj.compile()
        self.specs[spec.graph_id] = spec
        self._objects[spec.graph_id] = obj
        if isinstance(obj, Pregel):
            self._static[spec.graph_id] = self._attach(obj)
        elif not callable(obj):
            raise ConfigError(
                f"graph {spec.graph_id!r} ({spec.path}) is a {type(obj).__name__}: it must be "
                "a compiled graph, an @entrypoint, a StateGraph, or a function returning one"
            )

    def __contains__(self, graph_id: str) -> bool:
        return graph_id in self._objects

    @property
    def ids(self) -> list[str]:
        return list(self._objects)

    def _attach(self, graph: Pregel) -> Pregel:
        if not isinstance(graph, Pregel):
            raise TypeError(
                f"a graph factory returned {type(graph).__name__}; it must return a compiled "
                "foldgraph graph (StateGraph(...).compile() or an @entrypoint)"
            )
        return graph.copy(update={"checkpointer": self.checkpointer, "store": self.store})

    @contextlib.asynccontextmanager
    async def open(self, graph_id: str, config: Mapping[str, Any]) -> AsyncIterator[Pregel]:
        """The graph `graph_id` for one run or read, with the server's saver and store."""
        static = self._static.get(graph_id)
        if static is not None:
            yield static
            return
        factory = self._objects[graph_id]
        args = (dict(config),) if _takes_config(factory) else ()
        made = factory(*args)
        if inspect.isawaitable(made):
            made = await made
        if hasattr(made, "__aenter__"):
            async with made as graph:
                yield self._attach(graph)
        elif hasattr(made, "__enter__") and not isinstance(made, Pregel):
            with made as graph:
                yield self._attach(graph)
        else:
            if hasattr(made, "compile") and not isinstance(made, Pregel):
                made = made.compile()
            yield self._attach(made)


def load_graphs(config: ServerConfig) -> dict[str, Any]:
    """Import every graph `config` names; a `ConfigError` names the first that fails."""
    loaded = {}
    for spec in config.graphs:
        obj = _check_foldgraph(spec, _import_attr(spec, config.root))
        if not (isinstance(obj, Pregel) or hasattr(obj, "compile") or callable(obj)):
            raise ConfigError(
                f"graph {spec.graph_id!r} ({spec.path}) is a {type(obj).__name__}: it must be "
                "a compiled graph, an @entrypoint, a StateGraph, or a function returning one"
            )
        loaded[spec.graph_id] = obj
    return loaded


def _takes_config(factory: Any) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return True
    return len(params) > 0


def _check_foldgraph(spec: GraphSpec, obj: Any) -> Any:
    module = type(obj).__module__ or ""
    if module.split(".")[0] == "langgraph":
        raise ConfigError(
            f"graph {spec.graph_id!r} ({spec.path}) was built with LangGraph's own classes "
            f"({type(obj).__module__}.{type(obj).__name__}); start the server with "
            "--alias-langgraph so `import langgraph` loads foldgraph, or import from foldgraph"
        )
    return obj


def _import_attr(spec: GraphSpec, root: pathlib.Path) -> Any:
    """The object `spec.path` names: `./file.py:attr` (relative to `root`) or `pkg.mod:attr`."""
    location, _, attr = spec.path.rpartition(":")
    if location.endswith(".py") or location.startswith((".", "/")):
        file = (root / location).resolve()
        if not file.is_file():
            raise ConfigError(
                f"graph {spec.graph_id!r}: no file {location!r} in {root} (from {spec.path!r})"
            )
        module = _load_file(file, spec)
    else:
        try:
            module = importlib.import_module(location)
        except ImportError as err:
            raise ConfigError(
                f"graph {spec.graph_id!r}: cannot import module {location!r}: {err}"
            ) from err
    try:
        obj = module
        for part in attr.split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise ConfigError(
            f"graph {spec.graph_id!r}: {location} has no attribute {attr!r} (from {spec.path!r})"
        ) from None
    return obj


def _load_file(file: pathlib.Path, spec: GraphSpec) -> Any:
    # Named after the file, as `langgraph dev` does, so pickles and dataclass reprs read well;
    # a second file with the same stem gets a distinct name rather than replacing the first.
    name = file.stem
    existing = sys.modules.get(name)
    if existing is not None:
        if getattr(existing, "__file__", None) == str(file):
            return existing
        name = f"{name}_{abs(hash(str(file))):x}"
    module_spec = importlib.util.spec_from_file_location(name, file)
    if module_spec is None or module_spec.loader is None:
        raise ConfigError(f"graph {spec.graph_id!r}: cannot load {file}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except ConfigError:
        raise
    except Exception as err:
        del sys.modules[name]
        raise ConfigError(
            f"graph {spec.graph_id!r}: importing {file} failed: {type(err).__name__}: {err}"
        ) from err
    return module
