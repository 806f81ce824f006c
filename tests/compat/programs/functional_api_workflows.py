"""Functional API workflows: parallel tasks, retries, a human review, and short-term memory.

Source: https://langchain-ai.github.io/langgraph/how-tos/use-functional-api/
(parallel execution, retry policy, "Review tool calls"-style interrupt, and
"Short-term memory" with `previous`). Tasks run in parallel with futures, a flaky
task is retried by its RetryPolicy, and a chat entrypoint keeps the conversation
in `previous` with entrypoint.final.
"""

from langchain_core.messages import AIMessage, BaseMessage, convert_to_messages
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.graph.message import add_messages
from langgraph.types import Command, RetryPolicy, interrupt

attempts = []


@task
def add_one(number: int) -> int:
    return number + 1


@entrypoint(checkpointer=InMemorySaver())
def graph(numbers: list[int]) -> list[int]:
    futures = [add_one(i) for i in numbers]
    return [f.result() for f in futures]


@task(retry_policy=RetryPolicy(retry_on=ValueError, initial_interval=0.01, jitter=False))
def get_info():
    attempts.append(len(attempts) + 1)
    if len(attempts) < 3:
        raise ValueError("Failure")
    return "OK"


@entrypoint(checkpointer=InMemorySaver())
def retrying(inputs, writer):
    writer({"started": True})
    return get_info().result()


@task
def draft(topic: str) -> str:
    return f"A draft about {topic}"


@entrypoint(checkpointer=InMemorySaver())
def review(topic: str) -> dict:
    text = draft(topic).result()
    decision = interrupt({"draft": text, "question": "Approve?"})
    if decision == "edit":
        text = interrupt({"draft": text, "question": "New text?"})
    return {"text": text, "decision": decision}


@task
def call_model(messages: list[BaseMessage]) -> AIMessage:
    said = sum(m.type == "human" for m in convert_to_messages(messages))
    return AIMessage(f"You have said {said} things.")


@entrypoint(checkpointer=InMemorySaver())
def chat(inputs: list[BaseMessage], *, previous: list[BaseMessage]):
    if previous:
        inputs = add_messages(previous, inputs)
    response = call_model(inputs).result()
    return entrypoint.final(value=response, save=add_messages(inputs, response))


def main():
    config = {"configurable": {"thread_id": "1"}}
    parallel = graph.invoke([1, 2, 3], config)
    retried = list(
        retrying.stream(
            {"any": "input"},
            {"configurable": {"thread_id": "r"}},
            stream_mode=["custom", "updates"],
        )
    )

    rconfig = {"configurable": {"thread_id": "review"}}
    first = review.invoke("cats", rconfig)
    second = review.invoke(Command(resume="edit"), rconfig)
    third = review.invoke(Command(resume="A better draft"), rconfig)

    cconfig = {"configurable": {"thread_id": "chat"}}
    replies = [
        chat.invoke([{"role": "user", "content": text}], cconfig).content
        for text in ("hi, I'm bob", "what's my name?")
    ]
    saved = chat.get_state(cconfig).values
    return {
        "parallel": parallel,
        "retried": retried,
        "attempts": attempts,
        "review": [
            {k: ([i.value for i in v] if k == "__interrupt__" else v) for k, v in r.items()}
            for r in (first, second, third)
        ],
        "replies": replies,
        "state_values": saved,
    }
