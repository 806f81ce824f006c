"""Stream LLM tokens with stream_mode="messages", filtered by node and by tags.

Source: https://langchain-ai.github.io/langgraph/how-tos/streaming/#messages and
#filter-by-llm-invocation. Two nodes call streaming chat models (fake models that
stream word by word); the caller filters chunks on metadata["langgraph_node"] and on
the model's tags, as the how-to shows.
"""

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

joke_model = GenericFakeChatModel(
    messages=iter(
        [AIMessage("Why did the cat sit on the computer? To keep an eye on the mouse.")] * 3
    ),
    tags=["joke"],
)
poem_model = GenericFakeChatModel(
    messages=iter([AIMessage("Soft paws at dawn, a whiskered yawn.")] * 3),
    tags=["poem"],
)


class State(TypedDict):
    topic: str
    joke: str
    poem: str


def write_joke(state: State):
    joke_response = joke_model.invoke([{"role": "user", "content": f"Joke about {state['topic']}"}])
    return {"joke": joke_response.content}


def write_poem(state: State):
    poem_response = poem_model.invoke([{"role": "user", "content": f"Poem about {state['topic']}"}])
    return {"poem": poem_response.content}


graph = (
    StateGraph(State)
    .add_node(write_joke)
    .add_node(write_poem)
    .add_edge(START, "write_joke")
    .add_edge("write_joke", "write_poem")
    .compile()
)


def main():
    by_node = {}
    metadata_keys = set()
    for msg, metadata in graph.stream({"topic": "cats"}, stream_mode="messages"):
        if msg.content:
            by_node.setdefault(metadata["langgraph_node"], []).append(msg.content)
        metadata_keys.update(k for k in metadata if k.startswith("langgraph_"))
        chunk_type = type(msg).__name__
    tagged = [
        msg.content
        for msg, metadata in graph.stream({"topic": "cats"}, stream_mode="messages")
        if metadata["tags"] == ["joke"]
    ]
    return {
        "by_node": by_node,
        "chunk_type": chunk_type,
        "metadata_keys": sorted(metadata_keys),
        "joke_tagged": tagged,
    }
