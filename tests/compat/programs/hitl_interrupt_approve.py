"""Human-in-the-loop with interrupt(): approve or reject, review and edit state.

Source: https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/add-human-in-the-loop/
(patterns "Approve or reject" and "Review and edit state"). The run pauses at
interrupt(), the caller sees `__interrupt__` in the output and in get_state, and
resumes with Command(resume=...).
"""

import uuid
from typing import Literal

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    llm_output: str
    decision: str


def generate_llm_output(state: State) -> State:
    return {"llm_output": "This is the generated output."}


def human_approval(state: State) -> Command[Literal["approved_path", "rejected_path"]]:
    decision = interrupt(
        {
            "question": "Do you approve the following output?",
            "llm_output": state["llm_output"],
        }
    )
    if decision == "approve":
        return Command(goto="approved_path", update={"decision": "approved"})
    return Command(goto="rejected_path", update={"decision": "rejected"})


def approved_node(state: State) -> State:
    return state


def rejected_node(state: State) -> State:
    return state


def approval_graph():
    builder = StateGraph(State)
    builder.add_node("generate_llm_output", generate_llm_output)
    builder.add_node("human_approval", human_approval)
    builder.add_node("approved_path", approved_node)
    builder.add_node("rejected_path", rejected_node)
    builder.set_entry_point("generate_llm_output")
    builder.add_edge("generate_llm_output", "human_approval")
    builder.add_edge("approved_path", END)
    builder.add_edge("rejected_path", END)
    return builder.compile(checkpointer=InMemorySaver())


class SummaryState(TypedDict):
    summary: str


def generate_summary(state: SummaryState) -> SummaryState:
    return {"summary": "The cat sat on the mat and looked at the stars."}


def human_review_edit(state: SummaryState) -> SummaryState:
    result = interrupt(
        {
            "task": "Please review and edit the generated summary if necessary.",
            "generated_summary": state["summary"],
        }
    )
    return {"summary": result["edited_summary"]}


def downstream_use(state: SummaryState) -> SummaryState:
    return {}


def edit_graph():
    builder = StateGraph(SummaryState)
    builder.add_node("generate_summary", generate_summary)
    builder.add_node("human_review_edit", human_review_edit)
    builder.add_node("downstream_use", downstream_use)
    builder.set_entry_point("generate_summary")
    builder.add_edge("generate_summary", "human_review_edit")
    builder.add_edge("human_review_edit", "downstream_use")
    builder.add_edge("downstream_use", END)
    return builder.compile(checkpointer=InMemorySaver())


def main():
    out = {}
    for decision in ("approve", "reject"):
        graph = approval_graph()
        config = {"configurable": {"thread_id": uuid.uuid4()}}
        paused = graph.invoke({}, config=config)
        state = graph.get_state(config)
        final = graph.invoke(Command(resume=decision), config=config)
        out[decision] = {
            "paused": paused,
            "interrupt_values": [i.value for i in paused["__interrupt__"]],
            "next": state.next,
            "task_interrupts": [[i.value for i in t.interrupts] for t in state.tasks],
            "final": final,
            "final_next": graph.get_state(config).next,
        }

    graph = edit_graph()
    config = {"configurable": {"thread_id": "edit"}}
    chunks = list(graph.stream({"summary": ""}, config=config))
    resumed = list(
        graph.stream(
            Command(resume={"edited_summary": "The edited summary: cat on mat."}),
            config=config,
        )
    )
    out["review_edit"] = {"chunks": chunks, "resumed": resumed}
    return out
