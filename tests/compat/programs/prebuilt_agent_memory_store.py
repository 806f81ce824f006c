"""Prebuilt agent memory: short-term (checkpointer) and long-term (store via get_store) memory.

Source: https://langchain-ai.github.io/langgraph/agents/memory/ ("Long-term memory":
tools that read and write the store with get_store(), and a dynamic prompt reading
the config). The agent saves user info with one tool and reads it with another in
a later thread. The model is a fake tool-calling chat model.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_store
from langgraph.prebuilt import create_react_agent
from langgraph.prebuilt.chat_agent_executor import AgentState
from langgraph.store.memory import InMemoryStore
from typing_extensions import TypedDict

prompts = []


class FakeToolCallingModel(BaseChatModel):
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        prompts.append([(m.type, m.content) for m in messages][:1])
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


class UserInfo(TypedDict):
    name: str


def save_user_info(user_info: UserInfo, config: RunnableConfig) -> str:
    """Save user info."""
    store = get_store()
    user_id = config["configurable"].get("user_id")
    store.put(("users",), user_id, user_info)
    return "Successfully saved user info."


def get_user_info(config: RunnableConfig) -> str:
    """Look up user info."""
    store = get_store()
    user_id = config["configurable"].get("user_id")
    user_info = store.get(("users",), user_id)
    return str(user_info.value) if user_info else "Unknown user"


def prompt(state: AgentState, config: RunnableConfig) -> list:
    user_name = config["configurable"].get("user_name")
    system_msg = f"You are a helpful assistant. Address the user as {user_name}."
    return [{"role": "system", "content": system_msg}, *state["messages"]]


def main():
    store = InMemoryStore()
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "",
                tool_calls=[
                    {
                        "name": "save_user_info",
                        "id": "s1",
                        "args": {"user_info": {"name": "John Smith"}},
                    }
                ],
            ),
            AIMessage("Saved."),
            AIMessage("", tool_calls=[{"name": "get_user_info", "args": {}, "id": "g1"}]),
            AIMessage("You are John Smith."),
        ]
    )
    agent = create_react_agent(
        model=model,
        tools=[save_user_info, get_user_info],
        prompt=prompt,
        store=store,
        checkpointer=InMemorySaver(),
    )
    first = agent.invoke(
        {"messages": [{"role": "user", "content": "My name is John Smith"}]},
        config={"configurable": {"user_id": "user_123", "thread_id": "1", "user_name": "John"}},
    )
    second = agent.invoke(
        {"messages": [{"role": "user", "content": "look up user information"}]},
        config={"configurable": {"user_id": "user_123", "thread_id": "2", "user_name": "J"}},
    )
    return {
        "first": [(m.type, m.content) for m in first["messages"]],
        "second": [(m.type, m.content) for m in second["messages"]],
        "stored": store.get(("users",), "user_123").value,
        "prompts": prompts,
    }
