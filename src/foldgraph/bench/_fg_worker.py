"""The foldgraph side of a measurement: `python -m foldgraph.bench._fg_worker`, job on stdin.

Channels are foldgraph's public channel classes driven through their pure methods,
as the runner drives them: `fold(stored, updates) -> (new stored, changed)` on a
persistent stored value, so timing the same step on the same base again and again
measures one update onto exactly `history` items, and keeping every version costs
only what each step changed.
"""

from __future__ import annotations

from typing import Any

from foldgraph.bench._job import Reducer, Target, main
from foldgraph.channels import BinaryOperatorAggregate, LastValue, Topic


def make_target(reducer: Reducer, value: Any) -> Target:
    if reducer.kind == "topic":
        topic = Topic(str, accumulate=True)
        base = topic.fold(topic.initial(), [list(value)])[0]
        return Target(base=base, step=lambda s, u: topic.fold(s, u)[0], read=topic.read)
    if reducer.kind == "last_value":
        last = LastValue(reducer.typ)
        return Target(
            base=last.from_value(value), step=lambda s, u: last.fold(s, u)[0], read=last.read
        )
    channel = BinaryOperatorAggregate(reducer.typ, reducer.function)
    fold = channel.fold
    return Target(
        base=channel.from_value(value), step=lambda s, u: fold(s, u)[0], read=channel.read
    )


if __name__ == "__main__":
    main("foldgraph", make_target)
