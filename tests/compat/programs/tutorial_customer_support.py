"""Customer support bot tutorial, part 2: fetch user info first, confirm before tools.

Source: https://langchain-ai.github.io/langgraph/tutorials/customer-support/customer-support/
The Assistant class (re-prompts when the model answers empty), a ToolNode with a
RunnableLambda fallback keyed on "error" (create_tool_node_with_fallback),
tools_condition, a fetch_user_info node, interrupt_before=["tools"], and the
tutorial's loop: approve with invoke(None) or deny with a ToolMessage. Inputs pass
`{"messages": ("user", question)}` as the tutorial does. The flight tools use a dict
instead of the travel database; the LLM is a fake tool-calling chat model.
"""

from datetime import datetime
from typing import Annotated, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition
from typing_extensions import TypedDict

TICKETS = {"3442 587242": {"ticket_no": "7240005432906569", "flight_id": 19250}}


@tool
def fetch_user_flight_information(config: RunnableConfig) -> list[dict]:
    """Fetch all tickets for the user along with corresponding flight information."""
    passenger_id = config.get("configurable", {}).get("passenger_id", None)
    if not passenger_id:
        raise ValueError("No passenger ID configured.")
    return [TICKETS[passenger_id]]


@tool
def update_ticket_to_new_flight(ticket_no: str, new_flight_id: int) -> str:
    """Update the user's ticket to a new valid flight."""
    if new_flight_id < 0:
        raise ValueError("Invalid new flight ID provided.")
    return "Ticket successfully updated to new flight."


@tool
def cancel_ticket(ticket_no: str) -> str:
    """Cancel the user's ticket and remove it from the database."""
    return "Ticket successfully cancelled."


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


def call(name: str, args: dict, id_: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": id_}])


llm = FakeToolCallingModel(
    responses=[
        AIMessage(""),  # empty: the Assistant asks again
        AIMessage("Your flight is 19250."),
        call(
            "update_ticket_to_new_flight",
            {"ticket_no": "7240005432906569", "new_flight_id": -1},
            "u1",
        ),
        call(
            "update_ticket_to_new_flight",
            {"ticket_no": "7240005432906569", "new_flight_id": 19251},
            "u2",
        ),
        AIMessage("Your ticket is now on flight 19251."),
        call("cancel_ticket", {"ticket_no": "7240005432906569"}, "c1"),
        AIMessage("Understood, I will not cancel your ticket."),
    ]
)


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    user_info: str


class Assistant:
    def __init__(self, runnable: Runnable):
        self.runnable = runnable

    def __call__(self, state: State, config: RunnableConfig):
        while True:
            result = self.runnable.invoke(state)
            if not result.tool_calls and (
                not result.content
                or (isinstance(result.content, list) and not result.content[0].get("text"))
            ):
                messages = [*state["messages"], ("user", "Respond with a real output.")]
                state = {**state, "messages": messages}
            else:
                break
        return {"messages": result}


assistant_prompt = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are a helpful customer support assistant for Swiss Airlines."
            "\n\nCurrent user:\n<User>\n{user_info}\n</User>\nCurrent time: {time}.",
        ),
        ("placeholder", "{messages}"),
    ]
).partial(time=datetime.now)
part_2_tools = [fetch_user_flight_information, update_ticket_to_new_flight, cancel_ticket]
part_2_assistant_runnable = assistant_prompt | llm.bind_tools(part_2_tools)


def handle_tool_error(state) -> dict:
    error = state.get("error")
    tool_calls = state["messages"][-1].tool_calls
    return {
        "messages": [
            ToolMessage(
                content=f"Error: {error!r}\n please fix your mistakes.",
                tool_call_id=tc["id"],
            )
            for tc in tool_calls
        ]
    }


def create_tool_node_with_fallback(tools: list) -> dict:
    return ToolNode(tools).with_fallbacks(
        [RunnableLambda(handle_tool_error)], exception_key="error"
    )


def user_info(state: State):
    return {"user_info": fetch_user_flight_information.invoke({})}


builder = StateGraph(State)
builder.add_node("fetch_user_info", user_info)
builder.add_edge(START, "fetch_user_info")
builder.add_node("assistant", Assistant(part_2_assistant_runnable))
builder.add_node("tools", create_tool_node_with_fallback(part_2_tools))
builder.add_edge("fetch_user_info", "assistant")
builder.add_conditional_edges("assistant", tools_condition)
builder.add_edge("tools", "assistant")
part_2_graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=["tools"])


def main():
    config = {"configurable": {"passenger_id": "3442 587242", "thread_id": "support"}}
    questions_and_answers = [
        ("Hi there, what time is my flight?", []),
        ("Move me to flight 19251.", ["y", "y"]),
        ("Cancel my ticket.", ["no, keep it"]),
    ]
    transcript = []
    for question, answers in questions_and_answers:
        events = list(
            part_2_graph.stream({"messages": ("user", question)}, config, stream_mode="values")
        )
        turn = {"question": question, "last": events[-1]["messages"][-1], "pauses": []}
        snapshot = part_2_graph.get_state(config)
        answers = list(answers)
        while snapshot.next:
            user_input = answers.pop(0)
            if user_input.strip() == "y":
                result = part_2_graph.invoke(None, config)
            else:
                result = part_2_graph.invoke(
                    {
                        "messages": [
                            ToolMessage(
                                tool_call_id=snapshot.values["messages"][-1].tool_calls[0]["id"],
                                content=f"API call denied by user. Reasoning: '{user_input}'.",
                            )
                        ]
                    },
                    config,
                )
            turn["pauses"].append({"next": snapshot.next, "result_last": result["messages"][-1]})
            snapshot = part_2_graph.get_state(config)
        transcript.append(turn)
    final = part_2_graph.get_state(config)
    return {
        "transcript": transcript,
        "user_info": final.values["user_info"],
        "messages": final.values["messages"],
    }
