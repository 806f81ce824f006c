"""The react-agent template (langchain-ai/react-agent): a ReAct loop over dataclass state.

Source: https://github.com/langchain-ai/react-agent (src/react_agent/graph.py, state.py,
context.py, tools.py). Dataclass InputState/State with add_messages and the IsLastStep
managed value, a Context dataclass read through Runtime[Context], an async call_model
with a ChatPromptTemplate system prompt, a prebuilt ToolNode, and a router that reads
`state.messages`. The chat model and the search tool are deterministic fakes.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, cast

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langgraph.graph import StateGraph, add_messages
from langgraph.managed import IsLastStep
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

SYSTEM_PROMPT = """You are a helpful AI assistant.

System time: {system_time}"""

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


MODEL = FakeToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[{"name": "search", "args": {"query": "LangGraph"}, "id": "call_1"}],
        ),
        AIMessage("LangGraph builds stateful agents as graphs."),
    ]
)


@dataclass(kw_only=True)
class Context:
    system_prompt: str = SYSTEM_PROMPT
    model: str = "anthropic/claude-3-5-sonnet-20240620"
    max_search_results: int = 10


async def search(query: str) -> dict[str, Any] | None:
    """Search for general web results."""
    return {"query": query, "results": [{"url": "https://example.com", "content": "graphs"}]}


TOOLS = [search]


@dataclass
class InputState:
    messages: Annotated[Sequence[AnyMessage], add_messages] = field(default_factory=list)


@dataclass
class State(InputState):
    is_last_step: IsLastStep = field(default=False)


async def call_model(state: State, runtime: Runtime[Context]) -> dict[str, list[AIMessage]]:
    prompt = ChatPromptTemplate.from_messages(
        [("system", runtime.context.system_prompt), ("placeholder", "{messages}")]
    )
    model = MODEL.bind_tools(TOOLS)
    message_value = await prompt.ainvoke(
        {"messages": state.messages, "system_time": datetime.now(tz=UTC).isoformat()}
    )
    response = cast(AIMessage, await model.ainvoke(message_value))
    if state.is_last_step and response.tool_calls:
        return {
            "messages": [
                AIMessage(
                    id=response.id,
                    content="Sorry, I could not find an answer to your question in the "
                    "specified number of steps.",
                )
            ]
        }
    return {"messages": [response]}


def route_model_output(state: State) -> Literal["__end__", "tools"]:
    last_message = state.messages[-1]
    if not isinstance(last_message, AIMessage):
        raise ValueError(
            f"Expected AIMessage in output edges, but got {type(last_message).__name__}"
        )
    if not last_message.tool_calls:
        return "__end__"
    return "tools"


builder = StateGraph(State, input_schema=InputState, context_schema=Context)
builder.add_node(call_model)
builder.add_node("tools", ToolNode(TOOLS))
builder.add_edge("__start__", "call_model")
builder.add_conditional_edges("call_model", route_model_output)
builder.add_edge("tools", "call_model")
graph = builder.compile(name="ReAct Agent")


async def main():
    result = await graph.ainvoke({"messages": [("user", "What is LangGraph?")]}, context=Context())
    return {
        "result": result,
        "prompts": prompts,
        "graph_name": graph.get_name(),
    }
