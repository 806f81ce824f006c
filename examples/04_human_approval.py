"""Example 4: human-in-the-loop approval with `interrupt`, resumed by another process.

What it shows: an agent drafts a refund, then `interrupt()` stops the run and asks a
person to approve it. The run's state waits in an SQLite file; the process can exit. A
second process, later, reads the question back from the thread and answers it with
`Command(resume=...)`; the graph continues from the waiting node, and nothing that ran
before the question runs again.

Run it (both halves, each in a process of its own):
    python examples/04_human_approval.py
or one half at a time (the second can be hours later, in another process or on another
machine that shares the file):
    python examples/04_human_approval.py ask approvals.sqlite       # starts thread refund-N
    python examples/04_human_approval.py answer approvals.sqlite no # the newest waiting one
The answer can also come from the command line, with no code:
    foldgraph threads approvals.sqlite --status interrupted
    foldgraph resume approvals.sqlite refund-1 --graph examples/04_human_approval.py:graph \
        --value '"yes"'
"""

from __future__ import annotations

import operator
import os
import subprocess
import sys
from typing import Annotated

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from typing_extensions import TypedDict

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, interrupt


class Refund(TypedDict):
    customer: str
    amount: int
    email: str
    log: Annotated[list[str], operator.add]  # what happened, in order


def draft_email(state: Refund) -> dict:
    model = FakeListChatModel(responses=["We have refunded your order in full."])
    text = model.invoke(f"Write a refund email for {state['customer']}").content
    return {"email": text, "log": [f"drafted by pid {os.getpid()}"]}


def approval(state: Refund) -> Command:
    answer = interrupt({"question": f"Refund {state['amount']} EUR?", "email": state["email"]})
    log = [f"{answer!r} from pid {os.getpid()}"]
    return Command(goto="send" if answer == "yes" else END, update={"log": log})


def send(state: Refund) -> dict:
    return {"log": [f"sent to {state['customer']}"]}


def build(checkpointer=None):
    builder = StateGraph(Refund)
    builder.add_node("draft_email", draft_email)
    builder.add_node("approval", approval, destinations=("send", END))
    builder.add_node("send", send)
    builder.add_edge(START, "draft_email")
    builder.add_edge("draft_email", "approval")
    builder.add_edge("send", END)
    return builder.compile(checkpointer=checkpointer)


graph = build()  # for `foldgraph resume/ui --graph examples/04_human_approval.py:graph`


def ask(path: str) -> None:
    with SqliteSaver.from_conn_string(path) as saver:
        thread = f"refund-{len(saver.list_threads()) + 1}"
        config = {"configurable": {"thread_id": thread}}
        out = build(saver).invoke({"customer": "Ada", "amount": 120}, config)
    question = out["__interrupt__"][0].value
    print(f"[ask]    {thread} waits for a person: {question['question']} {question['email']!r}")
    print(f"[ask]    pid {os.getpid()} exits; the question is kept in {path}")


def answer(path: str, reply: str) -> None:
    with SqliteSaver.from_conn_string(path) as saver:
        app = build(saver)
        for thread in saver.list_threads():  # most recently written first
            config = {"configurable": {"thread_id": thread}}
            waiting = app.get_state(config)
            if waiting.interrupts:
                break
        else:
            sys.exit(f"no thread in {path} waits for an answer")
        question = waiting.interrupts[0].value["question"]
        print(f"[answer] pid {os.getpid()} read {thread}: next={waiting.next}, asks {question!r}")
        out = app.invoke(Command(resume=reply), config)
    print(f"[answer] log: {out['log']}")


def both(path: str) -> None:
    """Each half in a process of its own: only the SQLite file connects them."""
    for args in (["ask", path], ["answer", path, "yes"]):
        subprocess.run([sys.executable, __file__, *args], check=True, timeout=120)


if __name__ == "__main__":
    command, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("both", [])
    path = rest[0] if rest else "approvals.sqlite"
    if command == "ask":
        ask(path)
    elif command == "answer":
        answer(path, rest[1] if len(rest) > 1 else "yes")
    elif command == "both":
        both(path)
    else:
        sys.exit(f"usage: {sys.argv[0]} [ask DB | answer DB yes|no]")
