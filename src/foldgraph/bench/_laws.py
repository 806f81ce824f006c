"""`check-reducer`: is a reducer a lawful monoid, so that replays and merges are safe?

Each law of `foldgraph.testing` runs as its own hypothesis search, on values drawn
from a strategy inferred from the reducer's type hints (or given), and the result
of each is kept: which laws hold, and for the first counterexample of each that
does not, the shrunk values. Commutativity is searched for too and reported, but
is not required: a superstep's writes are applied in task order.
"""

from __future__ import annotations

import collections.abc as cabc
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from foldgraph.bench._samples import first_param_type
from foldgraph.testing import (
    LAWS,
    Monoid,
    check_commutativity,
    check_monoid_laws,
    check_reducer_laws,
    has_identity,
)

IDENTITY_LAWS = ("left identity", "right identity")


class NoStrategy(TypeError):
    """No hypothesis strategy can be inferred for the reducer's values."""


@attrs.frozen
class LawResult:
    law: str
    holds: bool | None
    """None when the law does not apply (no empty value to be an identity)."""
    required: bool = True
    counterexample: str | None = None
    note: str | None = None


@attrs.frozen
class LawReport:
    reducer: str
    values: str
    """What the values were drawn from (the type, or the strategy's import path)."""
    examples: int
    results: tuple[LawResult, ...]

    @property
    def lawful(self) -> bool:
        return all(r.holds is not False for r in self.results if r.required)

    @property
    def failures(self) -> tuple[LawResult, ...]:
        return tuple(r for r in self.results if r.required and r.holds is False)


def _is_message_type(t: Any) -> bool:
    from langchain_core.messages import BaseMessage

    if isinstance(t, type) and issubclass(t, BaseMessage):
        return True
    return any(_is_message_type(a) for a in typing.get_args(t))


def messages_strategy() -> Any:
    """Lists of chat messages with distinct ids within a list (ids shared across lists, so
    updates replace messages too). No `RemoveMessage`s: removing an id that a later
    update re-adds is not associative in LangGraph's `add_messages` either."""
    from hypothesis import strategies as st
    from langchain_core.messages import AIMessage, HumanMessage

    message = st.builds(
        lambda cls, content, mid: cls(content=content, id=mid),
        st.sampled_from([HumanMessage, AIMessage]),
        st.text(max_size=5),
        st.sampled_from([f"id-{i}" for i in range(6)]),
    )
    return st.lists(message, max_size=5, unique_by=lambda m: m.id)


def strategy_for(typ: Any) -> Any:
    """A hypothesis strategy for values of `typ` (no NaN: it equals nothing, itself included)."""
    from hypothesis import strategies as st

    if typ is None or typ is Any:
        raise NoStrategy("the reducer has no type hint for its values")
    if _is_message_type(typ):
        return messages_strategy()
    origin = typing.get_origin(typ) or typ
    args = typing.get_args(typ)
    if origin is typing.Annotated:
        return strategy_for(args[0])
    if origin in (types.UnionType, typing.Union):
        return st.one_of([strategy_for(a) for a in args])
    if typ is float:
        return st.floats(allow_nan=False)
    if origin in (list, cabc.Sequence, cabc.MutableSequence):
        return st.lists(strategy_for(args[0]) if args else st.integers(), max_size=6)
    if origin in (set, cabc.Set, cabc.MutableSet):
        return st.sets(strategy_for(args[0]) if args else st.integers(), max_size=6)
    if origin is frozenset:
        return st.frozensets(strategy_for(args[0]) if args else st.integers(), max_size=6)
    if origin in (dict, cabc.Mapping, cabc.MutableMapping):
        keys = strategy_for(args[0]) if args else st.text(max_size=3)
        return st.dictionaries(keys, strategy_for(args[1]) if args else st.integers(), max_size=6)
    if origin is tuple and args and (len(args) == 1 or args[-1] is not Ellipsis):
        return st.tuples(*(strategy_for(a) for a in args))
    if origin is tuple:
        return st.lists(strategy_for(args[0]) if args else st.integers(), max_size=6).map(tuple)
    try:
        return st.from_type(typ)
    except Exception as exc:
        raise NoStrategy(f"hypothesis cannot draw values of {typ!r}: {exc}") from exc


def channel_type(typ: Any) -> Any:
    """The type a state key would be annotated with: messages live in a list."""
    if typ is not None and _is_message_type(typ):
        return list
    return typ


def _describe(typ: Any) -> str:
    if typ is not None and _is_message_type(typ):
        return "lists of chat messages (ids distinct within a list)"
    if isinstance(typ, type) and not typing.get_args(typ):
        return typ.__name__
    return repr(typ).replace("typing.", "")


def check_reducer(
    reducer: Callable[[Any, Any], Any] | Monoid,
    *,
    values: Any = None,
    values_name: str | None = None,
    typ: Any = None,
    examples: int = 100,
    name: str | None = None,
) -> LawReport:
    """Check every law on `reducer` and say which hold, with counterexamples.

    `values` is a hypothesis strategy (inferred from the type hint of the reducer's
    first parameter when None); `typ` the state key's type (decides the empty value;
    inferred likewise). Raises NoStrategy when neither can be found.
    """
    function = reducer.reducer if isinstance(reducer, Monoid) else reducer
    hint = first_param_type(function)
    if typ is None:
        typ = channel_type(hint)
    if values is None:
        values = strategy_for(hint if hint is not None else typ)
        values_name = _describe(hint if hint is not None else typ)
    results = []
    identity = isinstance(reducer, Monoid) or has_identity(function, typ)
    for law in LAWS:
        if law in IDENTITY_LAWS and not identity:
            results.append(
                LawResult(
                    law,
                    None,
                    note=f"no empty value for type {_describe(typ)}: the channel starts "
                    "from its first write",
                )
            )
            continue
        try:
            if isinstance(reducer, Monoid):
                check_monoid_laws(reducer, values, laws=[law], max_examples=examples)
            else:
                check_reducer_laws(reducer, values, typ=typ, laws=[law], max_examples=examples)
        except AssertionError as exc:
            results.append(LawResult(law, False, counterexample=str(exc)))
        else:
            results.append(LawResult(law, True))
    try:
        check_commutativity(function, values, max_examples=examples)
    except AssertionError as exc:
        results.append(
            LawResult(
                "commutativity",
                False,
                required=False,
                counterexample=str(exc),
                note="not required: a superstep's writes are applied in task order",
            )
        )
    else:
        results.append(LawResult("commutativity", True, required=False))
    label = name or getattr(function, "__qualname__", None) or repr(function)
    return LawReport(label, values_name or repr(values), examples, tuple(results))


def render(report: LawReport) -> str:
    """The report as text: one line per law, counterexamples indented under failures."""
    lines = [
        f"check-reducer {report.reducer}: {report.examples} examples per law, "
        f"values drawn from {report.values}"
    ]
    width = max(len(r.law) for r in report.results)
    for r in report.results:
        if r.holds is None:
            status = "n/a"
        elif r.holds:
            status = "holds"
        else:
            status = "FAILS" if r.required else "does not hold"
        line = f"  {r.law.ljust(width)}  {status}"
        if r.note and (r.holds is None or not r.holds):
            line += f" ({r.note})"
        lines.append(line)
        if r.counterexample and r.required:
            lines += ["      " + c for c in r.counterexample.splitlines()]
    if report.lawful:
        lines.append("lawful: every required law holds")
    else:
        failed = ", ".join(r.law for r in report.failures)
        lines.append(f"NOT lawful: {failed} failed (counterexamples above, shrunk by hypothesis)")
    return "\n".join(lines)
