"""How to use the graph API: define and update state, reducers, add_messages, MessagesState.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#define-and-update-state
(docs/docs/how-tos/graph-api.md in langchain-ai/langgraph). The same single-node graph
is built three times: a plain list (the node returns the whole list), an `add`
reducer, and `add_messages` with an OpenAI-style input message.
"""

from typing import Annotated

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class PlainState(TypedDict):
    messages: list[AnyMessage]
    extra_field: int


def plain_node(state: PlainState):
    messages = state["messages"]
    new_message = AIMessage("Hello!")
    return {"messages": messages + [new_message], "extra_field": 10}  # noqa: RUF005


def add(left, right):
    """Can also import `add` from the `operator` built-in."""
    return left + right


class AddState(TypedDict):
    messages: Annotated[list[AnyMessage], add]
    extra_field: int


class MessagesReducerState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    extra_field: int


def node(state):
    new_message = AIMessage("Hello!")
    return {"messages": [new_message], "extra_field": 10}


class ExtendedMessagesState(MessagesState):
    extra_field: int


def main():
    builder = StateGraph(PlainState)
    builder.add_node("node", plain_node)
    builder.set_entry_point("node")
    plain = builder.compile().invoke({"messages": [HumanMessage("Hi")]})

    with_add = (StateGraph(AddState).add_node(node).add_edge(START, "node").compile()).invoke(
        {"messages": [HumanMessage("Hi")]}
    )

    graph = StateGraph(MessagesReducerState).add_node(node).set_entry_point("node").compile()
    with_add_messages = graph.invoke({"messages": [{"role": "user", "content": "Hi"}]})

    extended = (
        StateGraph(ExtendedMessagesState).add_node(node).add_edge(START, "node").compile()
    ).invoke({"messages": [("user", "Hi")]})

    return {
        "plain": plain,
        "with_add": with_add,
        "with_add_messages": with_add_messages,
        "extended_messages_state": extended,
        "types": [type(m).__name__ for m in with_add_messages["messages"]],
    }
