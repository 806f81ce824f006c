"""Example 5: a ReAct agent with tools (`create_react_agent`), streaming its tokens.

What it shows: the prebuilt agent loop (model -> tools -> model ...) with two tools the
model calls in one turn, run with `stream_mode="messages"`, so the reply arrives token by
token as the model produces it, and the tool calls and tool results arrive as messages
too. Each chunk comes with metadata saying which node produced it.

Run it:
    python examples/05_react_agent.py

The chat model is langchain-core's offline `GenericFakeChatModel` following a script, with
the two things a tool-calling model needs (`bind_tools`, and streamed tool-call chunks);
replace it with any tool-calling chat model (ChatOpenAI, ChatAnthropic, ...).
"""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.prebuilt import create_react_agent


class ScriptedToolModel(GenericFakeChatModel):
    """Answers from `messages`, streaming the text word by word and then its tool calls."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedToolModel:
        return self

    def _stream(self, messages, stop=None, run_manager=None, **kwargs: Any):
        reply = next(self.messages)
        for word in re.split(r"(\s)", reply.content) if reply.content else []:
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=word, id=reply.id))
            if run_manager:
                run_manager.on_llm_new_token(word, chunk=chunk)
            yield chunk
        if reply.tool_calls:
            calls = [
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(reply.tool_calls)
            ]
            yield ChatGenerationChunk(
                message=AIMessageChunk(content="", tool_call_chunks=calls, id=reply.id)
            )


def get_weather(city: str) -> str:
    """The weather in a city, in degrees Celsius."""
    return {"Lisbon": "sunny, 24 C", "Oslo": "snow, -3 C"}.get(city, "unknown")


def local_time(city: str) -> str:
    """The local time in a city."""
    return {"Lisbon": "14:05", "Oslo": "15:05"}.get(city, "unknown")


SCRIPT = [
    AIMessage(
        "Let me check both.",
        id="ai-1",
        tool_calls=[
            {"name": "get_weather", "args": {"city": "Oslo"}, "id": "call-1"},
            {"name": "local_time", "args": {"city": "Oslo"}, "id": "call-2"},
        ],
    ),
    AIMessage("It is 15:05 in Oslo, with snow at -3 C: take a warm coat.", id="ai-2"),
]


def build():
    # LangGraph 1.0 deprecated create_react_agent in favour of langchain's create_agent
    # (which runs on foldgraph too, through foldgraph.alias); both warn alike.
    warnings.filterwarnings("ignore", "create_react_agent has been moved")
    model = ScriptedToolModel(messages=iter(SCRIPT))
    return create_react_agent(model, [get_weather, local_time], checkpointer=InMemorySaver())


def main() -> None:
    agent = build()
    config = {"configurable": {"thread_id": "weather"}}
    question = {"messages": [("user", "What should I wear in Oslo right now?")]}
    print("Streaming (stream_mode='messages'):", end="")
    line = None  # the node whose tokens the current line shows
    tokens = 0
    for chunk, metadata in agent.stream(question, config, stream_mode="messages"):
        node = metadata["langgraph_node"]
        if chunk.type == "tool":  # a tool's result, as each call finishes (the two
            # calls run at once, so which result comes first can vary)
            print(f"\n[{node}] {chunk.name} -> {chunk.content!r}", end="")
            line = None
            continue
        if chunk.content:  # one token of the model's reply
            if line != node:
                print(f"\n[{node}] ", end="")
                line = node
            print(chunk.content, end="", flush=True)
            tokens += 1
        for call in chunk.tool_call_chunks:
            print(f" <call {call['name']}({call['args']})>", end="")
    print(f"\n(the model's two replies arrived as {tokens} token chunks)")
    print("The thread now holds:")
    for message in agent.get_state(config).values["messages"]:
        calls = [c["name"] for c in getattr(message, "tool_calls", [])]
        print(f"   {message.type:<5} {message.content!r}" + (f" calls {calls}" if calls else ""))


if __name__ == "__main__":
    main()
