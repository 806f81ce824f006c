"""Static breakpoints: interrupt_before / interrupt_after at compile time and at run time.

Source: https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/breakpoints/
A three-step graph paused before step_3; the caller inspects the state, resumes with
invoke(None), and the same with breakpoints passed to invoke and interrupt_after.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    input: str


def step_1(state):
    return {"input": state["input"] + " 1"}


def step_2(state):
    return {"input": state["input"] + " 2"}


def step_3(state):
    return {"input": state["input"] + " 3"}


def build():
    builder = StateGraph(State)
    builder.add_node("step_1", step_1)
    builder.add_node("step_2", step_2)
    builder.add_node("step_3", step_3)
    builder.add_edge(START, "step_1")
    builder.add_edge("step_1", "step_2")
    builder.add_edge("step_2", "step_3")
    builder.add_edge("step_3", END)
    return builder


def main():
    graph = build().compile(checkpointer=InMemorySaver(), interrupt_before=["step_3"])
    config = {"configurable": {"thread_id": "1"}}
    first = list(graph.stream({"input": "hello world"}, config, stream_mode="values"))
    paused = graph.get_state(config)
    resumed = list(graph.stream(None, config, stream_mode="values"))

    runtime = build().compile(checkpointer=InMemorySaver())
    config2 = {"configurable": {"thread_id": "2"}}
    out_before = runtime.invoke({"input": "hi"}, config2, interrupt_before=["step_2"])
    next_before = runtime.get_state(config2).next
    out_after = runtime.invoke(None, config2, interrupt_after=["step_2"])
    next_after = runtime.get_state(config2).next
    out_end = runtime.invoke(None, config2)
    return {
        "first": first,
        "paused_next": paused.next,
        "paused_values": paused.values,
        "resumed": resumed,
        "runtime": {
            "before": out_before,
            "next_before": next_before,
            "after": out_after,
            "next_after": next_after,
            "end": out_end,
            "end_next": runtime.get_state(config2).next,
        },
    }
