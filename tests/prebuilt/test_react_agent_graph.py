"""The graph create_react_agent builds, node for node and edge for edge (as LangGraph draws it)."""

from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from prebuilt_fakes import ScriptedChatModel
from pydantic import BaseModel

from foldgraph.prebuilt import create_react_agent

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@tool
def weather(city: str) -> str:
    """The weather."""
    return "sunny"


@tool(return_direct=True)
def final(x: str) -> str:
    """Answer directly."""
    return x


class Answer(BaseModel):
    a: int


def hook(state: Any) -> dict[str, Any]:
    return {}


S, A, T, E = "__start__", "agent", "tools", "__end__"
PRE, POST, GSR = "pre_model_hook", "post_model_hook", "generate_structured_response"

CASES: dict[str, tuple[list[Any], dict[str, Any], list[str], list[tuple[str, str, bool]]]] = {
    "tools": (
        [weather],
        {},
        [S, A, T, E],
        [(S, A, False), (A, E, True), (A, T, True), (T, A, False)],
    ),
    "no_tools": ([], {}, [S, A, E], [(S, A, False), (A, E, False)]),
    "hooks": (
        [weather],
        {"pre_model_hook": hook, "post_model_hook": hook},
        [S, A, T, PRE, POST, E],
        [
            (S, PRE, False),
            (A, POST, False),
            (POST, E, True),
            (POST, PRE, True),
            (POST, T, True),
            (PRE, A, False),
            (T, PRE, False),
        ],
    ),
    "return_direct": (
        [weather, final],
        {},
        [S, A, T, E],
        [(S, A, False), (A, E, True), (A, T, True), (T, E, True), (T, A, True)],
    ),
    "response_format": (
        [weather],
        {"response_format": Answer},
        [S, A, T, GSR, E],
        [(S, A, False), (A, GSR, True), (A, T, True), (GSR, E, False), (T, A, False)],
    ),
    "response_format_and_post_hook": (
        [weather],
        {"response_format": Answer, "post_model_hook": hook},
        [S, A, T, POST, GSR, E],
        [
            (S, A, False),
            (A, POST, False),
            (GSR, E, False),
            (POST, A, True),
            (POST, GSR, True),
            (POST, T, True),
            (T, A, False),
        ],
    ),
    "no_tools_with_everything": (
        [],
        {"response_format": Answer, "pre_model_hook": hook, "post_model_hook": hook},
        [S, A, PRE, POST, GSR, E],
        [(S, PRE, False), (A, POST, False), (GSR, E, False), (POST, GSR, False), (PRE, A, False)],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_graph_shape(case: str) -> None:
    tools, options, nodes, edges = CASES[case]
    model = ScriptedChatModel(replies=[AIMessage("x")])
    graph = create_react_agent(model, tools, **options).get_graph()
    assert list(graph.nodes) == nodes
    assert sorted((e.source, e.target, e.conditional) for e in graph.edges) == sorted(edges)
