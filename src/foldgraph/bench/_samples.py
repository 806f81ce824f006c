"""What a reducer is fed: the built-in reducers, sample data, and import paths.

This module imports nothing from foldgraph (only the standard library, and
langchain-core for messages), because the LangGraph side of a measurement runs
it in another interpreter, one where foldgraph may not be installed: both sides
must build the very same history and updates.

A *sample maker* is `samples(history) -> (value, update_at)`: the channel's value
after `history` updates, and `update_at(i)`, the i-th fresh update (each one new:
a message with a new id, a key not yet in the dict). A step of batch b folds
`update_at(i * b + j)` for j in range(b). Built-in reducers come with their own
makers; for others one is inferred from the reducer's type hints or given as an
import path.
"""

from __future__ import annotations

import collections.abc as cabc
import importlib
import inspect
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

SampleMaker = Callable[[int], tuple[Any, Callable[[int], Any]]]

__all__ = [
    "BUILTINS",
    "BuiltinReducer",
    "ImportPathError",
    "SampleError",
    "SampleMaker",
    "first_param_type",
    "infer_samples",
    "resolve",
]


class ImportPathError(LookupError):
    """`module:attr` does not name an importable object."""


class SampleError(TypeError):
    """No sample data can be inferred for a reducer's values."""


def resolve(path: str) -> Any:
    """The object named by `module:attr` or `path/to/file.py:attr` (attr may be dotted:
    `pkg.mod:Class.method`), as `--graph` takes them."""
    module_name, sep, attr = path.rpartition(":")
    if not sep or not module_name or not attr:
        raise ImportPathError(
            f"{path!r} is not an import path: write it as module:attr or file.py:attr, "
            "e.g. my_reducers:merge"
        )
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")  # the user's own modules, as `python -m` would find them
    try:
        obj: Any = (
            _load_file(module_name)
            if module_name.endswith(".py")
            else importlib.import_module(module_name)
        )
    except ImportError as exc:
        raise ImportPathError(f"cannot import module {module_name!r}: {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ImportPathError(
                f"module {module_name!r} has no attribute {attr!r} (looked for {part!r})"
            ) from None
    return obj


def _load_file(filename: str) -> types.ModuleType:
    """A Python file as a module named after it (kept in sys.modules, so the type hints
    of what it defines resolve)."""
    import importlib.util
    import os

    full = os.path.abspath(filename)
    if not os.path.isfile(full):
        raise ImportError(f"no file {filename}")
    name = os.path.splitext(os.path.basename(full))[0]
    known = sys.modules.get(name)
    if known is not None and getattr(known, "__file__", None) == full:
        return known
    spec = importlib.util.spec_from_file_location(name, full)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {filename} as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


# -- data --------------------------------------------------------------------------------


def _message(i: int, role: str = "") -> Any:
    from langchain_core.messages import AIMessage, HumanMessage

    if role == "ai" or (not role and i % 2):
        return AIMessage(content=f"message {i}", id=f"m-{i}")
    return HumanMessage(content=f"message {i}", id=f"m-{i}")


def messages_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    """A conversation of `history` messages; each update is one new AI message (a list)."""
    value = [_message(i) for i in range(history)]
    return value, lambda i: [_message(history + i, "ai")]


def list_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    return list(range(history)), lambda i: [history + i]


def set_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    return {f"s{i}" for i in range(history)}, lambda i: {f"s{history + i}"}


def dict_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    return {f"k{i}": i for i in range(history)}, lambda i: {f"k{history + i}": i}


def counter_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    return history, lambda i: 1


def topic_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    return [f"t{i}" for i in range(history)], lambda i: f"t{history + i}"


def last_value_samples(history: int) -> tuple[Any, Callable[[int], Any]]:
    return f"v{history}", lambda i: f"v{history + i + 1}"


class BuiltinReducer(typing.NamedTuple):
    """A reducer (or channel kind) shipped with the library, measured by name."""

    name: str
    title: str
    kind: str  # "binop", "topic" (accumulating) or "last_value"
    reducer: str  # import path of the binary function (binop), relative to the root
    typ: str  # the channel's type, as text
    samples: SampleMaker
    max_batch: int | None = None  # last value takes one write per step


BUILTINS: dict[str, BuiltinReducer] = {
    b.name: b
    for b in (
        BuiltinReducer(
            "add_messages",
            "add_messages: append a message",
            "binop",
            "{root}.graph.message:add_messages",
            "list",
            messages_samples,
        ),
        BuiltinReducer(
            "list_add",
            "operator.add on a list: append an item",
            "binop",
            "operator:add",
            "list",
            list_samples,
        ),
        BuiltinReducer(
            "last_value",
            "last value (no reducer): replace",
            "last_value",
            "",
            "str",
            last_value_samples,
            max_batch=1,
        ),
        BuiltinReducer(
            "topic",
            "Topic(accumulate=True): publish an item",
            "topic",
            "",
            "str",
            topic_samples,
        ),
        BuiltinReducer(
            "set_union",
            "operator.or_ on a set: add a member",
            "binop",
            "operator:or_",
            "set",
            set_samples,
        ),
        BuiltinReducer(
            "dict_merge",
            "operator.or_ on a dict: add a key",
            "binop",
            "operator:or_",
            "dict",
            dict_samples,
        ),
        BuiltinReducer(
            "counter",
            "operator.add on an int: count",
            "binop",
            "operator:add",
            "int",
            counter_samples,
        ),
    )
}

TYPES: dict[str, type] = {"list": list, "set": set, "dict": dict, "int": int, "str": str}


# -- inference from type hints ----------------------------------------------------------


def first_param_type(reducer: Callable[..., Any]) -> Any:
    """The annotated type of the reducer's first parameter (its current value), or None."""
    target = getattr(reducer, "reducer", reducer)  # a foldgraph Monoid carries its function
    try:
        hints = typing.get_type_hints(target, include_extras=False)
    except Exception:
        hints = getattr(target, "__annotations__", {}) or {}
    try:
        params = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):
        return None
    if not params:
        return None
    hint = hints.get(params[0].name)
    if hint is None:
        hint = hints.get("return")
    return hint


def _is_message_type(t: Any) -> bool:
    try:
        from langchain_core.messages import BaseMessage
    except ImportError:  # pragma: no cover - langchain-core is a dependency
        return False
    if isinstance(t, type) and issubclass(t, BaseMessage):
        return True
    if typing.get_origin(t) is typing.Annotated:
        return _is_message_type(typing.get_args(t)[0])
    args = typing.get_args(t)
    return bool(args) and any(_is_message_type(a) for a in args)


def _element(t: Any) -> Callable[[int], Any] | None:
    """A maker of distinct values of type `t`, by index."""
    if t is int:
        return lambda i: i
    if t is float:
        return float
    if t is str or t is Any:
        return lambda i: f"x{i}"
    if t is bool:
        return lambda i: bool(i % 2)
    if _is_message_type(t):
        return _message
    return None


def infer_samples(typ: Any) -> SampleMaker:
    """A sample maker for a channel of type `typ`, or SampleError saying what to pass."""
    origin = typing.get_origin(typ) or typ
    args = typing.get_args(typ)
    if origin is typing.Annotated:
        return infer_samples(args[0])
    if _is_message_type(typ):
        return messages_samples
    if origin in (types.UnionType, typing.Union):
        concrete = [a for a in args if a is not type(None)]
        if len(concrete) == 1:
            return infer_samples(concrete[0])
    if typ is int:
        return counter_samples
    if typ is float:
        return lambda n: (float(n), lambda i: 1.0)
    if typ is str:
        return lambda n: ("x" * n, lambda i: "y")
    if origin in (list, cabc.Sequence, cabc.MutableSequence, tuple):
        item = _element(args[0] if args else Any)
        if item is not None and (origin is not tuple or len(args) <= 1 or args[1] is Ellipsis):
            make = tuple if origin is tuple else list
            return lambda n: (
                make(item(i) for i in range(n)),
                lambda i: make([item(n + i)]),
            )
    if origin in (set, frozenset, cabc.Set, cabc.MutableSet):
        item = _element(args[0] if args else Any)
        if item is not None:
            make = frozenset if origin is frozenset else set
            return lambda n: (make(item(i) for i in range(n)), lambda i: make([item(n + i)]))
    if origin in (dict, cabc.Mapping, cabc.MutableMapping):
        key = _element(args[0] if args else str)
        val = _element(args[1] if len(args) > 1 else int)
        if key is not None and val is not None:
            return lambda n: (
                {key(i): val(i) for i in range(n)},
                lambda i: {key(n + i): val(n + i)},
            )
    shown = getattr(typ, "__name__", None) if typ is not None else None
    raise SampleError(
        f"cannot infer sample values from the type hint {shown or typ!r}: annotate the "
        "reducer's first parameter (list[int], dict[str, float], set[str], int, "
        "list[AnyMessage] ...) or pass --samples module:attr, a function "
        "samples(history) -> (value holding `history` items, update_at(i) -> i-th new update)"
    )
