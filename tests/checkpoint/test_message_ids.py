"""Message ids: given by the runner in place (as LangGraph), minted purely inside the fold."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, MessagesState, StateGraph


def _app(replies: list[Any], returned: list[Any]) -> Any:
    def reply(state: MessagesState) -> dict:
        value = replies[len(state["messages"]) // 2 - 1] if len(state["messages"]) > 1 else None
        message = AIMessage(f"n={len(state['messages'])}")
        returned.append(message)
        return {"messages": [message] if value is None else [message, value]}

    builder = StateGraph(MessagesState)
    builder.add_node("reply", reply)
    builder.add_edge(START, "reply")
    builder.add_conditional_edges("reply", lambda s: END if len(s["messages"]) > 6 else "reply")
    return builder.compile(checkpointer=InMemorySaver())


def test_a_nodes_message_gets_its_id_in_place() -> None:
    returned: list[Any] = []
    app = _app(["str reply", ("ai", "tuple reply"), {"role": "ai", "content": "dict"}], returned)
    out = app.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": "1"}})
    # the node's own objects carry the ids the state holds
    assert all(m.id is not None for m in returned)
    ids = {m.id for m in out["messages"]}
    assert {m.id for m in returned} <= ids
    assert len(ids) == len(out["messages"])


@pytest.mark.foldgraph_only("verify_replay, which LangGraph does not have")
def test_verify_replay_reproduces_ids_minted_for_coerced_messages() -> None:
    returned: list[Any] = []
    app = _app(["str reply", ("ai", "tuple reply"), {"role": "ai", "content": "dict"}], returned)
    config = {"configurable": {"thread_id": "2"}}
    out = app.invoke({"messages": [("user", "hi")]}, config)
    assert [m.content for m in out["messages"]][:3] == ["hi", "n=1", "n=2"]
    report = app.verify_replay(config)
    assert report.ok, report.divergence
    assert report.checked == len(list(app.get_state_history(config)))
