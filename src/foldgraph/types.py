"""Public value types: Send, Command, Interrupt, policies and snapshot records.

These mirror `langgraph.types`. They are plain immutable values; the runner
gives them meaning.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar, Generic, Literal, NamedTuple, TypeVar

from langchain_core.messages.tool import ToolOutputMixin

from foldgraph._context import TASK_SCOPE, interrupt_id
from foldgraph._kernel.channels import Overwrite
from foldgraph._kernel.schema import object_fields
from foldgraph.errors import GraphInterrupt, Interrupt

__all__ = [
    "All",
    "CacheKey",
    "CachePolicy",
    "Checkpointer",
    "Command",
    "Durability",
    "GraphOutput",
    "Interrupt",
    "Overwrite",
    "PregelTask",
    "RetryPolicy",
    "Send",
    "StateSnapshot",
    "StateUpdate",
    "StreamMode",
    "StreamWriter",
    "default_retry_on",
    "ensure_valid_checkpointer",
    "interrupt",
]

N = TypeVar("N", bound=Hashable)

StreamMode = Literal["values", "updates", "checkpoints", "tasks", "debug", "messages", "custom"]
Durability = Literal["sync", "async", "exit"]
All = Literal["*"]
StreamWriter = Callable[[Any], None]


class Send:
    """Push one task to `node` with `arg` as its whole input (map-reduce fan-out).

    >>> Send("generate_joke", {"subject": "cats"})
    Send(node='generate_joke', arg={'subject': 'cats'})
    """

    __slots__ = ("arg", "node", "timeout")

    node: str
    arg: Any

    def __init__(self, node: str, arg: Any, *, timeout: float | None = None) -> None:
        self.node = node
        self.arg = arg
        self.timeout = timeout

    def __hash__(self) -> int:
        try:
            return hash((self.node, self.arg, self.timeout))
        except TypeError:
            return hash((self.node, id(self.arg), self.timeout))

    def __repr__(self) -> str:
        return f"Send(node={self.node!r}, arg={self.arg!r})"

    def __eq__(self, value: object) -> bool:
        return (
            isinstance(value, Send)
            and self.node == value.node
            and self.arg == value.arg
            and self.timeout == value.timeout
        )


@dataclasses.dataclass(frozen=True, kw_only=True, repr=False)
class Command(Generic[N], ToolOutputMixin):
    """Update state and/or route from a node; resume an interrupted run from input.

    A `ToolOutputMixin`, as in LangGraph: a tool returning a `Command` has it passed
    through by langchain-core instead of wrapped in a `ToolMessage`.

    >>> Command(update={"foo": "bar"}, goto="other")
    Command(update={'foo': 'bar'}, goto='other')
    """

    graph: str | None = None
    update: Any | None = None
    resume: dict[str, Any] | Any | None = None
    goto: Send | Sequence[Send | N] | N = ()

    PARENT: ClassVar[Literal["__parent__"]] = "__parent__"

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if getattr(self, f.name)
        )
        return f"Command({shown})"

    def _update_as_tuples(self) -> Sequence[tuple[str, Any]]:
        """The update as (key, value) pairs, whatever form it was given in."""
        update = self.update
        if update is None:
            return ()
        if isinstance(update, dict):
            return tuple(update.items())
        if isinstance(update, list | tuple) and all(
            isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str) for t in update
        ):
            return tuple(update)
        fields = object_fields(update)
        if fields is not None:
            return tuple(fields.items())
        return (("__root__", update),)

    def _gotos(self) -> tuple[Any, ...]:
        goto = self.goto
        if isinstance(goto, Send | str):
            return (goto,)
        return tuple(goto or ())


def default_retry_on(exc: Exception) -> bool:
    """Retry transient failures, never programming errors."""
    if isinstance(exc, ConnectionError):
        return True
    if isinstance(
        exc,
        ValueError
        | TypeError
        | ArithmeticError
        | ImportError
        | LookupError
        | NameError
        | SyntaxError
        | RuntimeError
        | ReferenceError
        | StopIteration
        | StopAsyncIteration
        | OSError,
    ):
        return False
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(status, int):
        return 500 <= status < 600
    return True


class RetryPolicy(NamedTuple):
    """How a failing node is retried: exponential back-off with optional jitter."""

    initial_interval: float = 0.5
    backoff_factor: float = 2.0
    max_interval: float = 128.0
    max_attempts: int = 3
    jitter: bool = True
    retry_on: type[Exception] | Sequence[type[Exception]] | Callable[[Exception], bool] = (
        default_retry_on
    )


def default_cache_key(*args: Any, **kwargs: Any) -> str | bytes:
    """Key a node's input by its pickled bytes (stable for plain data)."""
    return pickle.dumps((_freeze_for_key(args), _freeze_for_key(kwargs)), protocol=5)


def _freeze_for_key(obj: Any) -> Any:
    if isinstance(obj, dict) or (hasattr(obj, "keys") and hasattr(obj, "__getitem__")):
        return tuple(sorted((k, _freeze_for_key(obj[k])) for k in obj.keys()))
    if isinstance(obj, list | tuple) or type(obj).__name__ in ("FrozenList", "PVector"):
        return tuple(_freeze_for_key(x) for x in obj)
    return obj


@dataclasses.dataclass(frozen=True)
class CachePolicy:
    """Cache a node's result by a key of its input, for `ttl` seconds (None: forever)."""

    key_func: Callable[..., str | bytes] = default_cache_key
    ttl: int | None = None


class CacheKey(NamedTuple):
    ns: tuple[str, ...]
    key: str
    ttl: int | None


class PregelTask(NamedTuple):
    """A task of a snapshot: what will run (or ran and failed or interrupted)."""

    id: str
    name: str
    path: tuple[Any, ...]
    error: Exception | None = None
    interrupts: tuple[Interrupt, ...] = ()
    state: Any = None
    result: Any | None = None


class StateSnapshot(NamedTuple):
    """The state of a thread at one checkpoint, as `get_state` returns it."""

    values: dict[str, Any] | Any
    next: tuple[str, ...]
    config: dict[str, Any]
    metadata: dict[str, Any] | None
    created_at: str | None
    parent_config: dict[str, Any] | None
    tasks: tuple[PregelTask, ...]
    interrupts: tuple[Interrupt, ...] = ()


class StateUpdate(NamedTuple):
    values: dict[str, Any] | None
    as_node: str | None = None
    task_id: str | None = None


@dataclasses.dataclass(frozen=True)
class GraphOutput:
    """What `invoke(..., version="v2")` returns: the value and pending interrupts."""

    value: Any
    interrupts: tuple[Interrupt, ...] = ()


class ToolOutputMixin:
    pass


def ensure_valid_checkpointer(checkpointer: Any) -> Any:
    from foldgraph.checkpoint.base import BaseCheckpointSaver

    if checkpointer is None or checkpointer is True or checkpointer is False:
        return checkpointer
    if isinstance(checkpointer, BaseCheckpointSaver):
        return checkpointer
    raise TypeError(
        f"Invalid checkpointer provided. Expected an instance of `BaseCheckpointSaver`, "
        f"`True`, `False`, or `None`. Received {type(checkpointer).__name__}. "
        "Pass a proper saver (e.g., InMemorySaver, AsyncPostgresSaver)."
    )


Checkpointer = Any


def interrupt(value: Any) -> Any:
    """Pause the run and surface `value` to the caller; return the resume value.

    The first call in a task raises `GraphInterrupt`; once the caller resumes
    with `Command(resume=...)`, the task runs again from the top and the k-th
    `interrupt()` call returns the k-th resume value.
    """
    scope = TASK_SCOPE.get()
    if scope is None:
        raise RuntimeError(
            "interrupt() was called outside a running graph node. Call it from inside a "
            "node (or a tool run by a node)."
        )
    pad = scope.scratchpad
    index = pad.used
    pad.used += 1
    if index < len(pad.resume):
        return pad.resume[index]
    if pad.null_resume:
        try:
            value = pad.null_resume.pop()
        except IndexError:
            pass
        else:
            pad.resume.append(value)
            return value
    # Each interrupt of a task has its own id, so a resume map can address it.
    iid = pad.interrupt_id if index == 0 else interrupt_id(f"{pad.interrupt_id}#{index}")
    raise GraphInterrupt((Interrupt(value=value, id=iid),))
