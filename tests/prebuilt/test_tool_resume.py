"""Resuming a task where one of several tool calls interrupted runs only that call again.

LangGraph 1.2 runs every call of the task again (its sibling calls execute twice);
foldgraph keeps the outputs of the calls that finished and reuses them. This is a
deliberate difference: the final messages are the same, the side effects are not
repeated.
"""

import asyncio
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from prebuilt_fakes import ScriptedChatModel, ai, call

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.prebuilt import ToolNode, create_react_agent
from foldgraph.types import Command, interrupt

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def counted_tools(runs: dict[str, int]) -> list[Any]:
    @tool
    def charge(amount: int) -> str:
        """Charge a card (must not happen twice)."""
        runs["charge"] += 1
        return f"charged {amount}"

    @tool
    async def acharge(amount: int) -> str:
        """Async charge."""
        runs["charge"] += 1
        return f"charged {amount}"

    @tool
    def confirm(what: str) -> str:
        """Ask a human."""
        runs["confirm"] += 1
        return f"{what}: {interrupt(what)}"

    return [charge, acharge, confirm]


CALLS = ai(call("charge", {"amount": 5}, "c1"), call("confirm", {"what": "ship"}, "c2"), id="a")


def tool_graph(tools: list[Any]) -> Any:
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "tools")
    return builder.compile(checkpointer=InMemorySaver())


@pytest.mark.foldgraph_only(
    "LangGraph runs a resumed ToolNode's finished sibling calls again (README)"
)
def test_finished_sibling_call_is_not_run_again() -> None:
    runs = {"charge": 0, "confirm": 0}
    graph = tool_graph(counted_tools(runs))
    config = {"configurable": {"thread_id": "1"}}
    out = graph.invoke({"messages": [CALLS]}, config)
    assert [i.value for i in out["__interrupt__"]] == ["ship"]
    assert runs == {"charge": 1, "confirm": 1}
    out = graph.invoke(Command(resume="yes"), config)
    assert [m.content for m in out["messages"]] == ["", "charged 5", "ship: yes"]
    assert runs == {"charge": 1, "confirm": 2}


@pytest.mark.foldgraph_only(
    "LangGraph runs a resumed ToolNode's finished sibling calls again (README)"
)
def test_async_finished_sibling_call_is_not_run_again() -> None:
    runs = {"charge": 0, "confirm": 0}
    graph = tool_graph(counted_tools(runs))
    config = {"configurable": {"thread_id": "1"}}
    calls = ai(
        call("acharge", {"amount": 7}, "c1"), call("confirm", {"what": "ship"}, "c2"), id="a"
    )

    async def main() -> list[str]:
        await graph.ainvoke({"messages": [calls]}, config)
        out = await graph.ainvoke(Command(resume="ok"), config)
        return [m.content for m in out["messages"]]

    assert asyncio.run(main()) == ["", "charged 7", "ship: ok"]
    assert runs == {"charge": 1, "confirm": 2}


@pytest.mark.foldgraph_only(
    "LangGraph runs a resumed ToolNode's finished sibling calls again (README)"
)
def test_two_interrupts_in_a_row_keep_the_finished_call() -> None:
    runs = {"charge": 0, "twice": 0}

    @tool
    def twice(what: str) -> str:
        """Two questions."""
        runs["twice"] += 1
        return f"{interrupt('first?')} {interrupt('second?')}"

    charge = counted_tools(runs)[0]
    graph = tool_graph([charge, twice])
    config = {"configurable": {"thread_id": "1"}}
    calls = ai(call("charge", {"amount": 1}, "c1"), call("twice", {"what": "x"}, "c2"), id="a")
    graph.invoke({"messages": [calls]}, config)
    out = graph.invoke(Command(resume="a"), config)
    assert [i.value for i in out["__interrupt__"]] == ["second?"]
    out = graph.invoke(Command(resume="b"), config)
    assert [m.content for m in out["messages"]] == ["", "charged 1", "a b"]
    assert runs == {"charge": 1, "twice": 3}


@pytest.mark.foldgraph_only(
    "LangGraph runs a resumed ToolNode's finished sibling calls again (README)"
)
def test_v1_agent_resumes_only_the_interrupted_call() -> None:
    runs = {"charge": 0, "confirm": 0}
    model = ScriptedChatModel(replies=[CALLS, AIMessage("done", id="r2")])
    tools = counted_tools(runs)
    agent = create_react_agent(
        model, [tools[0], tools[2]], checkpointer=InMemorySaver(), version="v1"
    )
    config = {"configurable": {"thread_id": "1"}}
    agent.invoke({"messages": [HumanMessage("buy", id="h")]}, config)
    out = agent.invoke(Command(resume="yes"), config)
    assert [m.content for m in out["messages"]] == ["buy", "", "charged 5", "ship: yes", "done"]
    assert runs == {"charge": 1, "confirm": 2}


@pytest.mark.foldgraph_only(
    "LangGraph runs a resumed ToolNode's finished sibling calls again (README)"
)
def test_other_threads_do_not_reuse_outputs() -> None:
    runs = {"charge": 0, "confirm": 0}
    graph = tool_graph(counted_tools(runs))
    graph.invoke({"messages": [CALLS]}, {"configurable": {"thread_id": "1"}})
    graph.invoke({"messages": [CALLS]}, {"configurable": {"thread_id": "2"}})
    assert runs == {"charge": 2, "confirm": 2}
    graph.invoke(Command(resume="y"), {"configurable": {"thread_id": "2"}})
    graph.invoke(Command(resume="y"), {"configurable": {"thread_id": "1"}})
    assert runs == {"charge": 2, "confirm": 4}


@pytest.mark.foldgraph_only("foldgraph's store of finished call outputs; LangGraph keeps none")
def test_kept_outputs_are_bounded_and_taken_once() -> None:
    from foldgraph.prebuilt._finished_calls import FinishedCalls

    kept = FinishedCalls(bound=2)
    for i in range(3):
        kept.keep(("t", f"tools:{i}"), {"c": i})
    assert len(kept) == 2
    assert kept.take(("t", "tools:0")) == {}
    assert kept.take(("t", "tools:2")) == {"c": 2}
    assert kept.take(("t", "tools:2")) == {}
