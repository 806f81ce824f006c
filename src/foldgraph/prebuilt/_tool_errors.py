"""Tool errors: LangGraph's message templates, `ToolInvocationError`, and which errors a
`handle_tool_errors` setting turns into a message for the model."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from langchain_core.tools.base import ToolException
from pydantic import ValidationError

from foldgraph.prebuilt._tool_injection import _InjectedArgs

INVALID_TOOL_NAME_ERROR_TEMPLATE = (
    "Error: {requested_tool} is not a valid tool, try one of [{available_tools}]."
)
TOOL_CALL_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."
TOOL_EXECUTION_ERROR_TEMPLATE = (
    "Error executing tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)
TOOL_INVOCATION_ERROR_TEMPLATE = (
    "Error invoking tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)
ErrorHandling = bool | str | Callable[..., str] | type[Exception] | tuple[type[Exception], ...]


class ToolInvocationError(ToolException):
    """The model called a tool with arguments its schema rejects.

    Only raised by `ToolNode`; the message names only the arguments the model
    controls (injected ones are left out, the model cannot fix them).
    """

    def __init__(
        self,
        tool_name: str,
        source: ValidationError,
        tool_kwargs: dict[str, Any],
        filtered_errors: list[Any] | None = None,
    ) -> None:
        if filtered_errors is not None:
            shown = "\n".join(
                f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'Unknown error')}"
                for e in filtered_errors
            )
        else:
            shown = str(source)
        self.message = TOOL_INVOCATION_ERROR_TEMPLATE.format(
            tool_name=tool_name, tool_kwargs=tool_kwargs, error=shown
        )
        self.tool_name = tool_name
        self.tool_kwargs = tool_kwargs
        self.source = source
        self.filtered_errors = filtered_errors
        super().__init__(self.message)


def _default_handle_tool_errors(e: Exception) -> str:
    """Turn only invalid-argument errors into a message for the model; raise the rest."""
    if isinstance(e, ToolInvocationError):
        return e.message
    raise e


def _error_content(e: Exception, flag: ErrorHandling) -> str:
    if isinstance(flag, bool | tuple) or (isinstance(flag, type) and issubclass(flag, Exception)):
        return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
    if isinstance(flag, str):
        return flag
    if callable(flag):
        return flag(e)
    raise ValueError(
        "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. "
        f"Received: {flag}"
    )


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    """The exception types a handler's first parameter is annotated with (Exception if none)."""
    params = list(inspect.signature(handler).parameters.values())
    if not params:
        return (Exception,)
    first = params[1] if params[0].name in ("self", "cls") and len(params) == 2 else params[0]
    hints = get_type_hints(handler)
    if first.name not in hints:
        return (Exception,)
    annotation = hints[first.name]
    if get_origin(annotation) in (Union, UnionType):
        args = get_args(annotation)
        if all(issubclass(arg, Exception) for arg in args):
            return tuple(args)
        raise ValueError(
            "All types in the error handler error annotation must be Exception types. "
            "For example, `def custom_handler(e: Union[ValueError, TypeError])`. "
            f"Got '{first.annotation}' instead."
        )
    exc_type = annotation
    if Exception in getattr(exc_type, "__mro__", ()):
        return (exc_type,)
    raise ValueError(
        "Arbitrary types are not supported in the error handler signature. Please annotate "
        "the error with either a specific Exception type or a union of Exception types. "
        "For example, `def custom_handler(e: ValueError)` or "
        "`def custom_handler(e: Union[ValueError, TypeError])`. "
        f"Got '{exc_type}' instead."
    )


def _filter_validation_errors(error: ValidationError, injected: _InjectedArgs | None) -> list[Any]:
    """The validation errors about arguments the model controls, without injected values."""
    hidden: set[str] = set()
    if injected:
        hidden.update(injected.state)
        if injected.store:
            hidden.add(injected.store)
        if injected.runtime:
            hidden.add(injected.runtime)
    kept = []
    for detail in error.errors():
        if detail["loc"] and detail["loc"][0] not in hidden:
            entry: dict[str, Any] = {**detail}
            if isinstance(entry.get("input"), dict):
                entry["input"] = {k: v for k, v in entry["input"].items() if k not in hidden}
            kept.append(entry)
    return kept


ToolInvocationError.__module__ = "foldgraph.prebuilt.tool_node"  # where users import it from
