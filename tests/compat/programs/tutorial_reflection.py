"""Reflection tutorial: a generator and a reflector take turns on the essay.

Source: https://langchain-ai.github.io/langgraph/tutorials/reflection/reflection/
generation_node and reflection_node (which swaps message roles so the critique
arrives as a human message) loop until six messages exist; async streaming with a
checkpointer as in the tutorial. The two prompts' LLMs are fake chat models.
"""

from typing import Annotated

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

writer = FakeListChatModel(
    responses=[
        "Essay v1: The Little Prince is about love.",
        "Essay v2: The Little Prince is about love and loss.",
        "Essay v3: a final essay.",
        "Essay v4: the final essay, with a conclusion.",
    ]
)
critic = FakeListChatModel(
    responses=[
        "Critique 1: add detail about loss.",
        "Critique 2: add a conclusion.",
        "Critique 3: good.",
    ]
)

prompt = ChatPromptTemplate.from_messages(
    [
        ("system", "You are an essay assistant tasked with writing excellent 5-paragraph essays."),
        MessagesPlaceholder(variable_name="messages"),
    ]
)
generate = prompt | writer
reflection_prompt = ChatPromptTemplate.from_messages(
    [
        ("system", "You are a teacher grading an essay submission."),
        MessagesPlaceholder(variable_name="messages"),
    ]
)
reflect = reflection_prompt | critic


class State(TypedDict):
    messages: Annotated[list, add_messages]


async def generation_node(state: State) -> State:
    return {"messages": [await generate.ainvoke(state["messages"])]}


async def reflection_node(state: State) -> State:
    cls_map = {"ai": HumanMessage, "human": AIMessage}
    translated = [state["messages"][0]] + [
        cls_map[msg.type](content=msg.content) for msg in state["messages"][1:]
    ]
    res = await reflect.ainvoke(translated)
    return {"messages": [HumanMessage(content=res.content)]}


def should_continue(state: State):
    if len(state["messages"]) > 6:
        return END
    return "reflect"


builder = StateGraph(State)
builder.add_node("generate", generation_node)
builder.add_node("reflect", reflection_node)
builder.add_edge(START, "generate")
builder.add_conditional_edges("generate", should_continue)
builder.add_edge("reflect", "generate")
graph = builder.compile(checkpointer=InMemorySaver())


async def main():
    config = {"configurable": {"thread_id": "1"}}
    events = []
    async for event in graph.astream(
        {"messages": [HumanMessage(content="Write an essay on The Little Prince")]},
        config,
    ):
        events.append({k: [(m.type, m.content) for m in v["messages"]] for k, v in event.items()})
    state = graph.get_state(config)
    messages: list[BaseMessage] = state.values["messages"]
    return {
        "events": events,
        "final": [(m.type, m.content) for m in messages],
        "history_len": len(list(graph.get_state_history(config))),
    }
