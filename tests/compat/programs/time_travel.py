"""Time travel: replay and fork from a past checkpoint.

Source: https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/time-travel/
The joke workflow (generate_topic -> write_joke) with fake LLM output: run it,
walk get_state_history, fork the checkpoint before write_joke with update_state
(a new topic), and resume from the fork.
"""

import uuid
from typing import NotRequired

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    topic: NotRequired[str]
    joke: NotRequired[str]


def generate_topic(state: State):
    return {"topic": "socks in the dryer"}


def write_joke(state: State):
    return {"joke": f"Why do {state['topic']} vanish? They elope with the lint."}


def main():
    workflow = StateGraph(State)
    workflow.add_node("generate_topic", generate_topic)
    workflow.add_node("write_joke", write_joke)
    workflow.add_edge(START, "generate_topic")
    workflow.add_edge("generate_topic", "write_joke")
    workflow.add_edge("write_joke", END)
    graph = workflow.compile(checkpointer=InMemorySaver())

    config = {"configurable": {"thread_id": uuid.uuid4()}}
    state = graph.invoke({}, config)

    states = list(graph.get_state_history(config))
    history = [
        {
            "next": s.next,
            "step": s.metadata["step"],
            "source": s.metadata["source"],
            "values": s.values,
        }
        for s in states
    ]
    selected_state = states[1]
    new_config = graph.update_state(selected_state.config, values={"topic": "chickens"})
    forked = graph.invoke(None, new_config)
    replayed = list(graph.stream(None, states[2].config, stream_mode="updates"))
    after = list(graph.get_state_history(config))
    return {
        "first_run": state,
        "history": history,
        "selected_next": selected_state.next,
        "fork_checkpoint_differs": new_config["configurable"]["checkpoint_id"]
        != selected_state.config["configurable"]["checkpoint_id"],
        "forked": forked,
        "replayed_updates": replayed,
        "history_len_after": len(after),
        "latest_after": graph.get_state(config).values,
        "sources_after": [s.metadata["source"] for s in after],
    }
