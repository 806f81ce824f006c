"""Example 6: multi-agent hand-off with `Command(goto=..., graph=Command.PARENT)`.

What it shows: two agents, each its own subgraph, as nodes of a parent graph. When the
triage agent sees a billing question, a node inside it returns
`Command(goto="billing", graph=Command.PARENT, update=...)`: the update is applied to the
parent's state and the parent runs the billing agent next. The parent remembers who is
active, so the next turn on the thread goes straight to billing. `stream(subgraphs=True)`
shows each update with the namespace it came from: the hand-off note is an update of the
parent (made as its `triage` node), the billing answers come from inside the billing agent.

Run it:
    python examples/06_handoff.py
"""

from __future__ import annotations

from typing import Annotated

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.graph.message import add_messages
from foldgraph.types import Command


class Conversation(TypedDict):
    messages: Annotated[list, add_messages]
    active_agent: str


# What each agent's model answers to each question (offline, repeatable).
SCRIPTS = {
    "triage": {"My invoice charges me twice.": "HANDOFF billing"},
    "billing": {
        "My invoice charges me twice.": "I see two charges of 40 EUR; I refunded one.",
        "Thanks! When will I see it?": "Within three working days.",
    },
}


def make_agent(name: str):
    """An agent as a subgraph: one node asking its model, which may hand the user off."""

    def respond(state: Conversation) -> Command | dict:
        question = next(m.content for m in reversed(state["messages"]) if m.type == "human")
        model = FakeListChatModel(responses=[SCRIPTS[name][question]])
        reply = model.invoke(state["messages"]).content
        if reply.startswith("HANDOFF "):
            target = reply.split()[1]
            note = AIMessage(f"Passing you to {target}.", name=name)
            return Command(
                goto=target,  # a node of the parent graph...
                graph=Command.PARENT,  # ...so the parent, not this subgraph, goes there
                update={"messages": [note], "active_agent": target},
            )
        return {"messages": [AIMessage(reply, name=name)]}

    agent = StateGraph(Conversation)
    agent.add_node("respond", respond)
    agent.add_edge(START, "respond")
    return agent.compile()


def resume_with_active(state: Conversation) -> str:
    return state.get("active_agent") or "triage"


builder = StateGraph(Conversation)
builder.add_node("triage", make_agent("triage"), destinations=("billing",))
builder.add_node("billing", make_agent("billing"))
builder.add_conditional_edges(START, resume_with_active, ["triage", "billing"])
graph = builder.compile(checkpointer=InMemorySaver())


def turn(text: str, config: dict, shown: set[str]) -> None:
    """One user turn, printing each new message once, with the namespace it came from
    (a subgraph's output repeats the conversation to its parent)."""
    print(f"user: {text}")
    for namespace, update in graph.stream(
        {"messages": [("user", text)]}, config, stream_mode="updates", subgraphs=True
    ):
        where = "/".join(part.split(":")[0] for part in namespace) or "parent"
        for node, values in update.items():
            for message in (values or {}).get("messages", []):
                if message.type == "ai" and message.id not in shown:
                    shown.add(message.id)
                    print(f"   [{where}] {node}: {message.content}")


def main() -> None:
    config = {"configurable": {"thread_id": "customer-7"}}
    shown: set[str] = set()
    turn("My invoice charges me twice.", config, shown)
    turn("Thanks! When will I see it?", config, shown)
    state = graph.get_state(config).values
    print(f"active agent: {state['active_agent']}; {len(state['messages'])} messages kept")


if __name__ == "__main__":
    main()
