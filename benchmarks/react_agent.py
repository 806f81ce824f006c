"""Workload 5, issue "prebuilt agent parts": LangGraph's `react_agent` benchmark shape.

`create_react_agent` over a fake chat model that asks for one tool call per
round, n rounds, then answers: 2n + 1 supersteps of model call, one `Send` per
call to `tools`, and back. The model and the tool are langchain-core objects
(the same on both sides), so part of every round is a floor neither library
can lower: `BaseChatModel.invoke` and `BaseTool.invoke`.
"""

import warnings
from typing import Any
from uuid import uuid4

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import StructuredTool

from benchmarks._harness import Lib, Metric, Settings, Workload, check, median_wall_cpu


class RoundsChatModel(FakeMessagesListChatModel):
    """Replies with its scripted messages in turn, starting over after the last."""

    def bind_tools(self, functions: list[Any], **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        reply = self.responses[self.i].model_copy()
        self.i = self.i + 1 if self.i < len(self.responses) - 1 else 0
        return ChatResult(generations=[ChatGeneration(message=reply)])


def build_agent(lib: Lib, rounds: int, checkpointer: Any) -> Any:
    tool = StructuredTool.from_function(
        lambda query: f"result for query: {query}" * 10, name=str(uuid4()), description=""
    )
    replies = [
        AIMessage(
            content="",
            tool_calls=[
                {"id": str(uuid4()), "name": tool.name, "args": {"query": str(uuid4()) * 100}}
            ],
            id=str(uuid4()),
        )
        for _ in range(rounds)
    ]
    model = RoundsChatModel(responses=[*replies, AIMessage(content="answer" * 100, id="final")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return lib.module("prebuilt").create_react_agent(model, [tool], checkpointer=checkpointer)


def run_react_agent(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    out: dict[str, float] = {}
    for key, saver in (("plain", None), ("saver", lib.memory.InMemorySaver())):
        agent = build_agent(lib, n, saver)
        threads = iter(range(10**9))

        def invoke(agent: Any = agent, threads: Any = threads) -> Any:
            config = {"configurable": {"thread_id": str(next(threads))}, "recursion_limit": 10**9}
            return agent.invoke({"messages": [HumanMessage("hi?")]}, config)

        result = invoke()
        messages = result["messages"]
        check(
            len(messages) == 2 * n + 2 and messages[-1].content == "answer" * 100,
            f"react agent of {n} rounds ended with {len(messages)} messages",
        )
        # A median over enough runs that one garbage collection of the old generation
        # (which lands in some runs and not others, on both libraries) moves no result:
        # 3x the suite's repeats for the 10-round size, the suite's own for 100 rounds.
        repeats = settings.repeats * 3 if n <= 10 else settings.repeats
        out[key], out[f"{key}_cpu"] = median_wall_cpu(invoke, repeats, warmup=0)
    return out


REACT_AGENT = Workload(
    name="react_agent",
    title="5. create_react_agent driving n tool-call rounds (LangGraph's react_agent shape)",
    issue="prebuilt agent parts",
    metrics=(
        Metric("plain", "time per invoke, no checkpointer", "ms"),
        Metric("plain_cpu", "CPU time per invoke, no checkpointer", "ms"),
        Metric("saver", "time per invoke, InMemorySaver", "ms"),
        Metric("saver_cpu", "CPU time per invoke, InMemorySaver", "ms"),
    ),
    sizes=(10, 100),
    quick_sizes=(10,),
    run=run_react_agent,
    size_label="rounds",
    note=(
        "Fake chat model (FakeMessagesListChatModel, bind_tools returns itself) asks for "
        "one StructuredTool call per round, then answers; default version v2; the graph "
        "is built once per library and invoked on a fresh thread each time; median of 3x the "
        "repeats at 10 rounds, of the repeats at 100."
    ),
)

WORKLOADS = (REACT_AGENT,)
