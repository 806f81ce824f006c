"""Multi-agent supervisor tutorial: a router LLM hands work to ReAct agents via Command.

Source: https://langchain-ai.github.io/langgraph/tutorials/multi_agent/agent_supervisor/
(the version built from scratch). The supervisor asks a structured-output model for
the next worker (a TypedDict Router with a Literal built from the member names) and
returns Command(goto=...); each worker is a prebuilt create_react_agent wrapped in a
node that returns Command(goto="supervisor"). Streamed with subgraphs=True as in the
tutorial. All models are fakes; the search and python tools are deterministic.
"""

from typing import Annotated, Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent
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


def call(name: str, args: dict, id_: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": id_}])


@tool
def tavily_tool(query: str) -> str:
    """Search the web."""
    return "42 is the answer to everything."


@tool
def python_repl_tool(code: Annotated[str, "The python code to execute."]) -> str:
    """Use this to execute python code and do math."""
    return "Successfully executed:\n```python\n" + code + "\n```\nStdout: 6.48074069840786"


members = ["researcher", "coder"]
options = [*members, "FINISH"]
system_prompt = (
    "You are a supervisor tasked with managing a conversation between the"
    f" following workers: {members}. Respond with the worker to act next."
)


class Router(TypedDict):
    """Worker to route to next. If no workers needed, route to FINISH."""

    next: Literal[*options]


supervisor_llm = FakeChatModel(
    responses=[
        call("Router", {"next": "coder"}, "r1"),
        call("Router", {"next": "FINISH"}, "r2"),
    ]
)
research_llm = FakeChatModel(responses=[AIMessage("Nothing to research.")])
code_llm = FakeChatModel(
    responses=[
        call("python_repl_tool", {"code": "import math\nprint(math.sqrt(42))"}, "c1"),
        AIMessage("The square root of 42 is approximately 6.4807."),
    ]
)


class State(MessagesState):
    next: str


def supervisor_node(state: State) -> Command[Literal[*members, "__end__"]]:
    messages = [{"role": "system", "content": system_prompt}, *state["messages"]]
    response = supervisor_llm.with_structured_output(Router).invoke(messages)
    goto = response["next"]
    if goto == "FINISH":
        goto = END
    return Command(goto=goto, update={"next": goto})


research_agent = create_react_agent(
    research_llm, tools=[tavily_tool], prompt="You are a researcher. DO NOT do any math."
)


def research_node(state: State) -> Command[Literal["supervisor"]]:
    result = research_agent.invoke(state)
    return Command(
        update={
            "messages": [HumanMessage(content=result["messages"][-1].content, name="researcher")]
        },
        goto="supervisor",
    )


code_agent = create_react_agent(code_llm, tools=[python_repl_tool])


def code_node(state: State) -> Command[Literal["supervisor"]]:
    result = code_agent.invoke(state)
    return Command(
        update={"messages": [HumanMessage(content=result["messages"][-1].content, name="coder")]},
        goto="supervisor",
    )


builder = StateGraph(State)
builder.add_edge(START, "supervisor")
builder.add_node("supervisor", supervisor_node)
builder.add_node("researcher", research_node)
builder.add_node("coder", code_node)
graph = builder.compile()


def main():
    chunks = []
    for ns, chunk in graph.stream(
        {"messages": [("user", "What's the square root of 42?")]}, subgraphs=True
    ):
        chunks.append(([part.split(":")[0] for part in ns], chunk))
    final = graph.invoke({"messages": [("user", "What's the square root of 42?")]})
    return {"chunks": chunks, "final": final}
