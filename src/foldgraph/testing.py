"""Check your own reducers against the laws foldgraph relies on, with hypothesis.

foldgraph folds a whole superstep's writes at once, stores channels in a
persistent form and may replay stored deltas; all of that gives LangGraph's
answers only if the reducer behaves like a monoid. These helpers let you test
that in one line, on values drawn from your own hypothesis strategy:

    from hypothesis import strategies as st
    from foldgraph.testing import check_reducer_laws

    def test_my_reducer() -> None:
        check_reducer_laws(merge_scores, st.dictionaries(st.text(), st.integers()), typ=dict)

Each law runs as its own hypothesis search; the first one with a counterexample
raises an AssertionError that names the law and shows the (shrunk) values.
Every side of an equation gets its own deep copy of the values, so reducers that
mutate their arguments are judged fairly; strategies should therefore produce
values that already carry anything the reducer would invent (e.g. message ids),
or the two sides will differ only by that. Call these from a plain test
function, not from inside another `@given` test.

The laws, with `e = thaw(empty())`, `s = lift(a)` and `r` the reducer:

- identity, empty batch: `thaw(combine_all(s, [])) == thaw(s)`
- identity, left / right (when the channel type has an empty value):
  `r(e, a) == a` and `r(a, e) == a`
- associativity: `r(r(a, b), c) == r(a, r(b, c))`
- agreement: `thaw(combine_all(lift(a), [b])) == r(a, b)`
- batch fold: `thaw(combine_all(lift(a), [b, c])) == r(r(a, b), c)`
- batch split: `combine_all(combine_all(s, [b]), [c])` thaws equal to
  `combine_all(s, [b, c])`

Equal exceptions (same type and message) on both sides count as agreement.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.monoid import Monoid, fold_monoid
from foldgraph._kernel.reducers import monoid_for

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "LAWS",
    "Monoid",
    "check_commutativity",
    "check_monoid_laws",
    "check_reducer_laws",
    "has_identity",
]


def _outcome(thunk: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", thunk()
    except Exception as exc:  # a law may legitimately hold by both sides failing alike
        return "error", (type(exc), str(exc))


def _show(outcome: tuple[str, Any]) -> str:
    kind, payload = outcome
    if kind == "value":
        return repr(payload)
    exc_type, message = payload
    return f"raised {exc_type.__name__}({message!r})"


def _expect_equal(
    law: str,
    equation: str,
    monoid: Monoid,
    values: dict[str, Any],
    lhs: Callable[..., Any],
    rhs: Callable[..., Any],
) -> None:
    """Evaluate both sides on private copies of `values`; fail naming the law if they differ."""
    left = _outcome(lambda: lhs(**copy.deepcopy(values)))
    right = _outcome(lambda: rhs(**copy.deepcopy(values)))
    if left == right:
        return
    shown = "\n".join(f"  {name} = {value!r}" for name, value in values.items())
    raise AssertionError(
        f"The {law} law does not hold for reducer {monoid.name!r}: {equation}\n"
        f"{shown}\n  left side:  {_show(left)}\n  right side: {_show(right)}"
    )


def _empty_batch(m: Monoid, a: Any, b: Any, c: Any) -> None:
    _expect_equal(
        "identity (empty batch)",
        "thaw(combine_all(lift(a), [])) == thaw(lift(a))",
        m,
        {"a": a},
        lambda a: m.thaw(m.combine_all(m.lift(a), [])),
        lambda a: m.thaw(m.lift(a)),
    )


def _left_identity(m: Monoid, a: Any, b: Any, c: Any) -> None:
    if m.empty() is MISSING:
        return  # the channel type has no empty value: nothing to be an identity
    _expect_equal(
        "left identity",
        "reducer(empty, a) == a",
        m,
        {"a": a},
        lambda a: m.reducer(m.thaw(m.empty()), a),
        lambda a: a,
    )


def _right_identity(m: Monoid, a: Any, b: Any, c: Any) -> None:
    if m.empty() is MISSING:
        return
    _expect_equal(
        "right identity",
        "reducer(a, empty) == a",
        m,
        {"a": a},
        lambda a: m.reducer(a, m.thaw(m.empty())),
        lambda a: a,
    )


def _associativity(m: Monoid, a: Any, b: Any, c: Any) -> None:
    r = m.reducer
    _expect_equal(
        "associativity",
        "reducer(reducer(a, b), c) == reducer(a, reducer(b, c))",
        m,
        {"a": a, "b": b, "c": c},
        lambda a, b, c: r(r(a, b), c),
        lambda a, b, c: r(a, r(b, c)),
    )


def _agreement(m: Monoid, a: Any, b: Any, c: Any) -> None:
    _expect_equal(
        "agreement",
        "thaw(combine_all(lift(a), [b])) == reducer(a, b)",
        m,
        {"a": a, "b": b},
        lambda a, b: m.thaw(m.combine_all(m.lift(a), [b])),
        lambda a, b: m.reducer(a, b),
    )


def _batch_fold(m: Monoid, a: Any, b: Any, c: Any) -> None:
    r = m.reducer
    _expect_equal(
        "batch fold",
        "thaw(combine_all(lift(a), [b, c])) == reducer(reducer(a, b), c)",
        m,
        {"a": a, "b": b, "c": c},
        lambda a, b, c: m.thaw(m.combine_all(m.lift(a), [b, c])),
        lambda a, b, c: r(r(a, b), c),
    )


def _batch_split(m: Monoid, a: Any, b: Any, c: Any) -> None:
    _expect_equal(
        "batch split",
        "combine_all(combine_all(lift(a), [b]), [c]) == combine_all(lift(a), [b, c])",
        m,
        {"a": a, "b": b, "c": c},
        lambda a, b, c: m.thaw(m.combine_all(m.combine_all(m.lift(a), [b]), [c])),
        lambda a, b, c: m.thaw(m.combine_all(m.lift(a), [b, c])),
    )


_CHECKS: dict[str, Callable[[Monoid, Any, Any, Any], None]] = {
    "identity": _empty_batch,
    "left identity": _left_identity,
    "right identity": _right_identity,
    "associativity": _associativity,
    "agreement": _agreement,
    "batch fold": _batch_fold,
    "batch split": _batch_split,
}

LAWS: tuple[str, ...] = tuple(_CHECKS)
"""The names of the laws, in the order they are checked."""


def check_monoid_laws(
    monoid: Monoid,
    values: SearchStrategy[Any],
    *,
    laws: Collection[str] = LAWS,
    max_examples: int = 100,
) -> None:
    """Search for a counterexample to each of `laws` for `monoid`, on values from `values`.

    Use this for a hand-written `Monoid` (e.g. one with a faster stored form);
    `check_reducer_laws` covers plain reducer functions. Raises AssertionError
    naming the first law that fails, with a shrunk counterexample.
    """
    unknown = [law for law in laws if law not in _CHECKS]
    if unknown:
        raise ValueError(f"Unknown law(s) {unknown!r}: choose from {list(LAWS)!r}.")
    for law in LAWS:
        if law in laws:
            _search(monoid, _CHECKS[law], values, max_examples)


def _search(
    monoid: Monoid,
    check: Callable[[Monoid, Any, Any, Any], None],
    values: SearchStrategy[Any],
    max_examples: int,
) -> None:
    from hypothesis import Phase, given, settings

    # The failure message already shows the values; hypothesis's "explain" phase would
    # only add seconds per failing law. A fixed search (derandomize) makes a run's
    # counterexample the same each time it is run, on any machine.
    phases = tuple(p for p in settings().phases if p is not Phase.explain)

    @settings(max_examples=max_examples, deadline=None, phases=phases, derandomize=True)
    @given(a=values, b=values, c=values)
    def law_holds(a: Any, b: Any, c: Any) -> None:
        check(monoid, a, b, c)

    law_holds()


def check_reducer_laws(
    reducer: Callable[[Any, Any], Any],
    values: SearchStrategy[Any],
    *,
    typ: Any = None,
    laws: Collection[str] = LAWS,
    max_examples: int = 100,
) -> None:
    """Check `reducer`, as a channel of type `typ` would use it, against the monoid laws.

    `typ` is the annotated type of the state key (`list`, `int`, `dict[str, int]`...):
    it decides the empty value (`typ()`) and whether foldgraph swaps in a faster
    persistent form for a known reducer (`operator.add` on lists, `add_messages`).
    With `typ=None` there is no empty value and the identity laws are skipped.

    Example:
        check_reducer_laws(operator.add, st.lists(st.integers()), typ=list)  # passes
        check_reducer_laws(operator.sub, st.integers())
        # AssertionError: The associativity law does not hold for reducer 'sub': ...
    """
    check_monoid_laws(monoid_for(reducer, typ), values, laws=laws, max_examples=max_examples)


def has_identity(reducer: Callable[[Any, Any], Any], typ: Any = None) -> bool:
    """True when a channel of type `typ` gives `reducer` an empty value to start from
    (`typ()`, as LangGraph does), so the identity laws apply to it."""
    return monoid_for(reducer, typ).empty() is not MISSING


def _commutes(m: Monoid, a: Any, b: Any, c: Any) -> None:
    _expect_equal(
        "commutativity",
        "reducer(a, b) == reducer(b, a)",
        m,
        {"a": a, "b": b},
        lambda a, b: m.reducer(a, b),
        lambda a, b: m.reducer(b, a),
    )


def check_commutativity(
    reducer: Callable[[Any, Any], Any],
    values: SearchStrategy[Any],
    *,
    max_examples: int = 100,
) -> None:
    """Search for a counterexample to `reducer(a, b) == reducer(b, a)`.

    Not one of the laws: foldgraph (like LangGraph) applies a superstep's writes in a
    fixed task order, so a reducer that does not commute (appending to a list) is
    still deterministic. It tells whether the order of parallel writers matters.
    """
    _search(fold_monoid(reducer, None), _commutes, values, max_examples)
