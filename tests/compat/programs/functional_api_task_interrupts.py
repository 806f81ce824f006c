"""Functional API: interrupts inside tasks, several interrupts resumed at once, state.

Sources: https://langchain-ai.github.io/langgraph/how-tos/use-functional-api/
("Human-in-the-loop", "Resuming after an error", "Short-term memory") and
https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/add-human-in-the-loop/
(resuming multiple interrupts with a map of interrupt ids). Tasks call interrupt()
themselves; finished tasks are not re-run on resume; entrypoint.final saves a
different value than it returns; get_state and the history show the entrypoint's
snapshots, and stream modes show the task updates.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import Command, interrupt

calls = []


@task
def draft(topic: str) -> str:
    calls.append(f"draft {topic}")
    return f"draft on {topic}"


@task
def review(text: str, reviewer: str) -> str:
    calls.append(f"review {reviewer}")
    verdict = interrupt({"reviewer": reviewer, "text": text})
    return f"{reviewer}: {verdict}"


@entrypoint(checkpointer=InMemorySaver())
def workflow(topic: str, *, previous: list | None = None) -> entrypoint.final[str, list]:
    text = draft(topic).result()
    verdicts = [f.result() for f in [review(text, "alice"), review(text, "bob")]]
    history = (previous or []) + verdicts
    return entrypoint.final(value=" | ".join(verdicts), save=history)


@entrypoint(checkpointer=InMemorySaver())
def counter(step: int, *, previous: int | None = None) -> int:
    total = (previous or 0) + step
    if total > 5:
        answer = interrupt(f"total {total} is large, keep it?")
        if answer != "keep":
            return 0
    return total


def main():
    config = {"configurable": {"thread_id": "doc"}}
    first = list(workflow.stream("tea", config, stream_mode="updates"))
    state = workflow.get_state(config)
    pending = [(i.value["reviewer"], i.id) for i in state.interrupts]
    resume_map = {iid: f"ok from {who}" for who, iid in pending}
    resumed = list(workflow.stream(Command(resume=resume_map), config, stream_mode="updates"))
    after = workflow.get_state(config)
    # Parallel tasks run on threads: which starts first is not part of the contract.
    calls_first_round = sorted(calls)

    second = workflow.invoke("coffee", config)
    second_state = workflow.get_state(config)
    second_pending = [i.value["reviewer"] for i in second_state.interrupts]
    for _ in second_pending:
        current = workflow.get_state(config).interrupts[0]
        workflow.invoke(Command(resume={current.id: "later"}), config)
    second_done = workflow.get_state(config).values

    history = [
        (s.metadata.get("source"), s.metadata.get("step"), s.next, len(s.tasks))
        for s in workflow.get_state_history(config)
    ]

    cfg = {"configurable": {"thread_id": "count"}}
    counted = [counter.invoke(n, cfg) for n in (2, 3)]
    big = list(counter.stream(4, cfg, stream_mode=["updates", "values"]))
    kept = counter.invoke(Command(resume="keep"), cfg)
    return {
        "first": first,
        "interrupts": [(i.value, i.id in resume_map) for i in state.interrupts],
        "next": state.next,
        "tasks": [(t.name, [i.value for i in t.interrupts]) for t in state.tasks],
        "resumed": resumed,
        "after": {"values": after.values, "next": after.next},
        "calls_first_round": calls_first_round,
        "second": second,
        "second_pending": second_pending,
        "second_done": second_done,
        "calls": sorted(calls),
        "history": history,
        "counted": counted,
        "big": big,
        "kept": kept,
        "counter_state": counter.get_state(cfg).values,
    }
