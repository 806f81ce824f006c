"""The low-level Pregel API: NodeBuilder, channels, and what a misconfigured graph does.

Source: https://langchain-ai.github.io/langgraph/concepts/pregel/ (single node,
multiple nodes, Topic, BinaryOperatorAggregate, cycle) and issue reports about
writes to channels a graph does not have and concurrent writes to a LastValue.
Warnings logged while running are recorded (their message text only).
"""

import logging
import operator

from langgraph.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, Topic
from langgraph.pregel import NodeBuilder, Pregel
from langgraph.pregel._write import ChannelWriteEntry


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def attempt(fn):
    try:
        return {"ok": fn()}
    except Exception as exc:
        return {"error": type(exc).__name__, "message": str(exc)}


def main():
    logs = Collect()
    logging.getLogger().addHandler(logs)
    try:
        return run(logs)
    finally:
        logging.getLogger().removeHandler(logs)


def run(logs):
    out = {}
    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    node2 = NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c")
    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={"a": EphemeralValue(str), "b": EphemeralValue(str), "c": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b", "c"],
    )
    out["chain"] = {
        "invoke": app.invoke({"a": "foo"}),
        "values": list(app.stream({"a": "foo"})),
        "updates": list(app.stream({"a": "foo"}, stream_mode="updates")),
    }

    n1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b", "c")
    n2 = NodeBuilder().subscribe_to("b").do(lambda x: x["b"] + x["b"]).write_to("c")
    topic = Pregel(
        nodes={"node1": n1, "node2": n2},
        channels={
            "a": EphemeralValue(str),
            "b": EphemeralValue(str),
            "c": Topic(str, accumulate=True),
        },
        input_channels=["a"],
        output_channels=["c"],
    )
    out["topic"] = topic.invoke({"a": "foo"})

    n1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b", "c")
    n2 = NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c")
    reducer = Pregel(
        nodes={"node1": n1, "node2": n2},
        channels={
            "a": EphemeralValue(str),
            "b": EphemeralValue(str),
            "c": BinaryOperatorAggregate(str, operator.add),
        },
        input_channels=["a"],
        output_channels=["c"],
    )
    out["reducer"] = reducer.invoke({"a": "foo"})

    loop = (
        NodeBuilder()
        .subscribe_only("value")
        .do(lambda x: x + x if len(x) < 10 else None)
        .write_to(ChannelWriteEntry("value", skip_none=True))
    )
    cycle = Pregel(
        nodes={"example_node": loop},
        channels={"value": EphemeralValue(str)},
        input_channels=["value"],
        output_channels=["value"],
    )
    out["cycle"] = cycle.invoke({"value": "a"})

    stray = Pregel(
        nodes={"n": NodeBuilder().subscribe_only("a").do(lambda x: x.upper()).write_to("zz")},
        channels={"a": LastValue(str)},
        input_channels=["a"],
        output_channels=["a"],
    )
    out["unknown_channel"] = attempt(lambda: stray.invoke({"a": "x"}))
    out["unknown_channel_logs"] = list(logs.messages)

    both = Pregel(
        nodes={
            "n": NodeBuilder().subscribe_only("a").do(lambda x: x).write_to("b"),
            "m": NodeBuilder().subscribe_only("a").do(lambda x: x).write_to("b"),
        },
        channels={"a": LastValue(str), "b": LastValue(str)},
        input_channels=["a"],
        output_channels=["b"],
    )
    out["concurrent_last_value"] = attempt(lambda: both.invoke({"a": "x"}))
    out["channel_keys"] = {
        name: chan.key for name, chan in both.channels.items() if not name.startswith("__")
    }
    out["subscribe_unknown"] = attempt(
        lambda: Pregel(
            nodes={"n": NodeBuilder().subscribe_only("nope").do(lambda x: x).write_to("a")},
            channels={"a": LastValue(str)},
            input_channels=["a"],
            output_channels=["a"],
        )
    )
    return out
