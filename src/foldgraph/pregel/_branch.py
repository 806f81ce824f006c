"""Conditional edges: a routing function and an optional map of its results to nodes."""

from __future__ import annotations

import typing
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import attrs

from foldgraph.constants import END
from foldgraph.errors import InvalidUpdateError
from foldgraph.types import Send

__all__ = ["Branch", "own_name", "run_name"]


def own_name(path: Any) -> str | None:
    """A routing function's own name as LangGraph reads it: a Runnable's `name`, a
    function's `__name__`; None for a lambda or a callable object."""
    if hasattr(path, "invoke") and hasattr(path, "get_name"):
        return getattr(path, "name", None)
    name = getattr(path, "__name__", None)
    return None if name == "<lambda>" else name


def run_name(path: Any) -> str:
    """The name a routing call is traced under (`astream_events`, tracers)."""
    if hasattr(path, "invoke") and hasattr(path, "get_name"):
        return path.get_name()
    return own_name(path) or "Unnamed"


def _literal_ends(path: Any) -> dict[Hashable, str] | None:
    """Destinations declared by a `-> Literal["a", "b"]` return hint, if any."""
    func = getattr(path, "func", None) or getattr(path, "__call__", None)  # noqa: B004
    target = path if callable(path) and hasattr(path, "__annotations__") else func
    try:
        hint = typing.get_type_hints(target).get("return")
    except Exception:
        return None
    if hint is None:
        return None
    values: list[Any] = []

    def collect(t: Any) -> None:
        origin = typing.get_origin(t)
        if origin is typing.Literal:
            values.extend(typing.get_args(t))
        elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
            for arg in typing.get_args(t):
                collect(arg)
        elif origin in (list, Sequence, tuple):
            for arg in typing.get_args(t):
                collect(arg)

    collect(hint)
    return {v: v for v in values} if values else None


@attrs.frozen(slots=True)
class Branch:
    """A routing function with its destinations (`ends`, None when any node may follow)."""

    path: Callable[..., Any] = attrs.field(eq=False)
    ends: dict[Hashable, str] | None = None
    input_schema: Any = None

    @classmethod
    def from_path(
        cls,
        path: Callable[..., Any],
        path_map: dict[Hashable, str] | list[str] | None,
        input_schema: Any = None,
    ) -> Branch:
        if isinstance(path_map, dict):
            ends: dict[Hashable, str] | None = dict(path_map)
        elif isinstance(path_map, list | tuple):
            ends = {name: name for name in path_map}
        else:
            ends = _literal_ends(path)
        return cls(path=path, ends=ends, input_schema=input_schema)

    def destinations(self, result: Any, source: str) -> list[str | Send]:
        """Map what the routing function returned to node names and Sends."""
        items = result if isinstance(result, list | tuple) else [result]
        out: list[str | Send] = []
        for item in items:
            if isinstance(item, Send):
                out.append(item)
                continue
            if self.ends is not None:
                # As LangGraph: the KeyError of the path_map lookup itself (an unhashable
                # result raises its TypeError), with a note saying where it came from.
                try:
                    out.append(self.ends[item])
                except KeyError as exc:
                    exc.add_note(
                        f"Conditional edge from '{source}' returned {item!r}, which is not a "
                        f"key of its path_map {list(self.ends)}. Return one of those keys, or "
                        "add it to the path_map."
                    )
                    raise
            elif item is None:
                raise InvalidUpdateError(
                    f"Conditional edge from '{source}' returned None. Return a node name, "
                    f"a list of names, Send objects, or END ('{END}')."
                )
            else:
                out.append(item)
        return out
