"""The monoid laws for the built-in reducers, and the public law checker itself."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage
from pyrsistent import PVector, pvector

from foldgraph._kernel.add_messages import messages_monoid
from foldgraph._kernel.channels import BinaryOperatorAggregate
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.message_log import REMOVE_ALL_MESSAGES
from foldgraph._kernel.monoid import Monoid, append_monoid, fold_monoid
from foldgraph.graph.message import add_messages
from foldgraph.testing import LAWS, check_monoid_laws, check_reducer_laws

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's reducer monoids and foldgraph.testing; LangGraph has neither"
)

FEW = 40  # per law; the properties below are cheap to falsify when they are false

# -- built-in monoids ---------------------------------------------------------------------


def test_append_monoid_is_lawful() -> None:
    check_monoid_laws(append_monoid, st.lists(st.integers(), max_size=5))


def test_append_monoid_is_chosen_for_add_on_lists_and_is_lawful() -> None:
    values = st.lists(st.text(max_size=2), max_size=5)
    check_reducer_laws(operator.add, values, typ=list[str], max_examples=FEW)


@pytest.mark.parametrize(
    ("typ", "values"),
    [
        (int, st.integers()),
        (str, st.text(max_size=5)),
        (list, st.lists(st.integers(), max_size=5)),
        (tuple, st.lists(st.integers(), max_size=5).map(tuple)),
    ],
)
def test_fold_monoid_of_add_is_lawful(typ: type, values: st.SearchStrategy[Any]) -> None:
    check_monoid_laws(fold_monoid(operator.add, typ), values)


def test_fold_monoid_without_an_empty_value_skips_only_the_identities() -> None:
    monoid = fold_monoid(max, None)
    assert monoid.empty() is not None and not monoid.empty()  # MISSING
    check_monoid_laws(monoid, st.integers(), max_examples=FEW)


IDS = st.sampled_from(["a", "b", "c", "d"])
TEXT = st.text(alphabet="xy", max_size=2)
MESSAGE = st.one_of(
    st.builds(lambda i, c: HumanMessage(c, id=i), IDS, TEXT),
    st.builds(lambda i, c: AIMessage(c, id=i), IDS, TEXT),
)
ANY_OP = st.one_of(
    MESSAGE,
    st.builds(lambda i, c: {"role": "user", "content": c, "id": i}, IDS, TEXT),
    st.builds(lambda i: RemoveMessage(id=i), IDS),
    st.builds(lambda: RemoveMessage(id=REMOVE_ALL_MESSAGES)),
)


def test_messages_monoid_agrees_with_add_messages_in_batches_even_with_removals() -> None:
    # Each step's batch is folded exactly as LangGraph would apply the updates one by one,
    # whatever they hold: both sides raise the same error for an unknown id.
    values = st.one_of(ANY_OP, st.lists(ANY_OP, max_size=4))
    check_monoid_laws(
        messages_monoid(),
        values,
        laws=["identity", "agreement", "batch fold", "batch split"],
        max_examples=200,
    )


def test_messages_monoid_is_associative_without_removals() -> None:
    # Removals are not associative: in `a + (b + c)` a RemoveMessage in b meets c first
    # (and stays in the merged list as a message if c doesn't touch it), while in
    # `(a + b) + c` it deletes from a. A remove-all marker likewise only clears what is
    # on its left. Appends and replacements by id are associative.
    values = st.one_of(MESSAGE, st.lists(MESSAGE, max_size=4))
    check_monoid_laws(messages_monoid(), values, laws=["associativity"], max_examples=200)


def test_messages_monoid_identities_hold_for_lists_of_distinct_messages() -> None:
    # `add_messages([], a)` merges a's repeated ids and coerces single messages to lists,
    # so `[]` is an identity only on lists of messages with distinct ids.
    values = st.lists(MESSAGE, max_size=4, unique_by=lambda m: m.id)
    check_reducer_laws(add_messages, values, typ=list, laws=["left identity", "right identity"])


def test_removals_really_break_associativity() -> None:
    values = st.lists(ANY_OP, max_size=3)
    with pytest.raises(AssertionError, match="associativity"):
        check_monoid_laws(messages_monoid(), values, laws=["associativity"], max_examples=200)


# -- the checker --------------------------------------------------------------------------


def test_checker_accepts_lawful_reducers() -> None:
    check_reducer_laws(max, st.integers(), max_examples=FEW)
    sets = st.frozensets(st.integers(), max_size=4)
    check_reducer_laws(operator.or_, sets, typ=frozenset, max_examples=FEW)
    check_reducer_laws(
        operator.add, st.lists(st.booleans(), max_size=4), typ=list, max_examples=FEW
    )


def test_checker_rejects_subtraction_naming_associativity() -> None:
    with pytest.raises(AssertionError) as info:
        check_reducer_laws(operator.sub, st.integers(), max_examples=FEW)
    message = str(info.value)
    assert message.startswith(
        "The associativity law does not hold for reducer 'sub': "
        "reducer(reducer(a, b), c) == reducer(a, reducer(b, c))\n"
    )
    assert "\n  a = " in message and "\n  left side:  " in message


def test_checker_rejects_subtraction_with_zero_as_a_left_identity() -> None:
    with pytest.raises(AssertionError, match=r"^The left identity law does not hold"):
        check_reducer_laws(operator.sub, st.integers(), typ=int, max_examples=FEW)


def test_checker_rejects_last_write_wins_as_a_monoid_on_lists() -> None:
    # Associative, but `[]` is not a right identity: writing [] erases the value.
    with pytest.raises(AssertionError, match=r"^The right identity law does not hold"):
        values = st.lists(st.integers(), min_size=1)
        check_reducer_laws(lambda a, b: b, values, typ=list, max_examples=FEW)
    check_reducer_laws(
        lambda a, b: b,
        st.lists(st.integers()),
        typ=list,
        laws=["associativity", "batch fold"],
        max_examples=FEW,
    )


def _first_update_only(stored: PVector, updates: Sequence[Any]) -> PVector:
    return stored.extend(updates[0]) if updates else stored


BROKEN = Monoid(
    name="first-only",
    reducer=operator.add,
    empty=pvector,
    combine_all=_first_update_only,
    lift=pvector,
)


def test_checker_catches_a_batch_that_disagrees_with_the_pairwise_fold() -> None:
    values = st.lists(st.integers(), max_size=3)
    check_monoid_laws(
        BROKEN, values, laws=["identity", "agreement", "associativity"], max_examples=FEW
    )
    with pytest.raises(
        AssertionError, match=r"^The batch fold law does not hold for reducer 'first-only'"
    ):
        check_monoid_laws(BROKEN, values, max_examples=FEW)


def test_checker_treats_the_same_error_on_both_sides_as_agreement() -> None:
    def strict_add(a: int, b: int) -> int:
        if b < 0:
            raise ValueError("negative update")
        return a + b

    check_reducer_laws(strict_add, st.integers(-3, 3), laws=["batch fold", "agreement"])


def test_unknown_law_names_are_refused() -> None:
    with pytest.raises(ValueError, match="Unknown law"):
        check_monoid_laws(append_monoid, st.lists(st.integers()), laws=["commutativity"])
    assert LAWS == (
        "identity",
        "left identity",
        "right identity",
        "associativity",
        "agreement",
        "batch fold",
        "batch split",
    )


# -- the single plain update path of a reducer channel ------------------------------------


def _pair_or_none(a: Any, b: Any) -> Any:
    return None if a == b else [a, b]  # a plain result, or a list to freeze


@pytest.mark.parametrize(
    ("reducer", "atoms"),
    [
        (operator.add, st.integers()),
        (operator.add, st.text(max_size=3)),
        (max, st.floats(allow_nan=False)),
        (_pair_or_none, st.integers(0, 3) | st.none()),
    ],
)
def test_one_plain_update_folds_as_the_batch_path(reducer: Any, atoms: Any) -> None:
    """A channel's shortcut for one atom onto an atom gives what `combine_all` gives."""
    channel = BinaryOperatorAggregate(object, reducer, key="k")
    assert channel.monoid.plain_reducer is reducer

    @given(atoms, atoms)
    def check(stored: Any, update: Any) -> None:
        new, changed = channel.fold(stored, [update])
        assert changed
        assert thaw(new) == thaw(channel.monoid.combine_all(stored, [update]))
        assert type(new) is type(channel.monoid.combine_all(stored, [update]))

    check()


def test_one_plain_update_onto_none_raises_as_the_reducer_does() -> None:
    channel = BinaryOperatorAggregate(int, operator.add, key="k")
    with pytest.raises(TypeError, match="unsupported operand"):
        channel.fold(None, [1])
    assert append_monoid.plain_reducer is None
