"""The data-enrichment template (langchain-ai/data-enrichment): research a topic into a schema.

Source: https://github.com/langchain-ai/data-enrichment (src/enrichment_agent/graph.py,
state.py, tools.py). Dataclass input/state/output schemas with an operator.add step
counter; the agent calls search/scrape tools through a ToolNode (scrape_website reads
the graph state through InjectedState) and submits an "Info" tool call that a
structured-output checker accepts or rejects. Models and tools are fakes.
"""

import json
import operator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, cast

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import InjectedToolArg
from langgraph.graph import StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import InjectedState, ToolNode
from pydantic import BaseModel, Field

MAIN_PROMPT = """You are doing web research on behalf of a user. Extract:
<info>
{info}
</info>
Topic: {topic}"""


class FakeChatModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake"

    def bind_tools(self, tools, **kwargs: Any):
        return self


INFO = {"founder": "Harrison Chase", "year": 2022}
AGENT_MODEL = FakeChatModel(
    responses=[
        AIMessage(
            "", tool_calls=[{"name": "search", "args": {"query": "LangChain founder"}, "id": "s1"}]
        ),
        AIMessage(
            "",
            tool_calls=[
                {"name": "scrape_website", "args": {"url": "https://langchain.com"}, "id": "w1"}
            ],
        ),
        AIMessage("", tool_calls=[{"name": "Info", "args": {"founder": "Harrison"}, "id": "i1"}]),
        AIMessage("", tool_calls=[{"name": "Info", "args": INFO, "id": "i2"}]),
    ]
)
CHECKER_MODEL = FakeChatModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "InfoIsSatisfactory",
                    "id": "c1",
                    "args": {
                        "reason": ["founder is incomplete"],
                        "is_satisfactory": False,
                        "improvement_instructions": "Give the full name and the year.",
                    },
                }
            ],
        ),
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "InfoIsSatisfactory",
                    "id": "c2",
                    "args": {"reason": ["complete"], "is_satisfactory": True},
                }
            ],
        ),
    ]
)


@dataclass(kw_only=True)
class InputState:
    topic: str
    extraction_schema: dict[str, Any]
    info: dict[str, Any] | None = field(default=None)


@dataclass(kw_only=True)
class State(InputState):
    messages: Annotated[list[BaseMessage], add_messages] = field(default_factory=list)
    loop_step: Annotated[int, operator.add] = field(default=0)


@dataclass(kw_only=True)
class OutputState:
    info: dict[str, Any]


@dataclass(kw_only=True)
class Configuration:
    max_loops: int = 6


async def search(
    query: str, *, config: Annotated[RunnableConfig, InjectedToolArg]
) -> list[dict[str, Any]] | None:
    """Query a search engine."""
    return [{"url": "https://langchain.com", "content": f"results for {query}"}]


async def scrape_website(
    url: str,
    *,
    state: Annotated[State, InjectedState],
    config: Annotated[RunnableConfig, InjectedToolArg],
) -> str:
    """Scrape and summarize content from a given URL."""
    return f"{url} about {state.topic}: founded by Harrison Chase in 2022"


class InfoIsSatisfactory(BaseModel):
    """Validate whether the current extracted info is satisfactory and complete."""

    reason: list[str] = Field(description="First, provide reasoning.")
    is_satisfactory: bool = Field(description="Is the info good enough?")
    improvement_instructions: str | None = Field(default=None, description="What to fix.")


async def call_agent_model(state: State, *, config: RunnableConfig) -> dict[str, Any]:
    info_tool = {
        "name": "Info",
        "description": "Call this when you have gathered all the relevant info",
        "parameters": state.extraction_schema,
    }
    p = MAIN_PROMPT.format(info=json.dumps(state.extraction_schema, indent=2), topic=state.topic)
    messages = [HumanMessage(content=p), *state.messages]
    model = AGENT_MODEL.bind_tools([scrape_website, search, info_tool], tool_choice="any")
    response = cast(AIMessage, await model.ainvoke(messages))
    info = None
    if response.tool_calls:
        for tool_call in response.tool_calls:
            if tool_call["name"] == "Info":
                info = tool_call["args"]
                break
    if info is not None:
        response.tool_calls = [next(tc for tc in response.tool_calls if tc["name"] == "Info")]
    response_messages: list[BaseMessage] = [response]
    if not response.tool_calls:
        response_messages.append(
            HumanMessage(content="Please respond by calling one of the provided tools.")
        )
    return {"messages": response_messages, "info": info, "loop_step": 1}


async def reflect(state: State, *, config: RunnableConfig) -> dict[str, Any]:
    last_message = state.messages[-1]
    if not isinstance(last_message, AIMessage):
        raise ValueError(f"{reflect.__name__} expects the last message to be an AIMessage")
    presumed_info = state.info
    checker = f"I am thinking of calling the info tool with:\n{json.dumps(presumed_info or {})}"
    messages = [HumanMessage(content=checker)]
    bound_model = CHECKER_MODEL.with_structured_output(InfoIsSatisfactory)
    response = cast(InfoIsSatisfactory, await bound_model.ainvoke(messages))
    if response.is_satisfactory and presumed_info:
        return {
            "info": presumed_info,
            "messages": [
                ToolMessage(
                    tool_call_id=last_message.tool_calls[0]["id"],
                    content="\n".join(response.reason),
                    name="Info",
                    additional_kwargs={"reason": response.reason},
                    status="success",
                )
            ],
        }
    return {
        "messages": [
            ToolMessage(
                tool_call_id=last_message.tool_calls[0]["id"],
                content=f"Unsatisfactory response:\n{response.improvement_instructions}",
                name="Info",
                additional_kwargs={"reason": response.reason},
                status="error",
            )
        ]
    }


def route_after_agent(state: State) -> Literal["reflect", "tools", "call_agent_model", "__end__"]:
    last_msg = state.messages[-1]
    if not isinstance(last_msg, AIMessage):
        return "call_agent_model"
    if last_msg.tool_calls and last_msg.tool_calls[0]["name"] == "Info":
        return "reflect"
    return "tools"


def route_after_checker(
    state: State, config: RunnableConfig
) -> Literal["__end__", "call_agent_model"]:
    max_loops = (config.get("configurable") or {}).get("max_loops", Configuration().max_loops)
    last_msg = state.messages[-1]
    if state.loop_step < max_loops:
        if not state.info:
            return "call_agent_model"
        if not isinstance(last_msg, ToolMessage):
            raise ValueError(f"{route_after_checker.__name__} expected a tool message")
        if last_msg.status == "error":
            return "call_agent_model"
        return "__end__"
    return "__end__"


workflow = StateGraph(
    State, input_schema=InputState, output_schema=OutputState, context_schema=Configuration
)
workflow.add_node(call_agent_model)
workflow.add_node(reflect)
workflow.add_node("tools", ToolNode([search, scrape_website]))
workflow.add_edge("__start__", "call_agent_model")
workflow.add_conditional_edges("call_agent_model", route_after_agent)
workflow.add_edge("tools", "call_agent_model")
workflow.add_conditional_edges("reflect", route_after_checker)
graph = workflow.compile()
graph.name = "ResearchTopic"


async def main():
    schema = {
        "type": "object",
        "properties": {"founder": {"type": "string"}, "year": {"type": "integer"}},
        "required": ["founder"],
    }
    updates = []
    async for chunk in graph.astream({"topic": "LangChain", "extraction_schema": schema}):
        updates.append(chunk)
    return {"updates": updates}
