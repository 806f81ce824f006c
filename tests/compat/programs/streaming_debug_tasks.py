"""Stream modes checkpoints, tasks and debug, and durability="exit".

Source: https://langchain-ai.github.io/langgraph/how-tos/streaming/#debug and
concepts/durable_execution/#durability-modes. The debug stream mixes checkpoint,
task and task_result events; with durability="exit" the history keeps only the
checkpoints written at the end.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    topic: str
    joke: str


def refine_topic(state: State):
    return {"topic": state["topic"] + " and cats"}


def generate_joke(state: State):
    return {"joke": f"This is a joke about {state['topic']}"}


def summarize(event):
    payload = event["payload"]
    if event["type"] == "checkpoint":
        detail = {
            "values": payload["values"],
            "next": payload["next"],
            "source": payload["metadata"]["source"],
            "step": payload["metadata"]["step"],
        }
    elif event["type"] == "task":
        detail = {
            "name": payload["name"],
            "input": payload["input"],
            "triggers": payload["triggers"],
        }
    else:
        detail = {
            "name": payload["name"],
            "result": payload["result"],
            "error": payload.get("error"),
        }
    return {"type": event["type"], "step": event["step"], **detail}


def main():
    builder = StateGraph(State)
    builder.add_node(refine_topic)
    builder.add_node(generate_joke)
    builder.add_edge(START, "refine_topic")
    builder.add_edge("refine_topic", "generate_joke")
    graph = builder.compile(checkpointer=InMemorySaver())

    debug = [
        summarize(e)
        for e in graph.stream(
            {"topic": "ice cream"}, {"configurable": {"thread_id": "d"}}, stream_mode="debug"
        )
    ]
    tasks = [
        {k: v for k, v in t.items() if k in ("name", "input", "result", "error", "triggers")}
        for t in graph.stream(
            {"topic": "ice cream"}, {"configurable": {"thread_id": "t"}}, stream_mode="tasks"
        )
    ]
    checkpoints = [
        {"values": c["values"], "next": c["next"], "step": c["metadata"]["step"]}
        for c in graph.stream(
            {"topic": "ice cream"}, {"configurable": {"thread_id": "c"}}, stream_mode="checkpoints"
        )
    ]
    graph.invoke({"topic": "x"}, {"configurable": {"thread_id": "exit"}}, durability="exit")
    exit_history = [
        (s.metadata["step"], s.next)
        for s in graph.get_state_history({"configurable": {"thread_id": "exit"}})
    ]
    return {
        "debug": debug,
        "tasks": tasks,
        "checkpoints": checkpoints,
        "exit_history": exit_history,
    }
