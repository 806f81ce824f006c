"""Command(goto=Send(...)) fan-out from a node, and Overwrite past a reducer.

Sources: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#combine-control-flow-and-state-updates-with-command
(Command with goto=Send for map-reduce) and the Overwrite section of
https://langchain-ai.github.io/langgraph/how-tos/graph-api/#bypass-reducers-with-overwrite .
An orchestrator routes one Send per subject with Command; workers append to a list
with a reducer; a reset node replaces the list with Overwrite (also in its JSON form
{"__overwrite__": ...}), and update_state can overwrite too.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, Overwrite, Send
from typing_extensions import TypedDict


class State(TypedDict):
    subjects: list[str]
    jokes: Annotated[list[str], operator.add]
    rounds: int


class WorkerInput(TypedDict):
    subject: str


def orchestrator(state: State):
    return Command(
        update={"rounds": state.get("rounds", 0) + 1},
        goto=[Send("write_joke", {"subject": s}) for s in state["subjects"]],
    )


def single(state: State):
    return Command(goto=Send("write_joke", {"subject": "solo " + state["subjects"][0]}))


def write_joke(state: WorkerInput):
    return {"jokes": [f"joke about {state['subject']}"]}


def reset(state: State):
    return {"jokes": Overwrite([f"{len(state['jokes'])} jokes collected"])}


def reset_json(state: State):
    return {"jokes": {"__overwrite__": ["json overwrite"]}}


def build(after_jokes):
    builder = StateGraph(State)
    builder.add_node("orchestrator", orchestrator, destinations=("write_joke",))
    builder.add_node("write_joke", write_joke)
    builder.add_node("reset", reset)
    builder.add_node("reset_json", reset_json)
    builder.add_edge(START, "orchestrator")
    builder.add_edge("write_joke", after_jokes)
    builder.add_edge("reset", END)
    builder.add_edge("reset_json", END)
    return builder.compile(checkpointer=InMemorySaver())


def main():
    graph = build("reset")
    config = {"configurable": {"thread_id": "1"}}
    inputs = {"subjects": ["cats", "dogs", "owls"], "jokes": ["old"], "rounds": 0}
    updates = list(graph.stream(inputs, config, stream_mode="updates"))
    final = graph.get_state(config).values

    graph.update_state(config, {"jokes": Overwrite(["via update_state"])})
    after_update = graph.get_state(config).values["jokes"]
    graph.update_state(config, {"jokes": ["appended"]})
    appended = graph.get_state(config).values["jokes"]

    json_graph = build("reset_json")
    json_final = json_graph.invoke(inputs, {"configurable": {"thread_id": "2"}})

    single_graph = (
        StateGraph(State)
        .add_node("single", single)
        .add_node("write_joke", write_joke)
        .add_edge(START, "single")
        .compile()
    )
    single_out = single_graph.invoke({"subjects": ["bees"], "jokes": [], "rounds": 0})

    tasks = []
    for part in graph.stream(inputs, {"configurable": {"thread_id": "3"}}, stream_mode="tasks"):
        if "result" not in part:
            tasks.append((part["name"], part["input"], part["triggers"]))
    return {
        "updates": updates,
        "final": final,
        "after_update": after_update,
        "appended": appended,
        "json_final": json_final,
        "single": single_out,
        "tasks": tasks,
    }
