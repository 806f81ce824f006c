"""An entrypoint's input and output JSON schemas come from its signature, as in LangGraph
1.2.22 (values recorded there): the first parameter's annotation in, the return annotation
out (the first argument of `entrypoint.final[...]`), `Any` where there is none.

No `from __future__ import annotations` here: as LangGraph, the annotations are read as
written."""

from typing import Any

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.func import entrypoint


def test_annotated_parameter_and_return_give_the_schemas() -> None:
    @entrypoint()
    def joined(x: list[str]) -> str:
        return "".join(x)

    assert joined.get_input_jsonschema() == {
        "items": {"type": "string"},
        "title": "LangGraphInput",
        "type": "array",
    }
    assert joined.get_output_jsonschema() == {"title": "LangGraphOutput", "type": "string"}


def test_final_gives_the_returned_type_not_the_saved_one() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def doubled(n: int, *, previous: Any = None) -> entrypoint.final[int, str]:
        return entrypoint.final(value=n, save=str(n * 2))

    assert doubled.get_input_jsonschema() == {"title": "LangGraphInput", "type": "integer"}
    assert doubled.get_output_jsonschema() == {"title": "LangGraphOutput", "type": "integer"}


def test_no_annotations_is_any_and_a_dict_is_an_open_object() -> None:
    @entrypoint()
    def passthrough(inputs):  # type: ignore[no-untyped-def]
        return inputs

    @entrypoint()
    async def ignores(x: dict) -> None:  # type: ignore[type-arg]
        return None

    assert passthrough.get_input_jsonschema() == {"title": "LangGraphInput"}
    assert passthrough.get_output_jsonschema() == {"title": "LangGraphOutput"}
    assert ignores.get_input_jsonschema() == {
        "additionalProperties": True,
        "title": "LangGraphInput",
        "type": "object",
    }
    assert ignores.get_output_jsonschema() == {
        "properties": {},
        "title": "LangGraphOutput",
        "type": "object",
    }
