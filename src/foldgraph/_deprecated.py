"""Deprecated LangGraph parameters foldgraph still accepts, translated with LangGraph's warning.

Each helper takes the old spelling out of a call's keyword arguments, warns with
the class and text LangGraph 1.2 uses (so `filterwarnings` rules written for
LangGraph apply), and returns the value under its current name.
"""

from __future__ import annotations

import warnings
from typing import Any

from foldgraph.warnings import LangGraphDeprecatedSinceV05, LangGraphDeprecatedSinceV10

__all__ = [
    "checkpoint_during_as_durability",
    "config_model",
    "renamed_parameter",
    "warn_config_schema",
]

_CATEGORIES = {(0, 5): LangGraphDeprecatedSinceV05, (1, 0): LangGraphDeprecatedSinceV10}


def renamed_parameter(
    kwargs: dict[str, Any],
    old: str,
    new: str,
    current: Any,
    *,
    since: tuple[int, int],
    stacklevel: int = 3,
) -> Any:
    """`current`, or the value passed under `old` when `current` is None (with a warning).

    >>> renamed_parameter({}, "input", "input_schema", int, since=(0, 5))
    <class 'int'>
    """
    if old not in kwargs:
        return current
    value = kwargs.pop(old)
    warnings.warn(
        f"`{old}` is deprecated and will be removed. Please use `{new}` instead.",
        _CATEGORIES[since],
        stacklevel=stacklevel,
    )
    return value if current is None else current


def checkpoint_during_as_durability(
    durability: str | None, kwargs: dict[str, Any], *, stacklevel: int = 3
) -> str | None:
    """LangGraph 0.x's `checkpoint_during=True/False` is durability "async"/"exit"."""
    checkpoint_during = kwargs.pop("checkpoint_during", None)
    if checkpoint_during is None:
        return durability
    warnings.warn(
        "`checkpoint_during` is deprecated and will be removed. Please use `durability` instead.",
        LangGraphDeprecatedSinceV10,
        stacklevel=stacklevel,
    )
    if durability is not None:
        raise ValueError(
            "Cannot use both `checkpoint_during` and `durability` parameters. "
            "Please use `durability` instead."
        )
    return "async" if checkpoint_during else "exit"


def config_model(name: str, context_schema: Any, include: Any) -> Any:
    """The pydantic model LangGraph 0.x's `config_schema()` described a graph's config with.

    `configurable` is typed by the graph's context schema; `include` adds other
    `RunnableConfig` keys (tags, metadata, ...) with their annotated types.
    """
    from typing import get_type_hints

    from langchain_core.runnables import RunnableConfig
    from pydantic import create_model

    wanted = set(include or ()) - {"configurable"}
    fields: dict[str, Any] = {}
    if context_schema is not None:
        fields["configurable"] = (context_schema, None)
    for key, annotation in get_type_hints(RunnableConfig).items():
        if key in wanted:
            fields[key] = (annotation, None)
    return create_model(name, **fields)


def warn_config_schema(method: str, *, stacklevel: int = 3) -> None:
    replacement = (
        "`get_context_jsonschema` for the relevant schema"
        if method == "config_schema"
        else "`get_context_jsonschema`"
    )
    warnings.warn(
        f"`{method}` is deprecated. Use {replacement} instead.",
        LangGraphDeprecatedSinceV10,
        stacklevel=stacklevel,
    )
