"""Edit graph state at a breakpoint: update_state with as_node, then continue.

Source: https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/edit-graph-state/
and the agent variant of it: the graph stops before step_2, the user edits the input
with update_state (as the node that just ran and as another node), and resumes with
invoke(None). The history shows the "update" checkpoints.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    input: str


def step_1(state):
    return {"input": state["input"] + " >1"}


def step_2(state):
    return {"input": state["input"] + " >2"}


def step_3(state):
    return {"input": state["input"] + " >3"}


def main():
    builder = StateGraph(State)
    builder.add_node("step_1", step_1)
    builder.add_node("step_2", step_2)
    builder.add_node("step_3", step_3)
    builder.add_edge(START, "step_1")
    builder.add_edge("step_1", "step_2")
    builder.add_edge("step_2", "step_3")
    builder.add_edge("step_3", END)
    graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=["step_2"])

    thread = {"configurable": {"thread_id": "1"}}
    first = list(graph.stream({"input": "hello world"}, thread, stream_mode="values"))
    before = graph.get_state(thread)
    graph.update_state(thread, {"input": "hello universe!"})
    edited = graph.get_state(thread)
    rest = list(graph.stream(None, thread, stream_mode="values"))

    thread2 = {"configurable": {"thread_id": "2"}}
    graph.invoke({"input": "hi"}, thread2)
    graph.update_state(thread2, {"input": "skipped step 2"}, as_node="step_2")
    skipped = graph.get_state(thread2)
    after_skip = graph.invoke(None, thread2)
    history = [
        (s.metadata["source"], s.metadata["step"], s.next, s.values)
        for s in graph.get_state_history(thread2)
    ]
    return {
        "first": first,
        "before_next": before.next,
        "edited": {
            "values": edited.values,
            "next": edited.next,
            "source": edited.metadata["source"],
            "step": edited.metadata["step"],
        },
        "rest": rest,
        "skipped_next": skipped.next,
        "after_skip": after_skip,
        "history": history,
    }
