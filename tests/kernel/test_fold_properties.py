"""Laws of `plan` and `apply`: purity, a fixed write order, versions and who is woken."""

from __future__ import annotations

import copy
import operator
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap, pvector

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.channels import (
    AnyValue,
    BinaryOperatorAggregate,
    EphemeralValue,
    LastValue,
    LastValueAfterFinish,
    NamedBarrierValue,
    Topic,
)
from foldgraph._kernel.fold import (
    apply,
    apply_without_step,
    plan,
    read_fresh,
    read_state,
    task_id,
)
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.names import PULL, PUSH
from foldgraph._kernel.snapshot import GraphSpec, NodeSpec, Snapshot, Task
from foldgraph.constants import TASKS
from foldgraph.errors import InvalidUpdateError
from foldgraph.types import Send

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's kernel plan/apply fold; LangGraph has no kernel"
)

Writes = list[tuple[str, Any]]


def merge_in_place(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    """A reducer that mutates its first argument, as many hand-written reducers do."""
    left.update(right)
    return left


GRAPH = GraphSpec.build(
    {
        name: channel.named(name)
        for name, channel in {
            "last": LastValue(int),
            "log": BinaryOperatorAggregate(list, operator.add),
            "total": BinaryOperatorAggregate(int, operator.add),
            "merged": BinaryOperatorAggregate(dict, merge_in_place),
            "topic": Topic(int),
            "eph": EphemeralValue(int),
            "any": AnyValue(int),
            "join": NamedBarrierValue(str, names=frozenset({"a", "b"})),
            "late": LastValueAfterFinish(int),
            TASKS: Topic(Send),
        }.items()
    },
    {
        node.name: node
        for node in [
            NodeSpec(name="a", triggers=("last",), reads=("last", "log")),
            NodeSpec(name="b", triggers=("last", "topic"), reads=("topic", "total")),
            NodeSpec(name="c", triggers=("join",), reads=("log", "merged")),
            NodeSpec(name="d", triggers=("eph", "any"), reads=("eph", "any")),
            NodeSpec(name="e", triggers=("late",), reads=("late",)),
            NodeSpec(name="f", triggers=("total", "merged"), reads=("total",)),
        ]
    },
)
NODES = sorted(GRAPH.nodes)
GUARDED = frozenset({"last", "eph"})
"""Channels that refuse a second write in the same step."""

VALUES: dict[str, st.SearchStrategy[Any]] = {
    "last": st.integers(-3, 3),
    "log": st.lists(st.integers(0, 9), max_size=3),
    "total": st.integers(-5, 5),
    "merged": st.dictionaries(st.sampled_from("xyz"), st.integers(0, 3), max_size=2),
    "topic": st.one_of(st.integers(0, 9), st.lists(st.integers(0, 9), max_size=2)),
    "eph": st.integers(0, 9),
    "any": st.integers(0, 9),
    "join": st.sampled_from(["a", "b"]),
    "late": st.integers(0, 9),
    TASKS: st.builds(Send, st.sampled_from(NODES), st.integers(0, 9)),
}
WRITE = st.sampled_from(sorted(VALUES)).flatmap(lambda c: st.tuples(st.just(c), VALUES[c]))
WRITES = st.lists(WRITE, max_size=4)


def pull(name: str, step: int = 0, triggers: tuple[str, ...] | None = None) -> Task:
    path = (PULL, name)
    return Task(
        id=task_id("", step, path),
        name=name,
        path=path,
        triggers=GRAPH.nodes[name].triggers if triggers is None else triggers,
        input=None,
    )


def push(index: int, name: str, step: int = 0) -> Task:
    path = (PUSH, index)
    return Task(id=task_id("", step, path), name=name, path=path, triggers=(PUSH,), input=None)


def tame(batches: Sequence[Writes]) -> list[Writes]:
    """Drop every write to a guarded channel after its first one in the step, so none raises."""
    written: set[str] = set()
    out: list[Writes] = []
    for writes in batches:
        kept: Writes = []
        for chan, value in writes:
            if chan in GUARDED:
                if chan in written:
                    continue
                written.add(chan)
            kept.append((chan, value))
        out.append(kept)
    return out


def outcome(thunk: Callable[[], Snapshot]) -> tuple[str, Any]:
    try:
        return "ok", thunk()
    except InvalidUpdateError as exc:
        return "error", str(exc)


@st.composite
def snapshots(draw: st.DrawFn, max_steps: int = 4) -> Snapshot:
    """A snapshot reached by an input and a few supersteps of the planned tasks."""
    snapshot = apply_without_step(GRAPH, Snapshot(), tame([draw(WRITES, "input")])[0])
    for _ in range(draw(st.integers(0, max_steps), "steps")):
        tasks = plan(GRAPH, snapshot)
        if not tasks:
            break
        batches = tame([draw(WRITES, f"writes of {t.name}") for t in tasks])
        snapshot = apply(GRAPH, snapshot, list(zip(tasks, batches, strict=True)))
    return snapshot


def tasks_for(snapshot: Snapshot, draw: st.DrawFn) -> tuple[Task, ...]:
    """The planned tasks, or some pull tasks when nothing is planned."""
    planned = plan(GRAPH, snapshot)
    if planned:
        return planned
    names = draw(st.lists(st.sampled_from(NODES), unique=True, min_size=1, max_size=3), "nodes")
    return tuple(pull(name, snapshot.step + 1) for name in sorted(names))


def expected_plan(snapshot: Snapshot) -> list[tuple[str, tuple[Any, ...], tuple[str, ...]]]:
    """`plan` by brute force: every node whose available triggers it has not yet seen."""
    out: list[tuple[str, tuple[Any, ...], tuple[str, ...]]] = []
    for index, send in enumerate(snapshot.values.get(TASKS, ())):
        out.append((send.node, (PUSH, index, False), (PUSH,)))
    for name in NODES:
        seen = snapshot.seen.get(name, pmap())
        woken = tuple(
            chan
            for chan in GRAPH.nodes[name].triggers
            if snapshot.versions.get(chan, 0) > seen.get(chan, 0)
            and GRAPH.channels[chan].available(snapshot.values.get(chan, MISSING))
        )
        if woken:
            # the task carries every trigger that has a version: all are marked seen
            triggers = tuple(c for c in GRAPH.nodes[name].triggers if c in snapshot.versions)
            out.append((name, (PULL, name), triggers))
    return out


# -- apply is pure -------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(snapshot=snapshots(), data=st.data())
def test_apply_never_mutates_its_input_snapshot(snapshot: Snapshot, data: st.DataObject) -> None:
    tasks = tasks_for(snapshot, data.draw)
    batches = [data.draw(WRITES, f"writes of {t.name}") for t in tasks]  # may well raise
    deep = copy.deepcopy(snapshot)
    fields = (snapshot.values, snapshot.versions, snapshot.seen, snapshot.step, snapshot.updated)
    plain = {chan: thaw(value) for chan, value in snapshot.values.items()}

    result = outcome(lambda: apply(GRAPH, snapshot, list(zip(tasks, batches, strict=True))))

    assert snapshot == deep
    assert (snapshot.values, snapshot.versions, snapshot.seen) == fields[:3]
    assert (snapshot.step, snapshot.updated) == fields[3:]
    assert {chan: thaw(value) for chan, value in snapshot.values.items()} == plain
    if result[0] == "ok":
        assert result[1].step == snapshot.step + 1


def test_two_writes_to_a_last_value_raise_and_leave_the_input_unchanged() -> None:
    before = apply_without_step(GRAPH, Snapshot(), [("last", 1), ("log", [1])])
    deep = copy.deepcopy(before)
    with pytest.raises(InvalidUpdateError) as info:
        apply(
            GRAPH,
            before,
            [(pull("a"), [("log", [2]), ("last", 2)]), (pull("b"), [("last", 3)])],
        )
    assert str(info.value).startswith(
        "At key 'last': Can receive only one value per step. "
        "Use an Annotated key to handle multiple values.\n"
    )
    assert before == deep
    assert dict(before.values) == dict({"last": 1, "log": pvector([1])})
    assert dict(before.versions) == dict({"last": 1, "log": 1})
    assert before.step == -1
    assert before.updated == frozenset({"last", "log"})


def test_a_reducer_that_mutates_its_argument_cannot_reach_an_earlier_snapshot() -> None:
    first = apply_without_step(GRAPH, Snapshot(), [("merged", {"x": 1})])
    second = apply(GRAPH, first, [(pull("f"), [("merged", {"y": 2}), ("merged", {"x": 3})])])
    assert thaw(first.values["merged"]) == {"x": 1}
    assert thaw(second.values["merged"]) == {"x": 3, "y": 2}


# -- write order ---------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    snapshot=snapshots(max_steps=2),
    pulls=st.sets(st.sampled_from(NODES), max_size=4),
    pushes=st.sets(st.integers(0, 30), max_size=4),
    data=st.data(),
)
def test_apply_is_independent_of_completion_order(
    snapshot: Snapshot, pulls: set[str], pushes: set[int], data: st.DataObject
) -> None:
    step = snapshot.step + 1
    tasks = [pull(name, step) for name in pulls] + [
        push(index, data.draw(st.sampled_from(NODES), "send target"), step) for index in pushes
    ]
    pairs = [
        (task, [("log", [f"{task.path[0]}:{task.path[1]}"]), *data.draw(WRITES, "extra")])
        for task in tasks
    ]
    shuffled = data.draw(st.permutations(pairs), "completion order")

    in_order = outcome(lambda: apply(GRAPH, snapshot, pairs))
    out_of_order = outcome(lambda: apply(GRAPH, snapshot, shuffled))

    assert in_order == out_of_order
    if in_order[0] == "ok" and tasks:
        log = thaw(in_order[1].values["log"])
        markers = [item for item in log if isinstance(item, str)]
        assert markers == [f"{PULL}:{name}" for name in sorted(pulls)] + [
            f"{PUSH}:{index}" for index in sorted(pushes)
        ]


def test_writes_land_in_task_path_order_pulls_by_name_then_pushes_by_index() -> None:
    pairs: list[tuple[Task, Writes]] = [
        (push(10, "c"), [("log", ["push 10"]), ("any", 10)]),
        (pull("b"), [("log", ["b"]), ("any", 2)]),
        (push(2, "a"), [("log", ["push 2"]), ("any", 20)]),
        (pull("a"), [("log", ["a"]), ("any", 1)]),
    ]
    result = apply(GRAPH, Snapshot(), pairs)
    assert thaw(result.values["log"]) == ["a", "b", "push 2", "push 10"]
    assert result.values["any"] == 10
    assert apply(GRAPH, Snapshot(), pairs[::-1]) == result


# -- versions ------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(snapshot=snapshots(), data=st.data())
def test_changed_channels_share_one_new_version_and_the_rest_keep_theirs(
    snapshot: Snapshot, data: st.DataObject
) -> None:
    tasks = tasks_for(snapshot, data.draw)
    batches = tame([data.draw(WRITES, f"writes of {t.name}") for t in tasks])
    new = apply(GRAPH, snapshot, list(zip(tasks, batches, strict=True)))

    bumped = {c for c in GRAPH.channels if new.versions.get(c) != snapshot.versions.get(c)}
    for chan in bumped:
        assert new.versions[chan] == snapshot.max_version + 1
    for chan in set(GRAPH.channels) - bumped:
        assert new.values.get(chan, MISSING) is snapshot.values.get(chan, MISSING)
        assert new.versions.get(chan) == snapshot.versions.get(chan)
    for chan in GRAPH.channels:
        if new.values.get(chan, MISSING) != snapshot.values.get(chan, MISSING):
            assert chan in bumped
    always_change = {"last", "log", "total", "merged", "eph", "any", "late"}
    written = {chan for writes in batches for chan, _ in writes}
    assert written & always_change <= bumped
    assert new.max_version in (snapshot.max_version, snapshot.max_version + 1)
    assert new.step == snapshot.step + 1
    assert new.updated <= bumped
    for chan in new.updated:
        assert GRAPH.channels[chan].available(new.values.get(chan, MISSING))
    assert new.changed == bumped
    assert new.max_version == max(new.versions.values(), default=0)
    for chan in {"eph", "any", "topic", TASKS} - written:
        assert chan not in new.values  # a step that does not write them clears them


@settings(max_examples=60, deadline=None, derandomize=True, phases=[Phase.generate])
@given(snapshot=snapshots(), data=st.data())
def test_versions_only_grow_when_updates_come_between_steps(
    snapshot: Snapshot, data: st.DataObject
) -> None:
    for _ in range(3):
        before = snapshot.max_version
        snapshot = apply_without_step(GRAPH, snapshot, tame([data.draw(WRITES, "update")])[0])
        assert snapshot.max_version == max(snapshot.versions.values(), default=0)
        for chan in snapshot.changed:
            assert snapshot.versions[chan] <= snapshot.max_version
        assert snapshot.max_version >= before


def test_versions_of_one_step_example() -> None:
    start = apply_without_step(GRAPH, Snapshot(), [("last", 1), ("total", 5)])
    assert dict(start.versions) == dict({"last": 1, "total": 1})
    first = apply(GRAPH, start, [(pull("a"), [("total", 1)])])
    assert dict(first.versions) == dict({"last": 1, "total": 2})
    assert first.values["total"] == 6

    new = apply(GRAPH, first, [(pull("f"), [("log", [1]), ("any", 3)])])
    assert dict(new.versions) == dict({"last": 1, "total": 2, "log": 3, "any": 3})
    assert new.seen == pmap({"a": pmap({"last": 1}), "f": pmap({"total": 2})})
    assert new.step == 1
    # "last" stays among the fresh triggers: b, woken by it, has not run in this example
    assert new.updated == frozenset({"log", "any", "last"})
    assert new.changed == frozenset({"log", "any"})
    assert new.max_version == 3

    quiet = apply(GRAPH, new, [(pull("d"), [])])
    assert dict(quiet.versions) == dict({"last": 1, "total": 2, "log": 3, "any": 4})
    assert "any" not in quiet.values
    assert quiet.updated == frozenset({"last"})
    assert quiet.changed == frozenset({"any"})

    idle = apply(GRAPH, quiet, [(pull("d"), [])])
    assert idle.versions == quiet.versions
    assert idle.values == quiet.values
    assert idle.changed == frozenset()
    assert idle.max_version == 4


def test_updates_between_steps_always_take_a_fresh_version() -> None:
    stepped = apply(GRAPH, Snapshot(), [(pull("a"), [("last", 1)])])
    updated = apply_without_step(GRAPH, stepped, [("last", 5)])
    assert updated.versions["last"] == 2
    assert updated.max_version == 2
    after = apply(GRAPH, updated, [(pull("a"), [("log", [1])])])
    assert after.versions["log"] == 3


def test_a_node_is_woken_by_its_own_write_after_an_update_between_steps() -> None:
    stepped = apply(GRAPH, Snapshot(), [(pull("a"), [("last", 1)])])
    updated = apply_without_step(GRAPH, stepped, [("last", 5)])
    tasks = plan(GRAPH, updated)
    assert [t.name for t in tasks] == ["a", "b"]
    after = apply(GRAPH, updated, [(tasks[0], [("last", 6)]), (tasks[1], [])])
    assert after.values["last"] == 6
    assert [t.name for t in plan(GRAPH, after)] == ["a", "b"]


def test_a_step_without_tasks_does_not_make_ephemeral_values_permanent() -> None:
    written = apply(GRAPH, Snapshot(), [(pull("a"), [("eph", 7), ("any", 1)])])
    empty = apply(GRAPH, written, [])
    later = apply(GRAPH, empty, [(pull("d"), [])])
    assert "eph" not in later.values
    assert "any" not in later.values


# -- plan ----------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_plan_wakes_exactly_the_nodes_with_unseen_trigger_versions(data: st.DataObject) -> None:
    snapshot = apply_without_step(GRAPH, Snapshot(), tame([data.draw(WRITES, "input")])[0])
    for _ in range(6):
        tasks = plan(GRAPH, snapshot)
        assert [(t.name, t.path, t.triggers) for t in tasks] == expected_plan(snapshot)
        for t in tasks:
            node = GRAPH.nodes.get(t.name)
            if not t.is_push and node is not None:
                assert t.input == read_state(GRAPH, snapshot, node.reads)
            assert t.id == task_id(snapshot.id, snapshot.step + 1, t.path)
        if not tasks:
            break

        batches = tame([data.draw(WRITES, f"writes of {t.name}") for t in tasks])
        new = apply(GRAPH, snapshot, list(zip(tasks, batches, strict=True)))

        ran = {t.name: t.triggers for t in tasks if not t.is_push}
        for name, triggers in ran.items():
            for chan in triggers:
                assert new.seen[name][chan] == snapshot.versions[chan]
        for t in plan(GRAPH, new):
            if t.is_push or t.name not in ran:
                continue
            # a node that ran is woken again only by news: some trigger got a new version
            assert any(
                new.versions.get(chan, 0) > snapshot.versions.get(chan, 0)
                and GRAPH.channels[chan].available(new.values.get(chan, MISSING))
                for chan in t.triggers
            )
        snapshot = new


def test_plan_example_with_a_join_and_a_send() -> None:
    start = apply_without_step(GRAPH, Snapshot(), [("last", 1)])
    tasks = plan(GRAPH, start)
    assert [(t.name, t.triggers) for t in tasks] == [("a", ("last",)), ("b", ("last",))]
    assert tasks[0].input == {"last": 1}

    step0 = apply(
        GRAPH,
        start,
        [(tasks[0], [("join", "a"), (TASKS, Send("e", 1))]), (tasks[1], [("join", "b")])],
    )
    assert step0.updated == frozenset({"join", TASKS})
    tasks = plan(GRAPH, step0)
    assert [(t.name, t.path, t.triggers) for t in tasks] == [
        ("e", (PUSH, 0, False), (PUSH,)),
        ("c", (PULL, "c"), ("join",)),
    ]
    assert tasks[0].input == 1

    step1 = apply(GRAPH, step0, [(tasks[0], []), (tasks[1], [])])
    assert "join" not in step1.values  # consumed by c
    assert TASKS not in step1.values  # a Topic clears on a step without writes
    assert plan(GRAPH, step1) == ()


def test_a_deferred_value_wakes_its_node_only_when_nothing_else_is_left() -> None:
    start = apply_without_step(GRAPH, Snapshot(), [("last", 1)])
    # a and b are both woken by "last"; only a runs here, so b's trigger stays pending
    busy = apply(GRAPH, start, [(pull("a"), [("late", 7), ("total", 1)])])
    assert not GRAPH.channels["late"].available(busy.values["late"])
    assert [t.name for t in plan(GRAPH, busy)] == ["b", "f"]

    done = apply(GRAPH, busy, [(pull("b"), []), (pull("f"), [])])
    assert GRAPH.channels["late"].available(done.values["late"])
    assert done.updated == frozenset({"late"})
    tasks = plan(GRAPH, done)
    assert [(t.name, t.triggers) for t in tasks] == [("e", ("late",))]
    assert tasks[0].input == {"late": 7}


# -- read_fresh / apply_without_step -------------------------------------------------------


def test_read_fresh_sees_the_task_own_writes_and_nothing_else_changes() -> None:
    snapshot = apply_without_step(GRAPH, Snapshot(), [("log", [1]), ("total", 2)])
    deep = copy.deepcopy(snapshot)
    writes = [("log", [2]), ("last", 5), ("total", 3), ("not-a-channel", 0)]
    fresh = read_fresh(GRAPH, snapshot, writes, ["log", "last", "total", "any"])
    assert fresh == {"log": [1, 2], "last": 5, "total": 5}
    assert read_state(GRAPH, snapshot, ["log", "last", "total"]) == {"log": [1], "total": 2}
    assert read_fresh(GRAPH, snapshot, [], ["log", "last"]) == {"log": [1]}
    assert snapshot == deep


def test_apply_without_step_keeps_the_step_and_does_not_clear_ephemeral_values() -> None:
    seeded = apply_without_step(GRAPH, Snapshot(), [("eph", 1)])
    stepped = apply(GRAPH, seeded, [(pull("d", 0), [("last", 1)])])
    assert stepped.step == 0
    assert "eph" not in stepped.values

    at_step = apply(GRAPH, seeded, [(pull("d", 0), [("eph", 2)])])
    updated = apply_without_step(GRAPH, at_step, [("total", 4), ("log", [1])])
    assert updated.step == at_step.step == 0
    assert updated.values["eph"] == 2
    assert updated.values["total"] == 4
    assert dict(updated.versions) == dict({"eph": 2, "total": 3, "log": 3})
    assert updated.updated == at_step.updated | {"total", "log"}
    assert updated.seen == at_step.seen


def test_task_id_is_deterministic_and_uuid_shaped() -> None:
    first = task_id("snap", 3, (PULL, "a"))
    assert first == task_id("snap", 3, (PULL, "a"))
    assert first != task_id("snap", 4, (PULL, "a"))
    assert first != task_id("snap", 3, (PULL, "b"))
    assert [len(part) for part in first.split("-")] == [8, 4, 4, 4, 12]


def test_task_id_is_the_blake2b_of_snapshot_step_and_path() -> None:
    # Savers store task ids durably: the text must not change from one version to the next.
    import hashlib

    def by_definition(snapshot_id: str, step: int, path: tuple[Any, ...]) -> str:
        h = hashlib.blake2b(f"{snapshot_id}|{step}|{path!r}".encode(), digest_size=16).hexdigest()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    paths = [(PULL, "a"), (PULL, "tools"), (PUSH, 0), (PUSH, (PULL, "x"), 3, True), (PUSH, "id", 2)]
    for path in paths * 2:  # twice: a node's path text is remembered after its first id
        for snapshot_id, step in (("", 0), ("1f1e9b9b-7067-60b9-9734-c0d5020a0a32", 12)):
            assert task_id(snapshot_id, step, path) == by_definition(snapshot_id, step, path)
    assert task_id("1f1e9b9b-7067-60b9-9734-c0d5020a0a32", 5, (PULL, "agent")) == (
        "b87820bb-a46f-625c-3477-16ec17b5cda1"
    )
    assert task_id("", 0, (PUSH, 2)) == "ef87114c-93a7-9c44-5b99-0e068ac1f6fc"
    assert task_id("cp", 7, (PUSH, (PULL, "tools"), 1, True)) == (
        "91e9f13e-539a-d497-447a-b50de13ea084"
    )


def test_plan_without_inputs_gives_the_same_tasks_and_reads_nothing() -> None:
    """What the state API lists of a checkpoint's next tasks needs no node input."""
    import operator as _op

    from foldgraph._kernel.channels import BinaryOperatorAggregate as _Agg
    from foldgraph._kernel.fold import apply as _apply
    from foldgraph._kernel.fold import plan as _plan
    from foldgraph._kernel.snapshot import GraphSpec as _Spec
    from foldgraph._kernel.snapshot import NodeSpec as _Node
    from foldgraph._kernel.snapshot import Snapshot as _Snap
    from foldgraph._kernel.snapshot import Task as _Task

    spec = _Spec.build(
        channels={"xs": _Agg(list, _op.add).named("xs")},
        nodes={"a": _Node(name="a", triggers=("xs",), reads=("xs",))},
    )
    seed = _Task(name="in", path=("in",), triggers=(), input=None)
    seeded = _apply(spec, _Snap(), [(seed, [("xs", [1, 2])])])
    full = _plan(spec, seeded)
    bare = _plan(spec, seeded, with_input=False)
    assert [(t.name, t.path, t.triggers, t.id) for t in bare] == [
        (t.name, t.path, t.triggers, t.id) for t in full
    ]
    assert full[0].input == {"xs": [1, 2]}
    assert bare[0].input is None


def test_apply_reuses_an_update_computed_for_the_same_value_and_batch_only() -> None:
    """`fresh_snapshot`'s channel updates stand in for apply's own only when they match."""
    import operator as _op

    from foldgraph._kernel.channels import BinaryOperatorAggregate as _Agg
    from foldgraph._kernel.fold import apply as _apply
    from foldgraph._kernel.fold import fresh_snapshot as _fresh
    from foldgraph._kernel.snapshot import GraphSpec as _Spec
    from foldgraph._kernel.snapshot import NodeSpec as _Node
    from foldgraph._kernel.snapshot import Snapshot as _Snap
    from foldgraph._kernel.snapshot import Task as _Task

    spec = _Spec.build(
        channels={"xs": _Agg(list, _op.add).named("xs")},
        nodes={"a": _Node(name="a", triggers=("xs",), reads=("xs",))},
    )
    seed = _Task(name="in", path=("in",), triggers=(), input=None)
    base = _apply(spec, _Snap(), [(seed, [("xs", [1])])])
    a = _Task(name="a", path=("__pregel_pull", "a"), triggers=("xs",), input=None)
    b = _Task(name="b", path=("__pregel_pull", "b"), triggers=(), input=None)
    writes = [("xs", [2])]
    folded: dict = {}
    local = _fresh(spec, base, writes, folded)
    plain = _apply(spec, base, [(a, writes)])
    reused = _apply(spec, base, [(a, writes)], folded=folded)
    assert reused.values == plain.values and reused.versions == plain.versions
    assert reused.values["xs"] is local.values["xs"]  # the very value the edges read
    # Another task wrote the channel too: the recorded update is not the step's.
    both = _apply(spec, base, [(a, writes), (b, [("xs", [3])])], folded=folded)
    assert list(both.values["xs"]) == [1, 2, 3]


def test_a_task_s_fresh_view_changes_only_the_values_of_its_snapshot() -> None:
    """What a router reads is the snapshot with the task's writes folded in, every other
    field (id, versions, seals, ...) as it was."""
    import operator as _op

    import attrs as _attrs
    import immutables

    from foldgraph._kernel.channels import BinaryOperatorAggregate as _Agg
    from foldgraph._kernel.fold import fresh_snapshot as _fresh
    from foldgraph._kernel.snapshot import GraphSpec as _Spec
    from foldgraph._kernel.snapshot import NodeSpec as _Node
    from foldgraph._kernel.snapshot import Snapshot as _Snap

    spec = _Spec.build(
        channels={"xs": _Agg(list, _op.add).named("xs")},
        nodes={"a": _Node(name="a", triggers=("xs",), reads=("xs",))},
    )
    base = _Snap(
        values=immutables.Map({"xs": spec.channels["xs"].from_value([1])}),
        versions=immutables.Map({"xs": 3}),
        seen=immutables.Map({"a": immutables.Map({"xs": 2})}),
        step=7,
        updated=frozenset({"xs"}),
        id="cp-7",
        parent_id="cp-6",
        metadata={"source": "loop", "step": 7},
        created_at="2026-01-01T00:00:00+00:00",
        changed=frozenset({"xs"}),
        top_version=3,
        seals=immutables.Map({"xs": 5}),
    )
    local = _fresh(spec, base, [("xs", [2])])
    assert list(local.values["xs"]) == [1, 2]
    assert local == _attrs.evolve(base, values=local.values)
