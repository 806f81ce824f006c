"""Multi-agent collaboration (network) tutorial: agents hand off with Command until FINAL ANSWER.

Source: https://langchain-ai.github.io/langgraph/tutorials/multi_agent/multi-agent-collaboration/
A researcher and a chart generator, each a create_react_agent with a system prompt;
their nodes wrap the last reply as a HumanMessage named after the agent and return
Command(goto=other agent or END) via get_next_node. Fake models and tools.
"""

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command


class FakeChatModel(BaseChatModel):
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


@tool
def tavily_tool(query: str) -> str:
    """Search the web."""
    return "UK GDP: 2020 2.7T, 2021 3.1T, 2022 3.1T, 2023 3.3T, 2024 3.6T"


@tool
def python_repl_tool(code: str) -> str:
    """Use this to execute python code."""
    return f"Successfully executed:\n```python\n{code}\n```\nStdout: chart.png"


def make_system_prompt(suffix: str) -> str:
    return (
        "You are a helpful AI assistant, collaborating with other assistants."
        " If you or any of the other assistants have the final answer or deliverable,"
        " prefix your response with FINAL ANSWER so the team knows to stop."
        f"\n{suffix}"
    )


research_llm = FakeChatModel(
    responses=[
        AIMessage(
            "", tool_calls=[{"name": "tavily_tool", "args": {"query": "UK GDP"}, "id": "t1"}]
        ),
        AIMessage("Here is the GDP data for the chart generator."),
    ]
)
chart_llm = FakeChatModel(
    responses=[
        AIMessage(
            "", tool_calls=[{"name": "python_repl_tool", "args": {"code": "plot(gdp)"}, "id": "p1"}]
        ),
        AIMessage("FINAL ANSWER: the chart is in chart.png"),
    ]
)

research_agent = create_react_agent(
    research_llm,
    tools=[tavily_tool],
    prompt=make_system_prompt("You can only do research."),
)
chart_agent = create_react_agent(
    chart_llm,
    [python_repl_tool],
    prompt=make_system_prompt("You can only generate charts."),
)


def get_next_node(last_message: BaseMessage, goto: str):
    if "FINAL ANSWER" in last_message.content:
        return END
    return goto


def research_node(state: MessagesState) -> Command[Literal["chart_generator", END]]:
    result = research_agent.invoke(state)
    goto = get_next_node(result["messages"][-1], "chart_generator")
    result["messages"][-1] = HumanMessage(content=result["messages"][-1].content, name="researcher")
    return Command(update={"messages": result["messages"]}, goto=goto)


def chart_node(state: MessagesState) -> Command[Literal["researcher", END]]:
    result = chart_agent.invoke(state)
    goto = get_next_node(result["messages"][-1], "researcher")
    result["messages"][-1] = HumanMessage(
        content=result["messages"][-1].content, name="chart_generator"
    )
    return Command(update={"messages": result["messages"]}, goto=goto)


workflow = StateGraph(MessagesState)
workflow.add_node("researcher", research_node)
workflow.add_node("chart_generator", chart_node)
workflow.add_edge(START, "researcher")
graph = workflow.compile()


def main():
    events = graph.stream(
        {"messages": [("user", "Get the UK's GDP over the past 5 years, then make a chart.")]},
        {"recursion_limit": 150},
    )
    steps = []
    for s in events:
        for node, update in s.items():
            steps.append((node, [(m.type, m.name, m.content) for m in update["messages"]]))
    return {"steps": steps}
