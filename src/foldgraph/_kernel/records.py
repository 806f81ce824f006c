"""Positional builders for frozen attrs records made on every superstep.

attrs' frozen `__init__` stores each field through `object.__setattr__` (the class's
own `__setattr__` refuses): a bound wrapper call per slot, about 0.2 us each here,
so a 12-field `Snapshot` costs ~2.3 us to make, against ~0.7 us for the same slots
filled by plain assignment. A builder fills a twin subclass that adds no slots and
keeps the plain `__setattr__`, then gives the object its real class: the result is
an ordinary frozen instance of the record (same type, equality, hash, repr;
assignment still raises), built about three times faster.

Only records with no validator, converter or post-init hook qualify: a builder
takes every field in order, `init=False` memo fields included, and runs nothing else.

`tuple_builder` is the same idea for a `NamedTuple`: its class call runs a
Python-level `__new__` (a frame per instance, ~0.3 us); `tuple.__new__` given the
class and all fields builds the same instance in C.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import attrs

__all__ = ["positional_builder", "tuple_builder"]

R = TypeVar("R")


def positional_builder(cls: type[R]) -> Callable[..., R]:
    """`build(*fields)` for the frozen slotted attrs class `cls`, fields in declaration order."""
    fields = attrs.fields(cls)
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__} is not a slotted attrs class")
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__qualname__} has __attrs_post_init__: build it with its __init__")
    for field in fields:
        if field.validator is not None or field.converter is not None:
            raise TypeError(
                f"{cls.__qualname__}.{field.name} has a validator or converter: "
                "build it with its __init__"
            )
    # The twin's __setattr__/__delattr__ are object's own, so CPython stores attributes
    # with its generic (fast) path instead of calling back into Python.
    draft = type(
        f"_{cls.__name__}Draft",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
        },
    )
    args = [f.name.lstrip("_") if f.alias is None else f.alias for f in fields]
    body = "\n".join(f"    o.{f.name} = {a}" for f, a in zip(fields, args, strict=True))
    source = (
        f"def build({', '.join(args)}):\n"
        "    o = _new(_draft)\n"
        f"{body}\n"
        "    o.__class__ = _cls\n"
        "    return o\n"
    )
    namespace: dict[str, Any] = {"_new": object.__new__, "_draft": draft, "_cls": cls}
    exec(compile(source, f"<positional builder of {cls.__qualname__}>", "exec"), namespace)
    build = namespace["build"]
    build.__doc__ = f"{cls.__qualname__}({', '.join(args)}), positionally and fast."
    build.__qualname__ = f"positional_builder.<{cls.__qualname__}>"
    return build  # type: ignore[no-any-return]


def tuple_builder(cls: type[R]) -> Callable[[tuple[Any, ...]], R]:
    """`build(fields)` for the NamedTuple `cls`: `fields` is a tuple of every field in order
    (defaults are not filled in: a short tuple makes an instance missing fields)."""
    if not (isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")):
        raise TypeError(f"{getattr(cls, '__qualname__', cls)!r} is not a NamedTuple class")
    return partial(tuple.__new__, cls)
