"""Prebuilt pieces called the way LangGraph's own tests call them (values from LangGraph 1.2.22).

A `ToolNode` called outside a graph takes its runtime from the config, under
LangGraph's key; a prompt function gets the store when it names it; an agent's
nodes can be read and called one by one; a bad answer to an interrupt inside a
tool is the caller's error, not the tool's, whatever `handle_tool_errors` says.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import BaseModel, ValidationError

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.prebuilt import InjectedState, InjectedStore, ToolNode, create_react_agent
from foldgraph.prebuilt.tool_node import ToolRuntime
from foldgraph.runtime import ExecutionInfo, Runtime
from foldgraph.store.memory import InMemoryStore
from foldgraph.types import Command, interrupt

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def store() -> InMemoryStore:
    store = InMemoryStore()
    store.put(("users",), "1", {"name": "Alice"})
    return store


def _whoami_tool() -> Any:
    @tool
    def whoami(user: str, store: Annotated[Any, InjectedStore()]) -> str:
        """Look a user up."""
        return store.get(("users",), user).value["name"]

    return whoami


class _Model(GenericFakeChatModel):
    seen: list[list[str]] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        self.seen.append([m.content for m in messages])
        return super()._generate(messages, stop, run_manager, **kw)


def test_a_tool_node_outside_a_graph_takes_the_runtime_the_config_carries(store: Any) -> None:
    @tool
    def ctx(runtime: ToolRuntime) -> str:
        """Read the runtime."""
        return f"{runtime.context}|{runtime.execution_info.task_id}|{runtime.tool_call_id}"

    info = ExecutionInfo(checkpoint_id="cp", checkpoint_ns="", task_id="tk", thread_id="t")
    runtime = Runtime(context={"tenant": "acme"}, store=store).override(execution_info=info)
    calls = [
        {"name": "whoami", "args": {"user": "1"}, "id": "c1"},
        {"name": "ctx", "args": {}, "id": "c2"},
    ]
    out = ToolNode([_whoami_tool(), ctx]).invoke(
        {"messages": [AIMessage("", tool_calls=calls)]},
        {"configurable": {"__pregel_runtime": runtime}},
    )
    assert [(m.content, m.tool_call_id) for m in out["messages"]] == [
        ("Alice", "c1"),
        ("{'tenant': 'acme'}|tk|c2", "c2"),
    ]


def test_a_prompt_function_that_names_store_gets_the_agents_store(store: Any) -> None:
    # Untyped, as LangGraph 1.2.22 needs: there a string annotation on `config` or
    # `store` (this module's `from __future__ import annotations`) hides the parameter.
    def prompt(state, config, *, store):  # type: ignore[no-untyped-def]
        user = store.get(("users",), config["configurable"]["user"]).value["name"]
        return [SystemMessage(user), *state["messages"]]

    model = _Model(messages=iter([AIMessage("done")]))
    model.seen = []
    agent = create_react_agent(model, [_whoami_tool()], prompt=prompt, store=store)
    result = agent.invoke({"messages": [("user", "hi")]}, {"configurable": {"user": "1"}})
    assert model.seen == [["Alice", "hi"]]
    assert result["messages"][-1].content == "done"


def test_an_agents_nodes_read_and_run_one_by_one(store: Any) -> None:
    agent = create_react_agent(_Model(messages=iter([])), [_whoami_tool()], store=store)
    body = agent.nodes["agent"].bound.func
    assert inspect.isfunction(body)
    assert inspect.getclosurevars(body).nonlocals  # the agent's own helpers
    call = {"name": "whoami", "args": {"user": "1"}, "id": "x"}
    out = agent.nodes["tools"].invoke(
        {"messages": [AIMessage("", tool_calls=[call])]},
        {"configurable": {"__pregel_runtime": Runtime(store=store)}},
    )
    assert [(m.type, m.content) for m in out["messages"]] == [("tool", "Alice")]


class _Approval(BaseModel):
    approved: bool


@pytest.mark.parametrize("handle_tool_errors", [None, True, ValueError])
def test_a_bad_answer_to_a_tools_interrupt_fails_the_run_and_can_be_answered_again(
    handle_tool_errors: Any,
) -> None:
    @tool
    def ask() -> str:
        """Ask."""
        answer = interrupt("Approve?", response_schema=_Approval)
        return f"approved={answer.approved}"

    errors = {} if handle_tool_errors is None else {"handle_tool_errors": handle_tool_errors}
    graph = (
        StateGraph(MessagesState)
        .add_node("tools", ToolNode([ask], **errors))
        .add_edge(START, "tools")
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "1"}}
    call = {"name": "ask", "args": {}, "id": "a1"}
    [pending] = graph.invoke({"messages": [AIMessage("", tool_calls=[call])]}, config)[
        "__interrupt__"
    ]
    with pytest.raises(ValidationError, match="approved"):
        graph.invoke(Command(resume={pending.id: {"approved": "maybe"}}), config)
    assert [i.id for i in graph.get_state(config).interrupts] == [pending.id]
    result = graph.invoke(Command(resume={pending.id: {"approved": True}}), config)
    assert result["messages"][-1].content == "approved=True"


def _seen_state_node(seen: list[Any], tools: list[Any] | None = None) -> ToolNode:
    @tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    def inspect_state(request: Any, execute: Any) -> Any:
        seen.append(request.state)
        return execute(request)

    return ToolNode(tools or [add], wrap_tool_call=inspect_state)


def test_bare_tool_calls_read_the_state_through_a_reader_in_langgraphs_shape() -> None:
    """Code written for LangGraph may install its own state reader in the config, shaped
    as LangGraph's: `partial(read, scratchpad, channels, managed, task)`."""
    import functools

    values = {"messages": [AIMessage("from channels")], "files": {"/a.md": "body"}}

    def read(scratchpad: Any, channels: Any, managed: Any, task: Any, select: Any, fresh: Any):
        return {k: values[k] for k in select}

    reader = functools.partial(read, None, dict.fromkeys(values), {}, None)
    seen: list[Any] = []
    call = {"name": "add", "args": {"a": 1, "b": 2}, "id": "c1", "type": "tool_call"}
    config = {"configurable": {"__pregel_read": reader, "__pregel_runtime": Runtime()}}
    out = _seen_state_node(seen).invoke([call], config)
    assert seen == [values]
    assert out == {"messages": [ToolMessage("3", name="add", tool_call_id="c1")]}


def test_bare_tool_calls_sent_in_a_graph_read_the_whole_state() -> None:
    from foldgraph.types import Send

    class State(MessagesState):
        files: dict

    seen: list[Any] = []
    call = {"name": "add", "args": {"a": 1, "b": 2}, "id": "c1", "type": "tool_call"}
    builder = StateGraph(State)
    builder.add_node("tools", _seen_state_node(seen))
    builder.add_conditional_edges(START, lambda s: [Send("tools", [call])], ["tools"])
    graph = builder.compile()
    out = graph.invoke({"messages": [AIMessage("hi", id="m1")], "files": {"/a": "x"}})
    assert seen == [{"messages": [AIMessage("hi", id="m1")], "files": {"/a": "x"}}]
    assert [m.content for m in out["messages"]] == ["hi", "3"]


@pytest.mark.parametrize("stale_runtime", [False, True])
def test_a_state_an_interceptor_gives_is_the_state_the_tool_sees(stale_runtime: bool) -> None:
    import dataclasses

    @tool
    def read_note(note: Annotated[str, InjectedState("note")], runtime: ToolRuntime) -> str:
        """Return the note from the injected state and from the runtime."""
        return f"InjectedState={note} ToolRuntime={runtime.state['note']}"

    def override(request: Any) -> Any:
        changed = {**request.state, "note": "new"}
        if stale_runtime:
            stale = dataclasses.replace(request.runtime, state={**request.state, "note": "x"})
            return request.override(state=changed, runtime=stale)
        return request.override(state=changed)

    def wrap(request: Any, execute: Any) -> Any:
        return execute(override(request))

    async def awrap(request: Any, execute: Any) -> Any:
        return await execute(override(request))

    call = {"name": "read_note", "args": {}, "id": "c1"}
    state = {"messages": [AIMessage("", tool_calls=[call])], "note": "old"}
    config = {"configurable": {"__pregel_runtime": Runtime()}}
    sync_out = ToolNode([read_note], wrap_tool_call=wrap).invoke(state, config)
    import asyncio

    async_out = asyncio.run(ToolNode([read_note], awrap_tool_call=awrap).ainvoke(state, config))
    expected = "InjectedState=new ToolRuntime=new"
    assert sync_out["messages"][0].content == expected
    assert async_out["messages"][0].content == expected
