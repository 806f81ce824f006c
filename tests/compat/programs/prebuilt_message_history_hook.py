"""Manage message history in the prebuilt agent: a pre_model_hook that trims messages.

Source: https://langchain-ai.github.io/langgraph/how-tos/create-react-agent-manage-message-history/
The hook returns llm_input_messages (trimmed with trim_messages, keeping the last
messages by count), so the model sees a short window while the state keeps every
message. The model is a fake that reports how many messages it received.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.messages.utils import trim_messages
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent


class CountingModel(BaseChatModel):
    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        kinds = "".join(m.type[0] for m in messages)
        text = f"saw {len(messages)} ({kinds}), first: {messages[0].content[:12]}"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text))])

    @property
    def _llm_type(self) -> str:
        return "counting"

    def bind_tools(self, tools, **kwargs: Any):
        return self


def pre_model_hook(state):
    trimmed_messages = trim_messages(
        state["messages"],
        strategy="last",
        token_counter=len,
        max_tokens=3,
        start_on="human",
        end_on=("human", "tool"),
    )
    return {"llm_input_messages": trimmed_messages}


def main():
    agent = create_react_agent(
        CountingModel(), tools=[], pre_model_hook=pre_model_hook, checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": "1"}}
    replies = []
    for text in ["hi", "my name is bob", "what's my name?", "and again?"]:
        out = agent.invoke({"messages": [{"role": "user", "content": text}]}, config)
        replies.append(out["messages"][-1].content)
    return {
        "replies": replies,
        "kept": len(agent.get_state(config).values["messages"]),
        "nodes": sorted(agent.get_graph().nodes),
    }
