"""Several interrupts at once: parallel nodes pause together and are resumed by id.

Source: https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/add-human-in-the-loop/
("Resume multiple interrupts with one invocation"). Two parallel human nodes each
call interrupt(); the caller maps every interrupt id to its answer in one
Command(resume={...}). Also a node that calls interrupt() twice ("Using multiple
interrupts in a single node"), resumed one answer at a time.
"""

from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


def merge(left: dict, right: dict) -> dict:
    return {**left, **right}


class State(TypedDict):
    text_1: str
    text_2: str


def human_node_1(state: State):
    value = interrupt({"text_to_revise": state["text_1"]})
    return {"text_1": value}


def human_node_2(state: State):
    value = interrupt({"text_to_revise": state["text_2"]})
    return {"text_2": value}


class FormState(TypedDict):
    answers: Annotated[dict, merge]


def ask_questions(state: FormState):
    name = interrupt("What is your name?")
    age = interrupt(f"How old are you, {name}?")
    return {"answers": {"name": name, "age": age}}


def main():
    graph_builder = StateGraph(State)
    graph_builder.add_node("human_node_1", human_node_1)
    graph_builder.add_node("human_node_2", human_node_2)
    graph_builder.add_edge(START, "human_node_1")
    graph_builder.add_edge(START, "human_node_2")
    graph = graph_builder.compile(checkpointer=InMemorySaver())

    config = {"configurable": {"thread_id": "parallel"}}
    paused = graph.invoke({"text_1": "original text 1", "text_2": "original text 2"}, config)
    interrupts = sorted(paused["__interrupt__"], key=lambda i: i.value["text_to_revise"])
    resume_map = {
        i.id: f"edited text for {i.value['text_to_revise']}"
        for i in graph.get_state(config).interrupts
    }
    final = graph.invoke(Command(resume=resume_map), config)

    form = StateGraph(FormState).add_node(ask_questions).add_edge(START, "ask_questions")
    form_graph = form.compile(checkpointer=InMemorySaver())
    form_config = {"configurable": {"thread_id": "form"}}
    steps = [form_graph.invoke({"answers": {}}, form_config)]
    steps.append(form_graph.invoke(Command(resume="Ada"), form_config))
    steps.append(form_graph.invoke(Command(resume=36), form_config))
    return {
        "interrupt_values": [i.value for i in interrupts],
        "ids_distinct": len({i.id for i in interrupts}) == 2,
        "state_interrupts": len(graph.get_state(config).interrupts),
        "final": final,
        "form_steps": [
            {k: ([i.value for i in v] if k == "__interrupt__" else v) for k, v in s.items()}
            for s in steps
        ],
    }
