"""Finding the graph a node's function calls, from what its code can reach.

A node may hold its subgraph in a closure cell, a module global, or at the end of an
attribute chain (`HOLDER.payload.graph.invoke(...)`), possibly only inside a nested
function, or behind a decorator's `__wrapped__`. The chains are read from the
bytecode (a name load followed by attribute loads), so only what the code actually
loads is followed: a chain the compiler dropped, a subscript or `self.x` is not. A
nested function's chains start only from the enclosing function's closure (its
globals are out of reach, as in LangGraph).
"""

from __future__ import annotations

import dis
import functools
from collections.abc import Callable
from types import CodeType
from typing import Any

__all__ = ["reachable_graph"]

_NAME_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_NAME"})
_ATTR_LOADS = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
_MAX_WRAPPED = 8


@functools.lru_cache(maxsize=512)
def _chains(code: CodeType) -> tuple[tuple[bool, str, tuple[str, ...]], ...]:
    """(is the base a global, base name, attribute names) for each chain `code` loads."""
    out: list[tuple[bool, str, tuple[str, ...]]] = []
    base: tuple[bool, str] | None = None
    attrs: list[str] = []
    for ins in dis.get_instructions(code):
        if ins.opname in _ATTR_LOADS and base is not None:
            attrs.append(ins.argval)
            continue
        if base is not None:
            out.append((*base, tuple(attrs)))
            base, attrs = None, []
        if ins.opname in _NAME_LOADS and isinstance(ins.argval, str):
            base = (ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"), ins.argval)
    if base is not None:
        out.append((*base, tuple(attrs)))
    return tuple(out)


def _nested(code: CodeType) -> list[CodeType]:
    found = []
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found.append(const)
            found.extend(_nested(const))
    return found


def _follow(value: Any, attrs: tuple[str, ...], is_graph: Callable[[Any], bool]) -> Any:
    """The first graph along `value.attr1.attr2...`, or None (a missing attribute stops)."""
    if is_graph(value):
        return value
    for name in attrs:
        try:
            value = getattr(value, name)
        except Exception:
            return None
        if is_graph(value):
            return value
    return None


def reachable_graph(func: Any, is_graph: Callable[[Any], bool]) -> Any:
    """The first graph `func`'s code reaches through a name and attribute loads, or None."""
    for _ in range(_MAX_WRAPPED):
        func = getattr(func, "__func__", func)
        code = getattr(func, "__code__", None)
        if isinstance(code, CodeType):
            found = _in_code(func, code, is_graph)
            if found is not None:
                return found
        wrapped = getattr(func, "__wrapped__", None)
        if wrapped is None or wrapped is func:
            return None
        if is_graph(wrapped):
            return wrapped
        func = wrapped
    return None


def _in_code(func: Any, code: CodeType, is_graph: Callable[[Any], bool]) -> Any:
    cells: dict[str, Any] = {}
    for name, cell in zip(code.co_freevars, getattr(func, "__closure__", None) or (), strict=False):
        try:
            cells[name] = cell.cell_contents
        except ValueError:  # a cell never filled
            continue
    scope = getattr(func, "__globals__", {})
    missing = object()
    for is_global, name, attrs in _chains(code):
        value = scope.get(name, missing) if is_global else cells.get(name, missing)
        if value is not missing:
            found = _follow(value, attrs, is_graph)
            if found is not None:
                return found
    for inner in _nested(code):
        for is_global, name, attrs in _chains(inner):
            if not is_global and name in cells:
                found = _follow(cells[name], attrs, is_graph)
                if found is not None:
                    return found
    return None
