"""Graphs the server tests serve (through langgraph.json beside this file)."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from typing_extensions import TypedDict

from foldgraph.config import get_stream_writer
from foldgraph.graph import END, START, StateGraph, add_messages
from foldgraph.stream import (
    CustomTransformer,
    StreamChannel,
    StreamTransformer,
    UpdatesTransformer,
)
from foldgraph.types import interrupt


class State(TypedDict, total=False):
    items: Annotated[list, operator.add]
    n: float


def a(state: State) -> dict:
    return {"items": ["a"], "n": state.get("n", 0) + 1}


def b(state: State) -> dict:
    get_stream_writer()({"from": "b"})
    return {"items": ["b"]}


def c(state: State) -> dict:
    return {"items": ["c"]}


def _chain(*nodes) -> StateGraph:
    builder = StateGraph(State)
    previous = START
    for node in nodes:
        builder.add_node(node)
        builder.add_edge(previous, node.__name__)
        previous = node.__name__
    builder.add_edge(previous, END)
    return builder


chain = _chain(a, b, c).compile()


def ask(state: State) -> dict:
    answer = interrupt({"question": "ok?"})
    return {"items": [f"answer:{answer}"]}


human = _chain(a, ask, c).compile()


async def slow(state: State) -> dict:
    await asyncio.sleep(float(state.get("n") or 1))
    return {"items": ["slow"]}


slow_graph = _chain(slow, c).compile()


def boom(state: State) -> dict:
    raise ValueError("boom happened")


failing = _chain(a, boom).compile()

_inner = _chain(b, c).compile()
_outer = StateGraph(State)
_outer.add_node(a)
_outer.add_node("inner", _inner)
_outer.add_edge(START, "a")
_outer.add_edge("a", "inner")
nested = _outer.compile()


def make_graph(config):
    """A factory: the graph is built per run from the run's config."""
    return chain


steps = _chain(a, slow, c).compile()


class ChatState(TypedDict):
    messages: Annotated[list, add_messages]


async def reply(state: ChatState) -> dict:
    model = GenericFakeChatModel(messages=iter([AIMessage("hello there", id="ai-1")]))
    return {"messages": [await model.ainvoke(state["messages"])]}


_chat = StateGraph(ChatState)
_chat.add_node(reply)
_chat.add_edge(START, "reply")
chat = _chat.compile()


class NodeNames(StreamTransformer):
    """A named projection (`run.extensions["nodes"]`): the root nodes as they finish."""

    required_stream_modes = ("updates",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self.channel: StreamChannel[str] = StreamChannel("nodes")

    def init(self) -> dict:
        return {"nodes": self.channel}

    def process(self, event: dict) -> bool:
        if event["method"] == "updates" and not event["params"]["namespace"]:
            for node in event["params"]["data"]:
                self.channel.push(node)
        return True


# Compiled with transformers: its v3 runs also stream updates, custom events and `nodes`.
streamed = _chain(a, b, c).compile(transformers=[UpdatesTransformer, CustomTransformer, NodeNames])
