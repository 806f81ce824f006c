"""Functional API: entrypoint and task, with a checkpointer, interrupt and previous.

Source: https://langchain-ai.github.io/langgraph/concepts/functional_api/ and
how-tos/use-functional-api. An essay workflow: a task writes the essay, the
entrypoint interrupts for review, and resuming with Command(resume=...) finishes it;
a second entrypoint keeps a running total through `previous` and entrypoint.final.
"""

import time

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import Command, interrupt


@task
def write_essay(topic: str) -> str:
    """Write an essay about the given topic."""
    time.sleep(0.01)
    return f"An essay about topic: {topic}"


@entrypoint(checkpointer=InMemorySaver())
def workflow(topic: str) -> dict:
    essay = write_essay(topic).result()
    is_approved = interrupt({"essay": essay, "action": "Please approve/reject the essay"})
    return {"essay": essay, "is_approved": is_approved}


@entrypoint(checkpointer=InMemorySaver())
def accumulate(n: int, *, previous: int | None = None) -> entrypoint.final[int, int]:
    previous = previous or 0
    total = previous + n
    return entrypoint.final(value=previous, save=total)


def main():
    config = {"configurable": {"thread_id": "essay"}}
    first = list(workflow.stream("cat", config))
    resumed = list(workflow.stream(Command(resume=True), config))

    acc_config = {"configurable": {"thread_id": "acc"}}
    returned = [accumulate.invoke(n, acc_config) for n in (1, 2, 3)]
    return {
        "first": first,
        "resumed": resumed,
        "final_state_values": workflow.get_state(config).values,
        "accumulate_returned": returned,
        "accumulate_saved": accumulate.get_state(acc_config).values,
    }
