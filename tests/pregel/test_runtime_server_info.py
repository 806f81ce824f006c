"""`runtime.server_info` comes from the run config a server gives (`assistant_id`,
`graph_id`, the user under `langgraph_auth_user`), as in LangGraph 1.2.22; a local run
has none. Subgraphs see their parent's."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph
from foldgraph.runtime import Runtime, ServerInfo


class State(TypedDict, total=False):
    message: str


def _graph(seen: list[Any]) -> Any:
    def node(state: State, runtime: Runtime) -> dict[str, Any]:
        seen.append(runtime.server_info)
        return {}

    return StateGraph(State).add_node("n", node).add_edge(START, "n").compile()


class ProxyUser:
    """Like a server's proxy user: an identity, and the rest through __getattr__."""

    identity = "proxy-user"

    def __getattr__(self, name: str) -> Any:
        if name != "permissions":
            raise AttributeError(name)
        return ["read"]

    def __getitem__(self, key: str) -> Any:
        return {"display_name": "Proxy User"}[key]


def test_server_info_from_the_config() -> None:
    seen: list[Any] = []
    graph = _graph(seen)
    graph.invoke({}, {"configurable": {"assistant_id": "asst", "graph_id": "g"}})
    graph.invoke({})
    user = ProxyUser()
    graph.invoke({}, {"configurable": {"langgraph_auth_user": user}})
    assert seen == [
        ServerInfo(assistant_id="asst", graph_id="g"),
        None,
        ServerInfo(assistant_id="", graph_id="", user=user),  # type: ignore[arg-type]
    ]
    assert seen[2].user["display_name"] == "Proxy User"


def test_a_subgraph_sees_its_parents_server_info() -> None:
    seen: list[Any] = []
    outer = StateGraph(State).add_node("sub", _graph(seen)).add_edge(START, "sub").compile()
    outer.invoke({}, {"configurable": {"assistant_id": "a2", "graph_id": "g2"}})
    assert seen == [ServerInfo(assistant_id="a2", graph_id="g2")]
