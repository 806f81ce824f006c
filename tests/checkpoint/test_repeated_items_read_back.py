"""A list that holds one object many times reads back from a durable saver as a copy
per position (values checked on LangGraph 1.2.22 with langgraph-checkpoint-sqlite)."""

from __future__ import annotations

import operator
from pathlib import Path
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import START, StateGraph


class Notes(TypedDict):
    notes: Annotated[list, operator.add]


def again(state: Notes) -> dict[str, Any]:
    return {"notes": state["notes"]}  # the same note objects, appended again


@pytest.mark.parametrize("durability", ["exit", "async", "sync"])
def test_changing_one_read_back_item_changes_only_it(tmp_path: Path, durability: str) -> None:
    builder = StateGraph(Notes)
    builder.add_node("again", again)
    builder.add_edge(START, "again")
    path = str(tmp_path / "notes.db")
    config = {"configurable": {"thread_id": "1"}}
    first = [{"text": "x" * 300, "done": False}, {"text": "y" * 300, "done": False}]
    with SqliteSaver.from_conn_string(path) as saver:
        out = builder.compile(checkpointer=saver).invoke(
            {"notes": first}, config, durability=durability
        )
    assert out["notes"] == first + first
    with SqliteSaver.from_conn_string(path) as saver:
        notes = builder.compile(checkpointer=saver).get_state(config).values["notes"]
    assert notes == first + first
    notes[0]["done"] = True
    assert [note["done"] for note in notes] == [True, False, False, False]
