"""deepagents' create_deep_agent: writing, reading and editing files, a sub-agent.

Source: https://docs.langchain.com/oss/python/deepagents/overview (filesystem tools,
subagents). The agent's files live in its graph state (the default state backend,
which writes through CONFIG_KEY_SEND and reads through CONFIG_KEY_READ from inside the
tools). A fake model writes a file, reads it back, edits it, lists the directory and
delegates a summary to a sub-agent with its own fake model; the sub-agent reads the
parent's file and writes one of its own, which comes back into the parent's state.
Streamed as a v3 run, the sub-agent is a named handle on `run.subagents`.
"""

from typing import Any

from deepagents import create_deep_agent
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver

seen = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools records the tool names."""

    label: str
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        seen.append((self.label, [m.type for m in messages], messages[-1].content))
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def build():
    main_model = FakeToolCallingModel(
        label="main",
        responses=[
            AIMessage(
                "",
                id="m-1",
                tool_calls=[
                    call(
                        "write_file",
                        {"file_path": "/notes.md", "content": "foldgraph runs deep agents\n"},
                        "c1",
                    )
                ],
            ),
            AIMessage(
                "", id="m-2", tool_calls=[call("read_file", {"file_path": "/notes.md"}, "c2")]
            ),
            AIMessage(
                "",
                id="m-3",
                tool_calls=[
                    call(
                        "edit_file",
                        {"file_path": "/notes.md", "old_string": "runs", "new_string": "can run"},
                        "c3",
                    )
                ],
            ),
            AIMessage(
                "",
                id="m-4",
                tool_calls=[
                    call(
                        "task",
                        {
                            "description": "Summarise /notes.md into /summary.md",
                            "subagent_type": "summariser",
                        },
                        "c4",
                    )
                ],
            ),
            AIMessage("", id="m-5", tool_calls=[call("ls", {"path": "/"}, "c5")]),
            AIMessage("Notes written and summarised.", id="m-6"),
        ],
    )
    sub_model = FakeToolCallingModel(
        label="summariser",
        responses=[
            AIMessage(
                "", id="s-1", tool_calls=[call("read_file", {"file_path": "/notes.md"}, "d1")]
            ),
            AIMessage(
                "",
                id="s-2",
                tool_calls=[
                    call(
                        "write_file",
                        {"file_path": "/summary.md", "content": "deep agents: yes\n"},
                        "d2",
                    )
                ],
            ),
            AIMessage("Summary written to /summary.md.", id="s-3"),
        ],
    )
    return create_deep_agent(
        model=main_model,
        system_prompt="You keep notes.",
        subagents=[
            {
                "name": "summariser",
                "description": "Summarises a file into another file.",
                "system_prompt": "You summarise files.",
                "model": sub_model,
            }
        ],
        checkpointer=InMemorySaver(),
    )


def main():
    agent = build()
    config = {"configurable": {"thread_id": "1"}, "recursion_limit": 50}
    result = agent.invoke({"messages": [HumanMessage("Take notes", id="h1")]}, config)
    state = agent.get_state(config)
    files = {
        path: {"content": data.get("content")}
        for path, data in state.values.get("files", {}).items()
    }
    # The same run as a v3 run stream: the sub-agent shows as a named handle on
    # run.subagents, with the tool call that started it.
    seen.clear()
    run = build().stream_events(
        {"messages": [HumanMessage("Take notes", id="h1")]},
        {"configurable": {"thread_id": "2"}, "recursion_limit": 50},
        version="v3",
    )
    subagents = [
        {"name": h.name, "cause": h.cause, "path": [p.split(":")[0] for p in h.path]}
        for h in run.subagents
    ]
    return {
        "subagents": subagents,
        "messages": result["messages"],
        "files": files,
        "state_keys": sorted(state.values),
        "seen": seen,
        "steps": len(list(agent.get_state_history(config))),
    }
