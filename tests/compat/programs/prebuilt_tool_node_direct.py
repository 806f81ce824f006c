"""Call tools with ToolNode directly: one call, parallel calls, errors, and a tool-calling loop.

Source: https://langchain-ai.github.io/langgraph/how-tos/tool-calling/ ("ToolNode",
"Handle errors") and concepts/tools. ToolNode is invoked on a state holding an AI
message with tool calls; tool errors become ToolMessages with status="error"
(handle_tool_errors default and a custom message); tools_condition routes a
hand-built agent loop.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def get_weather(location: str):
    """Call to get the current weather."""
    if location.lower() in ["sf", "san francisco"]:
        return "It's 60 degrees and foggy."
    return "It's 90 degrees and sunny."


@tool
def get_coolest_cities():
    """Get a list of coolest cities"""
    return "nyc, sf"


@tool
def flaky(x: int) -> int:
    """A tool that fails on odd numbers."""
    if x % 2:
        raise ValueError(f"odd input {x}")
    return x // 2


class FakeToolCallingModel(BaseChatModel):
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


def run_tools(node, state):
    """ToolNode needs a graph's runtime in LangGraph 1.x: run it as the only node."""
    graph = StateGraph(MessagesState).add_node("tools", node).add_edge(START, "tools").compile()
    return graph.invoke(state)


def main():
    tool_node = ToolNode([get_weather, get_coolest_cities])
    single = run_tools(
        tool_node,
        {
            "messages": [
                AIMessage(
                    "",
                    tool_calls=[
                        {
                            "name": "get_weather",
                            "args": {"location": "sf"},
                            "id": "tool_call_id",
                            "type": "tool_call",
                        }
                    ],
                )
            ]
        },
    )
    parallel = run_tools(
        tool_node,
        {
            "messages": [
                AIMessage(
                    "",
                    tool_calls=[
                        {
                            "name": "get_coolest_cities",
                            "args": {},
                            "id": "tool_call_id_1",
                            "type": "tool_call",
                        },
                        {
                            "name": "get_weather",
                            "args": {"location": "sf"},
                            "id": "tool_call_id_2",
                            "type": "tool_call",
                        },
                    ],
                )
            ]
        },
    )
    errors = {}
    for label, node in [
        ("default", ToolNode([flaky])),
        ("custom_message", ToolNode([flaky], handle_tool_errors="Please try an even number.")),
        ("raise", ToolNode([flaky], handle_tool_errors=False)),
    ]:
        try:
            errors[label] = run_tools(
                node,
                {
                    "messages": [
                        AIMessage(
                            "",
                            tool_calls=[
                                {"name": "flaky", "args": {"x": 3}, "id": "f1", "type": "tool_call"}
                            ],
                        )
                    ]
                },
            )
        except ValueError as e:
            errors[label] = {"raised": str(e)}

    model = FakeToolCallingModel(
        responses=[
            AIMessage("", tool_calls=[{"name": "get_coolest_cities", "args": {}, "id": "c1"}]),
            AIMessage(
                "",
                tool_calls=[
                    {"name": "get_weather", "args": {"location": "nyc"}, "id": "c2"},
                    {"name": "get_weather", "args": {"location": "sf"}, "id": "c3"},
                ],
            ),
            AIMessage("NYC is sunny and SF is foggy."),
        ]
    )

    def call_model(state: MessagesState):
        return {
            "messages": [
                model.bind_tools([get_weather, get_coolest_cities]).invoke(state["messages"])
            ]
        }

    builder = StateGraph(MessagesState)
    builder.add_node("call_model", call_model)
    builder.add_node("tools", tool_node)
    builder.add_edge(START, "call_model")
    builder.add_conditional_edges("call_model", tools_condition)
    builder.add_edge("tools", "call_model")
    graph = builder.compile()
    question = {"role": "user", "content": "weather in the coolest cities?"}
    loop = graph.invoke({"messages": [question]})
    return {
        "single": single,
        "parallel": parallel,
        "errors": errors,
        "loop": loop,
        "tools_condition_end": tools_condition({"messages": [AIMessage("done")]}) == END,
    }
