"""Hierarchical agent teams tutorial: a top supervisor routes to teams with their own supervisors.

Source: https://langchain-ai.github.io/langgraph/tutorials/multi_agent/hierarchical_agent_teams/
make_supervisor_node builds a structured-output router node returning Command; a
research team graph (search, web_scraper) is compiled and called from a node of the
top graph, which returns Command(goto="supervisor"). Fake models script the routing.
"""

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import Command
from typing_extensions import TypedDict


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


def route(*names: str) -> list[AIMessage]:
    return [
        AIMessage("", tool_calls=[{"name": "Router", "args": {"next": n}, "id": f"r{i}"}])
        for i, n in enumerate(names)
    ]


class State(MessagesState):
    next: str


def make_supervisor_node(llm: BaseChatModel, members: list[str]):
    options = ["FINISH", *members]
    system_prompt = f"You are a supervisor managing the following workers: {members}."

    class Router(TypedDict):
        """Worker to route to next. If no workers needed, route to FINISH."""

        next: Literal[*options]

    def supervisor_node(state: State) -> Command[Literal[*members, "__end__"]]:
        messages = [{"role": "system", "content": system_prompt}, *state["messages"]]
        response = llm.with_structured_output(Router).invoke(messages)
        goto = response["next"]
        if goto == "FINISH":
            goto = END
        return Command(goto=goto, update={"next": goto})

    return supervisor_node


def search_node(state: State) -> Command[Literal["supervisor"]]:
    return Command(
        update={
            "messages": [HumanMessage(content="Found: taylor swift tour dates", name="search")]
        },
        goto="supervisor",
    )


def web_scraper_node(state: State) -> Command[Literal["supervisor"]]:
    return Command(
        update={"messages": [HumanMessage(content="Scraped: 152 shows", name="web_scraper")]},
        goto="supervisor",
    )


research_supervisor_node = make_supervisor_node(
    FakeChatModel(responses=route("search", "web_scraper", "FINISH")),
    ["search", "web_scraper"],
)
research_builder = StateGraph(State)
research_builder.add_node("supervisor", research_supervisor_node)
research_builder.add_node("search", search_node)
research_builder.add_node("web_scraper", web_scraper_node)
research_builder.add_edge(START, "supervisor")
research_graph = research_builder.compile()


def note_taker_node(state: State) -> Command[Literal["supervisor"]]:
    return Command(
        update={"messages": [HumanMessage(content="Outline written.", name="note_taker")]},
        goto="supervisor",
    )


def call_research_team(state: State) -> Command[Literal["supervisor"]]:
    response = research_graph.invoke({"messages": state["messages"][-1]})
    return Command(
        update={
            "messages": [
                HumanMessage(content=response["messages"][-1].content, name="research_team")
            ]
        },
        goto="supervisor",
    )


teams_supervisor_node = make_supervisor_node(
    FakeChatModel(responses=route("research_team", "writing_team", "FINISH")),
    ["research_team", "writing_team"],
)
super_builder = StateGraph(State)
super_builder.add_node("supervisor", teams_supervisor_node)
super_builder.add_node("research_team", call_research_team)
super_builder.add_node("writing_team", note_taker_node)
super_builder.add_edge(START, "supervisor")
super_graph = super_builder.compile()


def main():
    steps = []
    for s in super_graph.stream(
        {"messages": [("user", "Research Taylor Swift's tour and write a brief report.")]},
        {"recursion_limit": 150},
    ):
        steps.append(s)
    return {"steps": steps}
