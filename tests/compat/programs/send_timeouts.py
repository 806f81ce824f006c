"""`Send(node, arg, timeout=...)`: one pushed task's own time limit, in place of the
target node's `add_node(..., timeout=...)`.

Source: LangGraph 1.2's node timeouts (https://docs.langchain.com/oss/python/langgraph/
graph-api "Node timeouts" and the `Send` reference): a number is a run timeout, a
timedelta too, a `TimeoutPolicy` may give an idle timeout; a limit of 0 is refused.
A map-reduce fan-out where one branch gets a tighter limit than the others.
"""

import asyncio
import operator
from datetime import timedelta
from typing import Annotated

from langgraph.errors import NodeTimeoutError
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send, TimeoutPolicy
from typing_extensions import TypedDict


class State(TypedDict):
    jobs: list
    done: Annotated[list, operator.add]


class Job(TypedDict):
    name: str
    seconds: float


async def work(job: Job):
    await asyncio.sleep(job["seconds"])
    return {"done": [job["name"]]}


def build(limits, retry=None):
    def fan_out(state):
        return [Send("work", job, timeout=limits.get(job["name"])) for job in state["jobs"]]

    graph = StateGraph(State)
    graph.add_node("work", work, timeout=TimeoutPolicy(run_timeout=2.0), retry_policy=retry)
    graph.add_conditional_edges(START, fan_out, ["work"])
    graph.add_edge("work", END)
    return graph.compile()


async def main():
    sends = [
        repr(Send("work", {"name": "a"}, timeout=3)),
        repr(Send("work", None, timeout=timedelta(milliseconds=250)).timeout),
        repr(Send("work", None, timeout=TimeoutPolicy(idle_timeout=0.5)).timeout),
        repr(Send("work", None)),
    ]
    try:
        Send("work", {}, timeout=0)
        refused = None
    except ValueError as exc:
        refused = str(exc)
    jobs = [{"name": "fast", "seconds": 0.01}, {"name": "slow", "seconds": 0.3}]
    relaxed = await build({}).ainvoke({"jobs": jobs, "done": []})
    try:
        await build({"slow": TimeoutPolicy(idle_timeout=0.05)}).ainvoke({"jobs": jobs, "done": []})
        tight = None
    except NodeTimeoutError as exc:
        tight = {"node": exc.node, "kind": exc.kind, "idle": exc.idle_timeout}
    try:
        await build({"slow": 0.05}).ainvoke({"jobs": jobs, "done": []})
        run_limit = None
    except NodeTimeoutError as exc:
        run_limit = {"node": exc.node, "kind": exc.kind, "run": exc.run_timeout}
    return {
        "sends": sends,
        "refused": refused,
        "relaxed": sorted(relaxed["done"]),
        "tight": tight,
        "run_limit": run_limit,
    }
