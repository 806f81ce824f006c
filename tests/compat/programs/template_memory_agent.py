"""The memory-agent template (langchain-ai/memory-agent): long-term memory in a store.

Source: https://github.com/langchain-ai/memory-agent (src/memory_agent/graph.py,
tools.py, state.py, context.py). call_model searches the user's memories in the
store given through Runtime, and the model calls upsert_memory, which store_memory
runs concurrently. The model is a deterministic fake; the store an InMemoryStore
without an embedding index.
"""

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Annotated, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, StateGraph
from langgraph.graph.message import add_messages
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

SYSTEM_PROMPT = """You are a helpful and friendly chatbot. Get to know the user! \
Ask questions! Be spontaneous!
{user_info}"""

system_prompts = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        system_prompts.append(messages[0].content)
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


llm = FakeToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "upsert_memory",
                    "args": {
                        "content": "User likes pizza",
                        "context": "said so",
                        "memory_id": "pizza",
                    },
                    "id": "call_1",
                }
            ],
        ),
        AIMessage("Noted, you like pizza!"),
        AIMessage("You like pizza."),
    ]
)


@dataclass(kw_only=True)
class Context:
    user_id: str = "default"
    model: str = "anthropic/claude-3-5-sonnet-20240620"
    system_prompt: str = SYSTEM_PROMPT


@dataclass(kw_only=True)
class State:
    messages: Annotated[list[AnyMessage], add_messages] = field(default_factory=list)


async def upsert_memory(
    content: str, context: str, *, memory_id: str | None = None, user_id: str, store: BaseStore
):
    """Upsert a memory in the database."""
    mem_id = memory_id or uuid.uuid4()
    await store.aput(
        ("memories", user_id), key=str(mem_id), value={"content": content, "context": context}
    )
    return f"Stored memory {mem_id}"


async def call_model(state: State, runtime: Runtime[Context]) -> dict:
    user_id = runtime.context.user_id
    memories = await runtime.store.asearch(
        ("memories", user_id),
        query=str([m.content for m in state.messages[-3:]]),
        limit=10,
    )
    formatted = "\n".join(f"[{mem.key}]: {mem.value} (similarity: {mem.score})" for mem in memories)
    if formatted:
        formatted = f"""
<memories>
{formatted}
</memories>"""
    sys = runtime.context.system_prompt.format(user_info=formatted)
    msg = await llm.bind_tools([upsert_memory]).ainvoke(
        [{"role": "system", "content": sys}, *state.messages]
    )
    return {"messages": [msg]}


async def store_memory(state: State, runtime: Runtime[Context]):
    tool_calls = getattr(state.messages[-1], "tool_calls", [])
    saved_memories = await asyncio.gather(
        *(
            upsert_memory(**tc["args"], user_id=runtime.context.user_id, store=runtime.store)
            for tc in tool_calls
        )
    )
    results = [
        {"role": "tool", "content": mem, "tool_call_id": tc["id"]}
        for tc, mem in zip(tool_calls, saved_memories, strict=True)
    ]
    return {"messages": results}


def route_message(state: State):
    msg = state.messages[-1]
    if getattr(msg, "tool_calls", None):
        return "store_memory"
    return END


builder = StateGraph(State, context_schema=Context)
builder.add_node(call_model)
builder.add_edge("__start__", "call_model")
builder.add_node(store_memory)
builder.add_conditional_edges("call_model", route_message, ["store_memory", END])
builder.add_edge("store_memory", "call_model")


async def main():
    store = InMemoryStore()
    graph = builder.compile(checkpointer=InMemorySaver(), store=store)
    graph.name = "MemoryAgent"
    context = Context(user_id="user-1")
    first = await graph.ainvoke(
        {"messages": [("user", "I love pizza")]},
        {"configurable": {"thread_id": "a"}},
        context=context,
    )
    second = await graph.ainvoke(
        {"messages": [("user", "What do I like?")]},
        {"configurable": {"thread_id": "b"}},
        context=context,
    )
    items = store.search(("memories", "user-1"))
    return {
        "first": [(m.type, m.content) for m in first["messages"]],
        "second": [(m.type, m.content) for m in second["messages"]],
        "system_prompts": system_prompts,
        "stored": [(i.namespace, i.key, i.value) for i in items],
    }
