"""What sealing costs: fingerprints are taken only for checkpoints a saver keeps."""

from typing import Any

from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph


class Counted:
    """An object that counts how often it is pickled (a fingerprint pickles it)."""

    pickled = 0

    def __reduce__(self) -> Any:
        Counted.pickled += 1
        return (Counted, ())


class State(TypedDict):
    thing: Any


def _graph(checkpointer: Any = None) -> Any:
    builder = StateGraph(State)
    builder.add_node("keep", lambda state: {"thing": state["thing"]})
    builder.add_edge(START, "keep")
    return builder.compile(checkpointer=checkpointer)


def test_a_run_without_a_saver_takes_no_fingerprint() -> None:
    Counted.pickled = 0
    out = _graph().invoke({"thing": Counted()})
    assert type(out["thing"]) is Counted
    assert Counted.pickled == 0


def test_a_run_with_a_saver_seals_what_it_keeps() -> None:
    Counted.pickled = 0
    app = _graph(InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    app.invoke({"thing": Counted()}, config)
    assert Counted.pickled > 0
    assert app.verify_replay(config).ok
