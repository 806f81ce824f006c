"""Public value types: Send, Command, Interrupt, policies and snapshot records.

These mirror `langgraph.types`. They are plain immutable values; the runner
gives them meaning.
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
from collections.abc import Callable, Hashable, Sequence
from datetime import timedelta
from typing import Any, ClassVar, Generic, Literal, NamedTuple, NotRequired, TypeVar

from langchain_core.messages import AnyMessage
from langchain_core.messages.tool import ToolOutputMixin
from langchain_core.runnables import RunnableConfig
from typing_extensions import TypeAliasType, TypedDict

from foldgraph._context import TASK_SCOPE, interrupt_id
from foldgraph._kernel.channels import Overwrite
from foldgraph._kernel.schema import object_fields
from foldgraph.errors import GraphInterrupt, Interrupt

__all__ = [
    "All",
    "CacheKey",
    "CachePolicy",
    "CheckpointPayload",
    "CheckpointStreamPart",
    "CheckpointTask",
    "Checkpointer",
    "Command",
    "CustomStreamPart",
    "DebugPayload",
    "DebugStreamPart",
    "Durability",
    "GraphOutput",
    "Interrupt",
    "MessagesStreamPart",
    "Overwrite",
    "PregelExecutableTask",
    "PregelTask",
    "RetryPolicy",
    "Send",
    "StateSnapshot",
    "StateUpdate",
    "StreamMode",
    "StreamPart",
    "StreamWriter",
    "TaskPayload",
    "TaskResultPayload",
    "TasksStreamPart",
    "TimeoutPolicy",
    "TracePolicy",
    "UpdatesStreamPart",
    "ValuesStreamPart",
    "default_retry_on",
    "ensure_valid_checkpointer",
    "interrupt",
    "omit_payload",
]

N = TypeVar("N", bound=Hashable)
StateT = TypeVar("StateT")
OutputT = TypeVar("OutputT")
ResponseT = TypeVar("ResponseT")

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

    def __init__(
        self, node: str, arg: Any, *, timeout: float | timedelta | TimeoutPolicy | None = None
    ) -> None:
        self.node = node
        self.arg = arg
        # This task's limits, in place of the target node's own (async nodes).
        self.timeout = TimeoutPolicy.coerce(timeout)

    def __hash__(self) -> int:
        try:
            return hash((self.node, self.arg, self.timeout))
        except TypeError:
            return hash((self.node, id(self.arg), self.timeout))

    def __repr__(self) -> str:
        if self.timeout is None:
            return f"Send(node={self.node!r}, arg={self.arg!r})"
        return f"Send(node={self.node!r}, arg={self.arg!r}, timeout={self.timeout!r})"

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
class GraphOutput(Generic[OutputT]):
    """What `invoke(..., version="v2")` returns: the value and pending interrupts.

    Indexing it like the v1 dict (`out["k"]`, `"__interrupt__" in out`) still
    works, with a deprecation warning, as in LangGraph.
    """

    value: OutputT
    interrupts: tuple[Interrupt, ...] = ()

    def __getitem__(self, key: str) -> Any:
        _warn_dict_access("result[key]")
        if key == "__interrupt__":
            return self.interrupts
        if isinstance(self.value, dict):
            return self.value[key]
        try:
            return getattr(self.value, key)
        except AttributeError:
            raise KeyError(key) from None

    def __contains__(self, key: object) -> bool:
        _warn_dict_access("key in result")
        if key == "__interrupt__":
            return bool(self.interrupts)
        if isinstance(self.value, dict):
            return key in self.value
        return isinstance(key, str) and hasattr(self.value, key)


def _warn_dict_access(form: str) -> None:
    import warnings

    from foldgraph.warnings import LangGraphDeprecatedSinceV11

    warnings.warn(
        f"Accessing GraphOutput via `{form}` is deprecated. Use `result.value` to access the "
        "output value directly, or `result.interrupts` for interrupts.",
        LangGraphDeprecatedSinceV11,
        stacklevel=3,
    )


@dataclasses.dataclass
class PregelExecutableTask:
    """A task ready to run, as an executor receives it (LangGraph's record)."""

    name: str
    input: Any
    proc: Any
    writes: Any
    config: RunnableConfig
    triggers: Sequence[str]
    retry_policy: Sequence[RetryPolicy]
    cache_key: CacheKey | None
    id: str
    path: tuple[str | int | tuple, ...]
    writers: Sequence[Any] = ()
    subgraphs: Sequence[Any] = ()
    timeout: TimeoutPolicy | None = None


class ToolOutputMixin:
    pass


def ensure_valid_checkpointer(checkpointer: Any) -> Any:
    if checkpointer is None or checkpointer is True or checkpointer is False:
        return checkpointer
    # A saver's class was loaded with `foldgraph.checkpoint.base`, so the class is looked
    # up there instead of imported: that module re-exports the serializer, whose codec
    # knows the records defined here (an import would close a cycle).
    saver_module = sys.modules.get("foldgraph.checkpoint.base")
    if saver_module is not None and isinstance(checkpointer, saver_module.BaseCheckpointSaver):
        return checkpointer
    raise TypeError(
        f"Invalid checkpointer provided. Expected an instance of `BaseCheckpointSaver`, "
        f"`True`, `False`, or `None`. Received {type(checkpointer).__name__}. "
        "Pass a proper saver (e.g., InMemorySaver, AsyncPostgresSaver)."
    )


Checkpointer = Any


def interrupt(value: Any, *, response_schema: dict[str, Any] | type | None = None) -> Any:
    """Pause the run and surface `value` to the caller; return the resume value.

    The first call in a task raises `GraphInterrupt`; once the caller resumes
    with `Command(resume=...)`, the task runs again from the top and the k-th
    `interrupt()` call returns the k-th resume value. With a `response_schema`
    type the caller sees its JSON schema on the `Interrupt`, and the resume
    value is validated into that type (a `pydantic.ValidationError` marked for
    `errors.is_invalid_resume` if it does not fit); a dict schema is passed on
    as it is.
    """
    if response_schema is None or isinstance(response_schema, dict):
        adapter = None
    else:
        from pydantic import TypeAdapter

        adapter = TypeAdapter(response_schema)
        response_schema = adapter.json_schema()
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
        return _validated(adapter, pad.resume[index])
    if pad.null_resume:
        try:
            answer = pad.null_resume.pop()
        except IndexError:
            pass
        else:
            validated = _validated(adapter, answer)
            pad.resume.append(answer)
            return validated
    # Each interrupt of a task has its own id, so a resume map can address it.
    iid = pad.interrupt_id if index == 0 else interrupt_id(f"{pad.interrupt_id}#{index}")
    raise GraphInterrupt((Interrupt(value=value, id=iid, response_schema=response_schema),))


def _validated(adapter: Any, value: Any) -> Any:
    """The resume value checked against the schema; a misfit is marked as an invalid resume."""
    if adapter is None:
        return value
    from pydantic import ValidationError

    from foldgraph.errors import _mark_invalid_resume

    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        _mark_invalid_resume(exc)
        raise


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TimeoutPolicy:
    """Time limits of one node attempt: a hard `run_timeout`, and an `idle_timeout`
    refreshed by progress (`"auto"`) or only by `runtime.heartbeat()` (`"heartbeat"`).
    """

    run_timeout: float | timedelta | None = None
    idle_timeout: float | timedelta | None = None
    refresh_on: Literal["auto", "heartbeat"] = "auto"

    @classmethod
    def coerce(cls, value: float | timedelta | TimeoutPolicy | None) -> TimeoutPolicy | None:
        """A policy in positive seconds from a number, a timedelta or a policy.

        None (or a policy with neither limit) means no timeout; a limit <= 0 is
        a `ValueError`.
        """
        if value is None:
            return None
        policy = value if isinstance(value, TimeoutPolicy) else cls(run_timeout=value)
        if policy.refresh_on not in ("auto", "heartbeat"):
            raise ValueError("refresh_on must be 'auto' or 'heartbeat'")
        run = _seconds(policy.run_timeout, "run_timeout")
        idle = _seconds(policy.idle_timeout, "idle_timeout")
        if run is None and idle is None:
            return None
        return cls(run_timeout=run, idle_timeout=idle, refresh_on=policy.refresh_on)


def _seconds(value: float | timedelta | None, field: str) -> float | None:
    if value is None:
        return None
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds <= 0:
        raise ValueError(f"{field} must be greater than 0")
    return seconds


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TracePolicy:
    """What a node's own trace run records: each processor maps the raw input or
    output to the value recorded (the node itself still sees the real values).
    """

    process_inputs: Callable[[Any], Any] | None = None
    process_outputs: Callable[[Any], Any] | None = None


def omit_payload(_value: Any) -> dict[str, Any]:
    """`TracePolicy` processor that records nothing, keeping only the span and timing."""
    return {}


class TaskPayload(TypedDict):
    """A `tasks`-mode event: a task is starting."""

    id: str
    name: str
    input: Any
    triggers: list[str]
    metadata: NotRequired[dict[str, Any]]


class TaskResultPayload(TypedDict):
    """A `tasks`-mode event: a task finished, failed or was interrupted."""

    id: str
    name: str
    error: str | None
    interrupts: list[dict]
    result: dict[str, Any]


class CheckpointTask(TypedDict):
    """A task as listed in a `checkpoints`-mode event."""

    id: str
    name: str
    error: NotRequired[str]
    result: NotRequired[Any]
    interrupts: NotRequired[list[dict]]
    state: StateSnapshot | RunnableConfig | None


class CheckpointPayload(TypedDict, Generic[StateT]):
    """A `checkpoints`-mode event: the same data as `get_state` at that checkpoint."""

    config: RunnableConfig | None
    metadata: dict[str, Any]
    values: StateT
    next: list[str]
    parent_config: RunnableConfig | None
    tasks: list[CheckpointTask]


class _DebugCheckpointPayload(TypedDict, Generic[StateT]):
    step: int
    timestamp: str
    type: Literal["checkpoint"]
    payload: CheckpointPayload[StateT]


class _DebugTaskPayload(TypedDict):
    step: int
    timestamp: str
    type: Literal["task"]
    payload: TaskPayload


class _DebugTaskResultPayload(TypedDict):
    step: int
    timestamp: str
    type: Literal["task_result"]
    payload: TaskResultPayload


DebugPayload = TypeAliasType(
    "DebugPayload",
    _DebugCheckpointPayload[StateT] | _DebugTaskPayload | _DebugTaskResultPayload,
    type_params=(StateT,),
)


class ValuesStreamPart(TypedDict, Generic[OutputT]):
    """`version="v2"` part of the `values` stream."""

    type: Literal["values"]
    ns: tuple[str, ...]
    data: OutputT
    interrupts: tuple[Interrupt, ...]


class UpdatesStreamPart(TypedDict):
    """`version="v2"` part of the `updates` stream."""

    type: Literal["updates"]
    ns: tuple[str, ...]
    data: dict[str, Any]


class MessagesStreamPart(TypedDict):
    """`version="v2"` part of the `messages` stream: `(message, metadata)`."""

    type: Literal["messages"]
    ns: tuple[str, ...]
    data: tuple[AnyMessage, dict[str, Any]]


class CustomStreamPart(TypedDict):
    """`version="v2"` part of the `custom` stream."""

    type: Literal["custom"]
    ns: tuple[str, ...]
    data: Any


class CheckpointStreamPart(TypedDict, Generic[StateT]):
    """`version="v2"` part of the `checkpoints` stream."""

    type: Literal["checkpoints"]
    ns: tuple[str, ...]
    data: CheckpointPayload[StateT]


class TasksStreamPart(TypedDict):
    """`version="v2"` part of the `tasks` stream."""

    type: Literal["tasks"]
    ns: tuple[str, ...]
    data: TaskPayload | TaskResultPayload


class DebugStreamPart(TypedDict, Generic[StateT]):
    """`version="v2"` part of the `debug` stream."""

    type: Literal["debug"]
    ns: tuple[str, ...]
    data: DebugPayload[StateT]


StreamPart = TypeAliasType(
    "StreamPart",
    ValuesStreamPart[OutputT]
    | UpdatesStreamPart
    | MessagesStreamPart
    | CustomStreamPart
    | CheckpointStreamPart[StateT]
    | TasksStreamPart
    | DebugStreamPart[StateT],
    type_params=(StateT, OutputT),
)
"""Any `version="v2"` stream part; narrow it on `part["type"]`."""
