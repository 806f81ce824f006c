"""langgraph-supervisor's create_supervisor with two create_agent workers.

Source: https://github.com/langchain-ai/langgraph-supervisor-py (README: research and
math experts) and https://docs.langchain.com/oss/python/langchain/multi-agent. The
supervisor's fake model hands the task to the researcher, then to the math expert,
then answers; each worker runs its own tool. Hand-offs are tool calls answered by
Command(goto=..., graph=Command.PARENT); the workers' messages come back with the
full history or only the last message, per output_mode.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_supervisor import create_supervisor

seen = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    label: str
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        seen.append((self.label, [(m.type, getattr(m, "name", None)) for m in messages]))
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


@tool
def web_search(query: str) -> str:
    """Search the web for information."""
    return "FAANG headcount 2024: Meta 67,317; Apple 164,000; Amazon 1,551,000."


@tool
def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def build(output_mode):
    research_model = FakeToolCallingModel(
        label="research",
        responses=[
            AIMessage(
                "", id="r-1", tool_calls=[call("web_search", {"query": "FAANG headcount"}, "w1")]
            ),
            AIMessage("Meta 67,317 and Apple 164,000.", id="r-2"),
        ],
    )
    math_model = FakeToolCallingModel(
        label="math",
        responses=[
            AIMessage("", id="m-1", tool_calls=[call("add", {"a": 67317, "b": 164000}, "a1")]),
            AIMessage("The total is 231,317.", id="m-2"),
        ],
    )
    supervisor_model = FakeToolCallingModel(
        label="supervisor",
        responses=[
            AIMessage("", id="s-1", tool_calls=[call("transfer_to_research_expert", {}, "t1")]),
            AIMessage("", id="s-2", tool_calls=[call("transfer_to_math_expert", {}, "t2")]),
            AIMessage("Combined headcount: 231,317.", id="s-3"),
        ],
    )
    research_agent = create_agent(
        research_model,
        tools=[web_search],
        name="research_expert",
        system_prompt="You are a world class researcher.",
    )
    math_agent = create_agent(
        math_model, tools=[add], name="math_expert", system_prompt="You are a math expert."
    )
    workflow = create_supervisor(
        [research_agent, math_agent],
        model=supervisor_model,
        prompt="You are a team supervisor managing a research expert and a math expert.",
        output_mode=output_mode,
    )
    return workflow.compile(checkpointer=InMemorySaver())


def main():
    out = {}
    for mode in ("last_message", "full_history"):
        seen.clear()
        app = build(mode)
        config = {"configurable": {"thread_id": mode}}
        result = app.invoke(
            {
                "messages": [
                    HumanMessage("what's the combined headcount of Meta and Apple?", id="h1")
                ]
            },
            config,
        )
        out[mode] = {
            "messages": result["messages"],
            "seen": list(seen),
            "nodes": sorted(app.get_graph().nodes),
            "history_next": [s.next for s in app.get_state_history(config)],
        }
    app = build("last_message")
    out["updates_with_subgraphs"] = [
        (list(ns), list(chunk))
        for ns, chunk in app.stream(
            {"messages": [HumanMessage("again", id="h2")]},
            {"configurable": {"thread_id": "s"}},
            stream_mode="updates",
            subgraphs=True,
        )
    ]
    return out
