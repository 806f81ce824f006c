"""`version="v2"` `checkpoints` and `debug` parts carry the state schema's instance, and a
v3 run passes its default keywords to `stream` (values checked on LangGraph 1.2.22)."""

from __future__ import annotations

import asyncio
import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, interrupt


class ModelState(BaseModel):
    value: str
    items: Annotated[list[str], operator.add] = []


@dataclass
class DataState:
    value: str
    items: Annotated[list[str], operator.add] = field(default_factory=list)


class DictState(TypedDict):
    value: str
    items: Annotated[list[str], operator.add]


def _value(state: Any) -> str:
    return state["value"] if isinstance(state, dict) else state.value


def _rows(schema: Any) -> list[tuple[Any, ...]]:
    """A run with a subgraph and an interrupt, then its resume: each checkpoint part
    (of both modes) as (mode, namespace by node names, next, values)."""

    def node_a(state: Any) -> dict:
        return {"value": _value(state) + "_a", "items": ["a"]}

    def ask(state: Any) -> dict:
        return {"value": interrupt("q")}

    sub = StateGraph(schema).add_node("node_a", node_a).add_edge(START, "node_a").compile()
    graph = (
        StateGraph(schema)
        .add_node("node_a", node_a)
        .add_node("sub", sub)
        .add_node("ask", ask)
        .add_edge(START, "node_a")
        .add_edge("node_a", "sub")
        .add_edge("sub", "ask")
        .add_edge("ask", END)
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "1"}}
    rows = []
    for given in ({"value": "x", "items": []}, Command(resume="r")):
        modes = ["checkpoints", "debug"]
        for part in graph.stream(given, config, stream_mode=modes, subgraphs=True, version="v2"):
            data = part["data"]
            if part["type"] == "debug":
                if data["type"] != "checkpoint":
                    continue
                data = data["payload"]
            ns = tuple(s.split(":")[0] for s in part["ns"])
            rows.append((part["type"], ns, tuple(data["next"]), data["values"]))
    return rows


def _expected(make: Any) -> list[tuple[Any, ...]]:
    first = {"items": []}  # before the input is read: a dict, whatever the schema
    checkpoints = [
        ((), ("__start__",), first),
        ((), ("node_a",), make(value="x", items=[])),
        ((), ("sub",), make(value="x_a", items=["a"])),
        (("sub",), ("__start__",), first),
        (("sub",), ("node_a",), make(value="x_a", items=["a"])),
        (("sub",), (), make(value="x_a_a", items=["a", "a"])),
        ((), ("ask",), make(value="x_a_a", items=["a", "a", "a"])),
        ((), ("ask",), make(value="x_a_a", items=["a", "a", "a"])),
        ((), (), make(value="r", items=["a", "a", "a"])),
    ]
    return [(mode, *row) for row in checkpoints for mode in ("checkpoints", "debug")]


@pytest.mark.parametrize("schema", [ModelState, DataState])
def test_checkpoint_parts_carry_the_state_schemas_instance(schema: Any) -> None:
    rows = _rows(schema)
    assert rows == _expected(schema)
    typed = [type(values).__name__ for *_, next_nodes, values in rows if next_nodes != (START,)]
    assert typed == [schema.__name__] * 14


def test_checkpoint_parts_of_a_typeddict_state_stay_dicts() -> None:
    assert _rows(DictState) == _expected(dict)


class _Flow(TypedDict):
    message: str


def _recording(graph: Any, method: str) -> list[dict[str, Any]]:
    received: list[dict[str, Any]] = []
    original = getattr(graph, method)

    if method == "stream":

        def stream(input: Any, config: Any = None, **kwargs: Any) -> Any:
            received.append(kwargs)
            yield from original(input, config, **kwargs)

        graph.stream = stream
    else:

        async def astream(input: Any, config: Any = None, **kwargs: Any) -> Any:
            received.append(kwargs)
            async for chunk in original(input, config, **kwargs):
                yield chunk

        graph.astream = astream
    return received


def _flow() -> Any:
    return (
        StateGraph(_Flow)
        .add_node("echo", lambda s: {"message": s["message"] + "!"})
        .add_edge(START, "echo")
        .compile(checkpointer=InMemorySaver())
    )


@pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")
def test_a_v3_run_passes_breakpoints_and_control_as_none_when_not_given() -> None:
    config = {"configurable": {"thread_id": "1"}}
    graph = _flow()
    received = _recording(graph, "stream")
    run = graph.stream_events({"message": "hi"}, config, version="v3")
    assert run.output == {"message": "hi!"}
    (kwargs,) = received
    assert list(kwargs) == [
        "stream_mode",
        "subgraphs",
        "version",
        "interrupt_before",
        "interrupt_after",
        "control",
    ]
    assert (kwargs["interrupt_before"], kwargs["interrupt_after"], kwargs["control"]) == (
        None,
        None,
        None,
    )

    graph = _flow()
    received = _recording(graph, "astream")

    async def main() -> Any:
        run = await graph.astream_events(
            {"message": "ho"}, config, version="v3", interrupt_after=["echo"]
        )
        return await run.output()

    assert asyncio.run(main()) == {"message": "ho!"}
    (kwargs,) = received
    assert (kwargs["interrupt_before"], kwargs["interrupt_after"], kwargs["control"]) == (
        None,
        ["echo"],
        None,
    )
