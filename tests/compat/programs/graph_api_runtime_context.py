"""How to use the graph API: add runtime configuration (context_schema and Runtime).

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#add-runtime-configuration
A node reads `runtime.context` to pick a model provider and a system message; the
chat models of the original are fake models that answer with their provider name.
"""

from dataclasses import dataclass

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import SystemMessage
from langgraph.graph import END, MessagesState, StateGraph
from langgraph.runtime import Runtime


@dataclass
class ContextSchema:
    model_provider: str = "anthropic"
    system_message: str | None = None


MODELS = {
    "anthropic": FakeListChatModel(responses=["hi from anthropic"]),
    "openai": FakeListChatModel(responses=["hi from openai"]),
}
prompts_seen = []


def call_model(state: MessagesState, runtime: Runtime[ContextSchema]):
    model = MODELS[runtime.context.model_provider]
    messages = state["messages"]
    if system_message := runtime.context.system_message:
        messages = [SystemMessage(system_message), *messages]
    prompts_seen.append([m.type for m in messages])
    response = model.invoke(messages)
    return {"messages": [response]}


def main():
    builder = StateGraph(MessagesState, context_schema=ContextSchema)
    builder.add_node("model", call_model)
    builder.add_edge("__start__", "model")
    builder.add_edge("model", END)
    graph = builder.compile()

    input_message = {"role": "user", "content": "hi"}
    default = graph.invoke({"messages": [input_message]}, context={"model_provider": "anthropic"})
    openai = graph.invoke({"messages": [input_message]}, context={"model_provider": "openai"})
    with_system = graph.invoke(
        {"messages": [input_message]},
        context={"model_provider": "anthropic", "system_message": "Respond in Italian."},
    )
    return {
        "default": [m.content for m in default["messages"]],
        "openai": [m.content for m in openai["messages"]],
        "with_system": [m.content for m in with_system["messages"]],
        "prompts_seen": prompts_seen,
    }
