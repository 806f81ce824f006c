"""Review tool calls: a human_review_node interrupts before a sensitive tool runs.

Source: https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/review-tool-calls/
The model proposes a weather lookup; human_review_node calls interrupt() with the
tool call and routes with Command: "continue" runs it, "update" edits the args
(replacing the AI message by id), "feedback" answers with a ToolMessage and goes back
to the model. The LLM is a fake tool-calling chat model.
"""

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
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


@tool
def weather_search(city: str):
    """Search for the weather"""
    return "Sunny!"


def make_model():
    return FakeToolCallingModel(
        responses=[
            AIMessage(
                "", tool_calls=[{"name": "weather_search", "args": {"city": "sf"}, "id": "w1"}]
            ),
            AIMessage("The weather in San Francisco is sunny."),
            AIMessage(
                "", tool_calls=[{"name": "weather_search", "args": {"city": "sf"}, "id": "w2"}]
            ),
            AIMessage("Sunny in SF, USA."),
        ]
    )


def build(model):
    def call_llm(state):
        return {"messages": [model.bind_tools([weather_search]).invoke(state["messages"])]}

    def human_review_node(state) -> Command[Literal["call_llm", "run_tool"]]:
        last_message = state["messages"][-1]
        tool_call = last_message.tool_calls[-1]
        human_review = interrupt({"question": "Is this correct?", "tool_call": tool_call})
        review_action = human_review["action"]
        review_data = human_review.get("data")
        if review_action == "continue":
            return Command(goto="run_tool")
        if review_action == "update":
            updated_message = {
                "role": "ai",
                "content": last_message.content,
                "tool_calls": [
                    {"id": tool_call["id"], "name": tool_call["name"], "args": review_data}
                ],
                "id": last_message.id,
            }
            return Command(goto="run_tool", update={"messages": [updated_message]})
        tool_message = {
            "role": "tool",
            "content": review_data,
            "name": tool_call["name"],
            "tool_call_id": tool_call["id"],
        }
        return Command(goto="call_llm", update={"messages": [tool_message]})

    def run_tool(state):
        new_messages = []
        tools = {"weather_search": weather_search}
        tool_calls = state["messages"][-1].tool_calls
        for tool_call in tool_calls:
            result = tools[tool_call["name"]].invoke(tool_call["args"])
            new_messages.append(
                {
                    "role": "tool",
                    "name": tool_call["name"],
                    "content": result,
                    "tool_call_id": tool_call["id"],
                }
            )
        return {"messages": new_messages}

    def route_after_llm(state) -> Literal[END, "human_review_node"]:
        if len(state["messages"][-1].tool_calls) == 0:
            return END
        return "human_review_node"

    builder = StateGraph(MessagesState)
    builder.add_node(call_llm)
    builder.add_node(run_tool)
    builder.add_node(human_review_node)
    builder.add_edge(START, "call_llm")
    builder.add_conditional_edges("call_llm", route_after_llm)
    builder.add_edge("run_tool", "call_llm")
    return builder.compile(checkpointer=InMemorySaver())


def run(action: dict):
    graph = build(make_model())
    thread = {"configurable": {"thread_id": "1"}}
    first = list(
        graph.stream(
            {"messages": [{"role": "user", "content": "weather in sf?"}]},
            thread,
            stream_mode="updates",
        )
    )
    pending = graph.get_state(thread)
    second = list(graph.stream(Command(resume=action), thread, stream_mode="updates"))
    state = graph.get_state(thread)
    return {
        "first": first,
        "pending_next": pending.next,
        "pending_interrupt": [i.value for t in pending.tasks for i in t.interrupts],
        "second": second,
        "final_next": state.next,
        "final_messages": state.values["messages"],
    }


def main():
    return {
        "continue": run({"action": "continue"}),
        "update": run({"action": "update", "data": {"city": "San Francisco, USA"}}),
        "feedback": run({"action": "feedback", "data": "Use the format 'City, Country'."}),
    }
