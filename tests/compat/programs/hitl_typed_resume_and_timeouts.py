"""Interrupts that declare the answer they expect, and node timeouts in an async graph.

Sources: LangGraph 1.2's interrupt(value, response_schema=...) (a pydantic model or
a JSON schema shown to the client and used to parse the resume value) and
add_node(..., timeout=...) / TimeoutPolicy with NodeTimeoutError, as in the
reference pages for langgraph.types.interrupt and TimeoutPolicy. An async approval
graph asks for a typed answer, a slow lookup node times out, and a sync node with a
timeout is refused at compile time.
"""

import asyncio
import time

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import NodeTimeoutError
from langgraph.graph import START, StateGraph
from langgraph.types import Command, TimeoutPolicy, interrupt
from pydantic import BaseModel
from typing_extensions import TypedDict


class State(TypedDict):
    request: str
    decision: str


class Approval(BaseModel):
    approved: bool
    comment: str = ""


async def approve(state: State):
    answer = interrupt({"request": state["request"]}, response_schema=Approval)
    return {"decision": f"{type(answer).__name__} approved={answer.approved} {answer.comment}"}


async def approve_json(state: State):
    schema = {"type": "object", "properties": {"approved": {"type": "boolean"}}}
    answer = interrupt(state["request"], response_schema=schema)
    return {"decision": f"{type(answer).__name__} {answer}"}


async def slow_lookup(state: State):
    await asyncio.sleep(1)
    return {"decision": "too late"}


def sync_lookup(state: State):
    time.sleep(0.01)
    return {"decision": "sync"}


def single(node, name, **kwargs):
    return (
        StateGraph(State)
        .add_node(name, node, **kwargs)
        .add_edge(START, name)
        .compile(checkpointer=InMemorySaver())
    )


async def ask(node, resume):
    graph = single(node, "approve")
    config = {"configurable": {"thread_id": "t"}}
    paused = await graph.ainvoke({"request": "deploy", "decision": ""}, config)
    pending = [(i.value, i.response_schema) for i in paused["__interrupt__"]]
    try:
        done = await graph.ainvoke(Command(resume=resume), config)
    except Exception as exc:
        done = {"error": type(exc).__name__, "first_line": str(exc).splitlines()[0]}
    return {"pending": pending, "done": done}


async def main():
    out = {
        "model_ok": await ask(approve, {"approved": True, "comment": "ship it"}),
        "model_invalid": await ask(approve, {"approved": "maybe"}),
        "json_schema": await ask(approve_json, {"approved": "maybe"}),
    }
    timed = single(slow_lookup, "lookup", timeout=0.05)
    try:
        await timed.ainvoke({"request": "r", "decision": ""}, {"configurable": {"thread_id": "1"}})
    except NodeTimeoutError as exc:
        # The elapsed time at the end of the message varies from run to run.
        out["timeout"] = {"error": type(exc).__name__, "message": str(exc).split(" (elapsed")[0]}
    policy = single(slow_lookup, "lookup", timeout=TimeoutPolicy(run_timeout=0.05))
    try:
        await policy.ainvoke({"request": "r", "decision": ""}, {"configurable": {"thread_id": "2"}})
    except NodeTimeoutError as exc:
        out["timeout_policy"] = str(exc).split(" (elapsed")[0]
    try:
        single(sync_lookup, "lookup", timeout=0.05)
    except ValueError as exc:
        out["sync_refused"] = str(exc)
    return out
