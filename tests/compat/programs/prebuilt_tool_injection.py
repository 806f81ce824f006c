"""Tools that read graph state, the store and the runtime, and ToolNode's error handling.

Sources: https://langchain-ai.github.io/langgraph/how-tos/tool-calling/ ("Access
state", "Access long-term memory", "Handle errors") and
https://docs.langchain.com/oss/python/langchain/tools (ToolRuntime). ToolNode runs in
a graph with a store; tools take InjectedState, InjectedStore, InjectedToolCallId and
ToolRuntime arguments that the model never sees; errors are handled by the default,
a callable, a tuple of exception types and a custom string.
"""

from typing import Annotated

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import InjectedState, InjectedStore, ToolNode, ToolRuntime
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command


class State(MessagesState):
    user_id: str


@tool
def whoami(state: Annotated[dict, InjectedState]) -> str:
    """Say which user is asking."""
    return f"user {state['user_id']} with {len(state['messages'])} messages"


@tool
def user_field(field: Annotated[str, InjectedState("user_id")], suffix: str) -> str:
    """Read one state field."""
    return f"{field}{suffix}"


@tool
def remember(
    fact: str, store: Annotated[object, InjectedStore()], state: Annotated[dict, InjectedState]
) -> str:
    """Save a fact about the user."""
    store.put(("facts", state["user_id"]), fact, {"fact": fact})
    return f"saved {fact}"


@tool
def recall(runtime: ToolRuntime) -> str:
    """List facts about the user."""
    user = runtime.state["user_id"]
    facts = sorted(item.key for item in runtime.store.search(("facts", user)))
    return f"{runtime.tool_call_id}: {facts}"


@tool
def rename(name: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Rename the user."""
    return Command(
        update={
            "user_id": name,
            "messages": [ToolMessage(f"renamed to {name}", tool_call_id=tool_call_id)],
        }
    )


@tool
def divide(a: int, b: int) -> float:
    """Divide a by b."""
    return a / b


def call(name, args, call_id):
    return {"name": name, "args": args, "id": call_id, "type": "tool_call"}


def run(node, calls, store):
    graph = StateGraph(State).add_node("tools", node).add_edge(START, "tools").compile(store=store)
    state = {"messages": [AIMessage("", id="ai", tool_calls=calls)], "user_id": "u1"}
    try:
        return graph.invoke(state)
    except Exception as exc:
        return {"error": type(exc).__name__, "message": str(exc)}


def main():
    store = InMemoryStore()
    node = ToolNode([whoami, user_field, remember, recall, rename])
    schemas = {
        t.name: sorted(t.tool_call_schema.model_json_schema().get("properties", {}))
        for t in [whoami, user_field, remember, recall, rename]
    }
    injected = run(
        node,
        [
            call("whoami", {}, "c1"),
            call("user_field", {"suffix": "!"}, "c2"),
            call("remember", {"fact": "likes tea"}, "c3"),
        ],
        store,
    )
    recalled = run(node, [call("recall", {}, "c4")], store)
    renamed = run(node, [call("rename", {"name": "u2"}, "c5")], store)

    bad = [call("divide", {"a": 1, "b": 0}, "d1")]
    errors = {
        "default": run(ToolNode([divide]), bad, store),
        "true": run(ToolNode([divide], handle_tool_errors=True), bad, store),
        "string": run(ToolNode([divide], handle_tool_errors="Try another b."), bad, store),
        "callable": run(
            ToolNode([divide], handle_tool_errors=lambda e: f"caught {e!r}"), bad, store
        ),
        "tuple_match": run(ToolNode([divide], handle_tool_errors=(ZeroDivisionError,)), bad, store),
        "tuple_miss": run(ToolNode([divide], handle_tool_errors=(KeyError,)), bad, store),
        "false": run(ToolNode([divide], handle_tool_errors=False), bad, store),
        "bad_args": run(ToolNode([divide]), [call("divide", {"a": "x"}, "d2")], store),
        "unknown_tool": run(ToolNode([divide]), [call("nope", {}, "d3")], store),
    }
    return {
        "schemas": schemas,
        "injected": injected,
        "recalled": recalled,
        "renamed": renamed,
        "errors": errors,
    }
