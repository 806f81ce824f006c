"""Input, output and context JSON schemas of TypedDict, pydantic and dataclass graphs,
exactly as LangGraph 1.2 gives them for the same graphs."""

from __future__ import annotations

import dataclasses
import json
import operator
from typing import Annotated, Optional, Union

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph


class Ctx(TypedDict):
    user: str


class TD(TypedDict):
    a: str
    items: Annotated[list[int], operator.add]


class In(TypedDict):
    a: str


class Out(TypedDict):
    items: list[int]


class PM(BaseModel):
    a: str
    n: int = 3
    tags: list[str] = Field(default_factory=list)


@dataclasses.dataclass
class DC:
    a: str
    n: int = 1


@dataclasses.dataclass
class DCtx:
    k: int = 0


STRING = {"type": "string"}
TD_SCHEMA = {
    "properties": {
        "a": {"title": "A", **STRING},
        "items": {"items": {"type": "integer"}, "title": "Items", "type": "array"},
    },
    "required": ["a", "items"],
    "title": "TD",
    "type": "object",
}
PM_SCHEMA = {
    "properties": {
        "a": {"title": "A", **STRING},
        "n": {"default": 3, "title": "N", "type": "integer"},
        "tags": {"items": STRING, "title": "Tags", "type": "array"},
    },
    "required": ["a"],
    "title": "PM",
    "type": "object",
}


def _dc_schema(title: str) -> dict:
    return {
        "properties": {
            "a": {"title": "A", **STRING},
            "n": {"default": 1, "title": "N", "type": "integer"},
        },
        "required": ["a"],
        "title": title,
        "type": "object",
    }


def _compile(schema: type, **kwargs: object):  # type: ignore[no-untyped-def]
    builder = StateGraph(schema, **kwargs)
    builder.add_node("n", lambda s: {})
    builder.add_edge(START, "n")
    return builder.compile()


def _same(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_typed_dict_graph() -> None:
    graph = _compile(TD, context_schema=Ctx)
    assert _same(graph.get_input_jsonschema(), TD_SCHEMA)
    assert _same(graph.get_output_jsonschema(), TD_SCHEMA)
    assert graph.get_context_jsonschema() == {
        "properties": {"user": {"title": "User", **STRING}},
        "required": ["user"],
        "title": "Ctx",
        "type": "object",
    }
    assert (graph.get_input_schema().__name__, graph.get_output_schema().__name__) == (
        "LangGraphInput",
        "LangGraphOutput",
    )


def test_typed_dict_input_and_output_schemas() -> None:
    graph = _compile(TD, input_schema=In, output_schema=Out)
    assert graph.get_input_jsonschema() == {
        "properties": {"a": {"title": "A", **STRING}},
        "required": ["a"],
        "title": "In",
        "type": "object",
    }
    assert graph.get_output_jsonschema() == {
        "properties": {"items": {"items": {"type": "integer"}, "title": "Items", "type": "array"}},
        "required": ["items"],
        "title": "Out",
        "type": "object",
    }
    assert graph.get_context_jsonschema() is None


def test_pydantic_graph() -> None:
    graph = _compile(PM, context_schema=DCtx)
    assert _same(graph.get_input_jsonschema(), PM_SCHEMA)
    assert _same(graph.get_output_jsonschema(), PM_SCHEMA)
    assert graph.get_context_jsonschema() == {
        "properties": {"k": {"default": 0, "title": "K", "type": "integer"}},
        "title": "DCtx",
        "type": "object",
    }
    assert (graph.get_input_schema().__name__, graph.get_output_schema().__name__) == (
        "PM",
        "LangGraphOutput",
    )


def test_dataclass_graph() -> None:
    graph = _compile(DC)
    assert _same(graph.get_input_jsonschema(), _dc_schema("LangGraphInput"))
    assert _same(graph.get_output_jsonschema(), _dc_schema("LangGraphOutput"))
    assert graph.get_context_jsonschema() is None


def test_named_graph_titles() -> None:
    builder = StateGraph(DC)
    builder.add_node("n", lambda s: {})
    builder.add_edge(START, "n")
    graph = builder.compile(name="Mine")
    assert graph.get_input_jsonschema()["title"] == "MineInput"


def test_dataclass_fields_that_allow_none_are_not_required() -> None:
    """As LangGraph: a field without a default is required unless its type allows None
    (then its default is None); `field(default=...)` stays required."""

    @dataclasses.dataclass
    class Form:
        val1: str
        val2: int | None
        val3: Annotated[float | None, "optional annotated"]
        val3b: Optional[str]  # noqa: UP045
        val3c: Union[int, None, str]  # noqa: UP007, RUF036
        val4: str | None = None
        val7: str = dataclasses.field(default=...)  # type: ignore[assignment]
        val8: Annotated[int, "some metadata"] = 42

    schema = _compile(Form).get_input_jsonschema()
    assert sorted(schema["required"]) == ["val1", "val7"]
    nullable = {"default": None}
    assert schema["properties"]["val2"] == {
        "anyOf": [{"type": "integer"}, {"type": "null"}],
        **nullable,
        "title": "Val2",
    }
    assert schema["properties"]["val3c"] == {
        "anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}],
        **nullable,
        "title": "Val3C",
    }
    assert schema["properties"]["val1"] == {"title": "Val1", "type": "string"}
    assert _compile(Form).get_output_jsonschema()["required"] == ["val1", "val7"]
