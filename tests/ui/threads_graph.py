"""The graph the viewer and command-line tests write threads with, on either library.

`make_builder("foldgraph")` or `make_builder("langgraph")`: an agent step that
calls a tool, the tool's answer, a subgraph node, and a review node that
waits on `interrupt()`. A human message "fail" makes the agent raise.
`graph` is the foldgraph graph, compiled without a saver, for `--graph`.
"""

import importlib
import operator
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, ToolMessage


def make_builder(root: str) -> Any:
    graph_mod = importlib.import_module(f"{root}.graph")
    types = importlib.import_module(f"{root}.types")
    StateGraph, START, END = graph_mod.StateGraph, graph_mod.START, graph_mod.END
    add_messages = graph_mod.add_messages

    class Sub(TypedDict):
        messages: Annotated[list, add_messages]
        notes: Annotated[list, operator.add]

    def sub_step(state: Sub) -> dict[str, Any]:
        return {"notes": ["sub"]}

    sub = StateGraph(Sub)
    sub.add_node("sub_step", sub_step)
    sub.add_edge(START, "sub_step")
    sub.add_edge("sub_step", END)

    class State(TypedDict):
        messages: Annotated[list, add_messages]
        notes: Annotated[list, operator.add]
        draft: str

    def agent(state: State) -> dict[str, Any]:
        if state["messages"][-1].content == "fail":
            raise ValueError("the agent was told to fail")
        call = {"name": "search", "args": {"q": "weather"}, "id": "call-1"}
        return {
            "messages": [AIMessage("let me look", tool_calls=[call], id="ai-1")],
            "draft": "v1",
        }

    def tools(state: State) -> dict[str, Any]:
        return {
            "messages": [ToolMessage("sunny", tool_call_id="call-1", id="tool-1")],
            "notes": ["searched"],
        }

    def review(state: State) -> dict[str, Any]:
        answer = types.interrupt({"question": "publish?", "draft": state["draft"]})
        return {"draft": f"{state['draft']}:{answer}"}

    builder = StateGraph(State)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_node("research", sub.compile())
    builder.add_node("review", review)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    builder.add_edge("tools", "research")
    builder.add_edge("research", "review")
    builder.add_edge("review", END)
    return builder


graph = make_builder("foldgraph").compile()
