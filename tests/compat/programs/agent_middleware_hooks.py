"""Agent middleware hooks: before/after agent and model, jumps, extra state, prompts.

Source: https://docs.langchain.com/oss/python/langchain/middleware (custom middleware,
class and decorator forms). A class-based middleware with all four node hooks and a
state schema of its own logs every call; decorator hooks trim the history before the
model, make the prompt from state, and jump to the end when the model says "STOP".
Each hook is a node of the graph; the updates stream shows them by name.
"""

from typing import Any, NotRequired

from langchain.agents import AgentState, create_agent
from langchain.agents.middleware import (
    AgentMiddleware,
    ModelRequest,
    after_model,
    before_model,
    dynamic_prompt,
    hook_config,
)
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver

log = []
prompts = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        prompts.append([(m.type, m.content) for m in messages])
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


class CountingState(AgentState):
    model_calls: NotRequired[int]
    notes: NotRequired[list[str]]


class Logging(AgentMiddleware[CountingState]):
    state_schema = CountingState

    def before_agent(self, state, runtime):
        log.append(("before_agent", len(state["messages"])))
        return {"notes": ["started"]}

    def before_model(self, state, runtime):
        log.append(("before_model", state.get("model_calls", 0)))
        return None

    def after_model(self, state, runtime):
        calls = state.get("model_calls", 0) + 1
        log.append(("after_model", calls, state["messages"][-1].content))
        return {"model_calls": calls}

    def after_agent(self, state, runtime):
        log.append(("after_agent", state.get("model_calls"), state.get("notes")))
        return {"notes": [*state.get("notes", []), "finished"]}


@before_model
def keep_last_four(state, runtime):
    if len(state["messages"]) > 4:
        log.append(("trim", len(state["messages"])))
        return {"messages": state["messages"][-4:]}
    return None


@after_model(can_jump_to=["end"])
def stop_word(state, runtime):
    if state["messages"][-1].content == "STOP":
        log.append(("jump", "end"))
        return {"jump_to": "end"}
    return None


@dynamic_prompt
def prompt_from_state(request: ModelRequest) -> str:
    return f"You have seen {len(request.state['messages'])} messages."


class JumpBack(AgentMiddleware):
    @hook_config(can_jump_to=["model"])
    def after_model(self, state, runtime):
        last = state["messages"][-1]
        if last.content == "RETRY":
            log.append(("jump", "model"))
            return {"jump_to": "model", "messages": [HumanMessage("try again", id="retry")]}
        return None


@tool
def ping(n: int) -> str:
    """Ping."""
    return f"pong {n}"


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage("", id="ai-1", tool_calls=[{"name": "ping", "args": {"n": 1}, "id": "c1"}]),
            AIMessage("RETRY", id="ai-2"),
            AIMessage("All good.", id="ai-3"),
            AIMessage("STOP", id="ai-4"),
        ]
    )
    agent = create_agent(
        model,
        tools=[ping],
        middleware=[Logging(), keep_last_four, prompt_from_state, JumpBack(), stop_word],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}
    updates = list(
        agent.stream(
            {"messages": [HumanMessage("ping once", id="h1")]}, config, stream_mode="updates"
        )
    )
    second = agent.invoke({"messages": [HumanMessage("and stop", id="h2")]}, config)
    graph = agent.get_graph()
    return {
        "updates": updates,
        "second": second,
        "state": agent.get_state(config).values,
        "log": log,
        "prompts": prompts,
        "nodes": sorted(graph.nodes),
        "edges": sorted((e.source, e.target, e.conditional) for e in graph.edges),
    }
