"""Multi-agent network with handoff tools: agents transfer control with Command from a tool.

Source: https://langchain-ai.github.io/langgraph/agents/multi-agent/#handoffs and
how-tos/agent-handoffs. create_handoff_tool returns a tool that answers with
Command(goto=agent, update=..., graph=Command.PARENT); two create_react_agent agents
(flight and hotel assistants) are nodes of a parent graph. Fake models script the
conversation.
"""

from typing import Annotated, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import InjectedState, create_react_agent
from langgraph.types import Command


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


def create_handoff_tool(*, agent_name: str, description: str | None = None):
    name = f"transfer_to_{agent_name}"
    description = description or f"Transfer to {agent_name}"

    @tool(name, description=description)
    def handoff_tool(
        state: Annotated[MessagesState, InjectedState],
        tool_call_id: Annotated[str, InjectedToolCallId],
    ) -> Command:
        tool_message = {
            "role": "tool",
            "content": f"Successfully transferred to {agent_name}",
            "name": name,
            "tool_call_id": tool_call_id,
        }
        return Command(
            goto=agent_name,
            update={"messages": [*state["messages"], tool_message]},
            graph=Command.PARENT,
        )

    return handoff_tool


def book_hotel(hotel_name: str):
    """Book a hotel"""
    return f"Successfully booked a stay at {hotel_name}."


def book_flight(from_airport: str, to_airport: str):
    """Book a flight"""
    return f"Successfully booked a flight from {from_airport} to {to_airport}."


transfer_to_hotel_assistant = create_handoff_tool(
    agent_name="hotel_assistant", description="Transfer user to the hotel-booking assistant."
)
transfer_to_flight_assistant = create_handoff_tool(
    agent_name="flight_assistant", description="Transfer user to the flight-booking assistant."
)

flight_model = FakeToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "book_flight",
                    "id": "f1",
                    "args": {"from_airport": "BOS", "to_airport": "JFK"},
                }
            ],
        ),
        AIMessage("", tool_calls=[{"name": "transfer_to_hotel_assistant", "args": {}, "id": "h1"}]),
    ]
)
hotel_model = FakeToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {"name": "book_hotel", "id": "b1", "args": {"hotel_name": "McKittrick Hotel"}}
            ],
        ),
        AIMessage("Your flight and hotel are booked."),
    ]
)

flight_assistant = create_react_agent(
    model=flight_model,
    tools=[book_flight, transfer_to_hotel_assistant],
    prompt="You are a flight booking assistant",
    name="flight_assistant",
)
hotel_assistant = create_react_agent(
    model=hotel_model,
    tools=[book_hotel, transfer_to_flight_assistant],
    prompt="You are a hotel booking assistant",
    name="hotel_assistant",
)

multi_agent_graph = (
    StateGraph(MessagesState)
    .add_node(flight_assistant)
    .add_node(hotel_assistant)
    .add_edge(START, "flight_assistant")
    .compile()
)


def main():
    chunks = []
    for ns, chunk in multi_agent_graph.stream(
        {
            "messages": [
                {
                    "role": "user",
                    "content": "book a flight from BOS to JFK and a stay at McKittrick Hotel",
                }
            ]
        },
        subgraphs=True,
    ):
        chunks.append(([p.split(":")[0] for p in ns], chunk))
    return {"chunks": chunks, "nodes": sorted(multi_agent_graph.get_graph().nodes)}
