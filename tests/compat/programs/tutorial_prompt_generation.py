"""Prompt generation from user requirements (chatbots/information-gather-prompting tutorial).

Source: https://langchain-ai.github.io/langgraph/tutorials/chatbots/information-gather-prompting/
An info-gathering chat node asks questions until the model calls PromptInstructions;
an add_tool_message node answers the tool call; the prompt node writes the prompt
from the tool call's args. get_state routes between the three, and the conversation
lives in an InMemorySaver. The LLM is a fake tool-calling chat model.
"""

from typing import Annotated, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from pydantic import BaseModel
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


ARGS = {
    "objective": "answer emails",
    "variables": ["email"],
    "constraints": ["be brief"],
    "requirements": ["sign as Bob"],
}
llm = FakeChatModel(
    responses=[
        AIMessage("What is the objective of the prompt?"),
        AIMessage("Any constraints or requirements?"),
        AIMessage("", tool_calls=[{"name": "PromptInstructions", "args": ARGS, "id": "p1"}]),
        AIMessage("You answer emails briefly; sign as Bob. Email: {email}"),
    ]
)

template = "Your job is to get information from a user about what type of prompt template they want to create."  # noqa: E501


def get_messages_info(messages):
    return [SystemMessage(content=template), *messages]


class PromptInstructions(BaseModel):
    """Instructions on how to prompt the LLM."""

    objective: str
    variables: list[str]
    constraints: list[str]
    requirements: list[str]


llm_with_tool = llm.bind_tools([PromptInstructions])


def info_chain(state):
    messages = get_messages_info(state["messages"])
    response = llm_with_tool.invoke(messages)
    return {"messages": [response]}


prompt_system = "Based on the following requirements, write a good prompt template:\n\n{reqs}"


def get_prompt_messages(messages: list):
    tool_call = None
    other_msgs = []
    for m in messages:
        if isinstance(m, AIMessage) and m.tool_calls:
            tool_call = m.tool_calls[0]["args"]
        elif isinstance(m, ToolMessage):
            continue
        elif tool_call is not None:
            other_msgs.append(m)
    return [SystemMessage(content=prompt_system.format(reqs=tool_call)), *other_msgs]


def prompt_gen_chain(state):
    messages = get_prompt_messages(state["messages"])
    response = llm.invoke(messages)
    return {"messages": [response]}


def get_state(state):
    messages = state["messages"]
    if isinstance(messages[-1], AIMessage) and messages[-1].tool_calls:
        return "add_tool_message"
    elif not isinstance(messages[-1], HumanMessage):
        return END
    return "info"


class State(TypedDict):
    messages: Annotated[list, add_messages]


workflow = StateGraph(State)
workflow.add_node("info", info_chain)
workflow.add_node("prompt", prompt_gen_chain)


@workflow.add_node
def add_tool_message(state: State):
    return {
        "messages": [
            ToolMessage(
                content="Prompt generated!",
                tool_call_id=state["messages"][-1].tool_calls[0]["id"],
            )
        ]
    }


workflow.add_conditional_edges("info", get_state, ["add_tool_message", "info", END])
workflow.add_edge("add_tool_message", "prompt")
workflow.add_edge("prompt", END)
workflow.add_edge(START, "info")
graph = workflow.compile(checkpointer=InMemorySaver())


def main():
    config = {"configurable": {"thread_id": "1"}}
    transcript = []
    for user in ["hi!", "answer emails", "be brief, sign as Bob"]:
        output = None
        for output in graph.stream(
            {"messages": [HumanMessage(content=user)]}, config=config, stream_mode="updates"
        ):
            last_message = next(iter(output.values()))["messages"][-1]
            transcript.append((next(iter(output)), last_message.type, last_message.content))
        if output and "prompt" in output:
            transcript.append("Done!")
    return {"transcript": transcript, "final_len": len(graph.get_state(config).values["messages"])}
