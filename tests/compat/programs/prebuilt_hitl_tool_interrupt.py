"""Human-in-the-loop in prebuilt agents: a tool that calls interrupt() before acting.

Source: https://langchain-ai.github.io/langgraph/agents/human-in-the-loop/ (the
book_hotel tool that pauses for review) with create_react_agent and an
InMemorySaver; resumed once with an accept and once with an edit of the args. The
model is a fake tool-calling chat model.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent
from langgraph.types import Command, interrupt


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


def book_hotel(hotel_name: str):
    """Book a hotel"""
    response = interrupt(
        f"Trying to call `book_hotel` with args {{'hotel_name': {hotel_name}}}. "
        "Please approve or suggest edits."
    )
    if response["type"] == "accept":
        pass
    elif response["type"] == "edit":
        hotel_name = response["args"]["hotel_name"]
    else:
        raise ValueError(f"Unknown response type: {response['type']}")
    return f"Successfully booked a stay at {hotel_name}."


def run(resume):
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "",
                tool_calls=[
                    {"name": "book_hotel", "args": {"hotel_name": "McKittrick Hotel"}, "id": "b1"}
                ],
            ),
            AIMessage("Booked!"),
        ]
    )
    agent = create_react_agent(model=model, tools=[book_hotel], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    first = list(
        agent.stream(
            {"messages": [{"role": "user", "content": "book a stay at McKittrick hotel"}]}, config
        )
    )
    paused = agent.get_state(config)
    second = list(agent.stream(Command(resume=resume), config))
    return {
        "first": first,
        "paused_next": paused.next,
        "paused_interrupts": [i.value for i in paused.interrupts],
        "second": second,
    }


def main():
    return {
        "accept": run({"type": "accept"}),
        "edit": run({"type": "edit", "args": {"hotel_name": "The Plaza"}}),
    }
