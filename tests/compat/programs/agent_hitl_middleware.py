"""HumanInTheLoopMiddleware: tool calls paused for review, then approved, edited, rejected.

Source: https://docs.langchain.com/oss/python/langchain/human-in-the-loop. The agent
asks for three tools at once; two are configured to interrupt. The run stops with one
interrupt listing both action requests; the resume approves one call and edits the
other's arguments (the tool runs with the edited ones). A second turn is rejected with
a message, which the model sees.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

prompts = []
ran = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        prompts.append([(m.type, m.content) for m in messages])
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


@tool
def send_email(to: str, body: str) -> str:
    """Send an email."""
    ran.append(("send_email", to, body))
    return f"sent to {to}: {body}"


@tool
def delete_file(path: str) -> str:
    """Delete a file."""
    ran.append(("delete_file", path))
    return f"deleted {path}"


@tool
def read_file(path: str) -> str:
    """Read a file."""
    ran.append(("read_file", path))
    return f"contents of {path}"


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "",
                id="ai-1",
                tool_calls=[
                    call("send_email", {"to": "bob@x.org", "body": "hi"}, "c1"),
                    call("delete_file", {"path": "/tmp/a"}, "c2"),
                    call("read_file", {"path": "/tmp/b"}, "c3"),
                ],
            ),
            AIMessage("Done.", id="ai-2"),
            AIMessage("", id="ai-3", tool_calls=[call("delete_file", {"path": "/etc"}, "c4")]),
            AIMessage("Understood, not deleting.", id="ai-4"),
        ]
    )
    hitl = HumanInTheLoopMiddleware(
        interrupt_on={
            "send_email": True,
            "delete_file": {"allowed_decisions": ["approve", "reject"]},
            "read_file": False,
        },
        description_prefix="Tool execution pending approval",
    )
    agent = create_agent(
        model,
        tools=[send_email, delete_file, read_file],
        middleware=[hitl],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}
    paused = agent.invoke({"messages": [HumanMessage("clean up", id="h1")]}, config)
    state = agent.get_state(config)
    waiting = {
        "next": state.next,
        "interrupts": [(t.name, t.interrupts) for t in state.tasks],
        "top_interrupts": state.interrupts,
    }
    resumed = agent.invoke(
        Command(
            resume={
                "decisions": [
                    {
                        "type": "edit",
                        "edited_action": {
                            "name": "send_email",
                            "args": {"to": "alice@x.org", "body": "hello"},
                        },
                    },
                    {"type": "approve"},
                ]
            }
        ),
        config,
    )
    second = agent.invoke({"messages": [HumanMessage("delete /etc", id="h2")]}, config)
    rejected = list(
        agent.stream(
            Command(resume={"decisions": [{"type": "reject", "message": "never /etc"}]}),
            config,
            stream_mode="updates",
        )
    )
    bad = None
    agent.invoke(
        {"messages": [HumanMessage("clean up again", id="h3")]},
        {"configurable": {"thread_id": "2"}},
    )
    try:
        agent.invoke(
            Command(resume={"decisions": [{"type": "approve"}]}),
            {"configurable": {"thread_id": "2"}},
        )
    except Exception as exc:  # one decision for two pending requests
        bad = exc
    return {
        "paused": paused,
        "waiting": waiting,
        "resumed": resumed,
        "second": second,
        "rejected": rejected,
        "ran": sorted(ran),  # parallel tool calls finish in any order
        "prompts": prompts,
        "wrong_number_of_decisions": bad,
    }
