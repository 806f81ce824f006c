"""create_react_agent driven by a scripted chat model (outputs checked on LangGraph)."""

import asyncio
import sys
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool
from prebuilt_fakes import ScriptedChatModel, ai, call
from pydantic import BaseModel
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph.message import add_messages
from foldgraph.managed import RemainingSteps
from foldgraph.prebuilt import InjectedStore, ToolNode, create_react_agent
from foldgraph.store.memory import InMemoryStore
from foldgraph.types import Command, interrupt
from foldgraph.warnings import LangGraphDeprecatedSinceV10

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CONFIG = {"configurable": {"thread_id": "t"}}


@tool
def weather(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


@tool
def population(city: str) -> int:
    """The population of a city."""
    return {"sf": 800_000, "nyc": 8_000_000}[city]


def shape(messages: list[Any]) -> list[tuple[str, Any]]:
    return [(m.type, m.content) for m in messages]


TWO_PARALLEL = [
    ai(call("weather", {"city": "sf"}, "c1"), call("population", {"city": "sf"}, "c2"), id="r1"),
    AIMessage("sf is sunny, 800k people", id="r2"),
]


def test_create_react_agent_warns_as_deprecated() -> None:
    with pytest.warns(LangGraphDeprecatedSinceV10) as record:
        create_react_agent(ScriptedChatModel(replies=[AIMessage("hi")]), [])
    assert str(record[0].message) == (
        "create_react_agent has been moved to `langchain.agents`. Please update your import to "
        "`from langchain.agents import create_agent`. Deprecated in LangGraph V1.0 to be "
        "removed in V2.0."
    )


def test_agent_without_tools_answers_once() -> None:
    model = ScriptedChatModel(replies=[AIMessage("hello", id="r")])
    agent = create_react_agent(model, [])
    out = agent.invoke({"messages": [("user", "hi")]})
    assert shape(out["messages"]) == [("human", "hi"), ("ai", "hello")]
    assert list(agent.get_graph().nodes) == ["__start__", "agent", "__end__"]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_react_loop_with_two_parallel_calls_and_a_checkpointer(version: str) -> None:
    model = ScriptedChatModel(replies=TWO_PARALLEL)
    agent = create_react_agent(
        model, [weather, population], checkpointer=InMemorySaver(), version=version
    )
    out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]}, CONFIG)
    assert shape(out["messages"]) == [
        ("human", "sf?"),
        ("ai", ""),
        ("tool", "sunny in sf"),
        ("tool", "800000"),
        ("ai", "sf is sunny, 800k people"),
    ]
    assert [m.tool_call_id for m in out["messages"][2:4]] == ["c1", "c2"]
    assert [m.name for m in out["messages"][2:4]] == ["weather", "population"]
    # the model saw the tool results on its second call
    assert shape(model.seen[1]) == shape(out["messages"][:4])
    state = agent.get_state(CONFIG)
    assert state.next == ()
    assert shape(state.values["messages"]) == shape(out["messages"])
    steps = [s.metadata["step"] for s in agent.get_state_history(CONFIG)]
    assert steps == [3, 2, 1, 0, -1]
    # the thread continues where it stopped
    model.replies.append(AIMessage("bye", id="r3"))
    out = agent.invoke({"messages": [HumanMessage("thanks", id="h2")]}, CONFIG)
    assert shape(out["messages"])[-2:] == [("human", "thanks"), ("ai", "bye")]


def test_v1_and_v2_give_the_same_final_messages() -> None:
    finals = []
    for version in ("v1", "v2"):
        model = ScriptedChatModel(replies=TWO_PARALLEL)
        agent = create_react_agent(model, [weather, population], version=version)
        out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]})
        finals.append(
            [(m.type, m.content, getattr(m, "tool_call_id", None)) for m in out["messages"]]
        )
    assert finals[0] == finals[1]


def test_v1_runs_one_tools_task_and_v2_one_per_call() -> None:
    for version, expected in (("v1", [("tools", 2)]), ("v2", [("tools", 1), ("tools", 1)])):
        model = ScriptedChatModel(replies=TWO_PARALLEL)
        agent = create_react_agent(model, [weather, population], version=version)
        chunks = list(agent.stream({"messages": [HumanMessage("sf?", id="h")]}))
        tools = [(k, len(v["messages"])) for c in chunks for k, v in c.items() if k == "tools"]
        assert tools == expected


def test_approval_interrupt_inside_a_tool_resumes_only_that_call() -> None:
    runs = {"weather": 0, "delete": 0}

    @tool
    def delete_file(path: str) -> str:
        """Delete a file, after a human approves."""
        runs["delete"] += 1
        answer = interrupt({"action": "delete", "path": path})
        return "deleted" if answer == "approve" else "kept"

    @tool
    def weather_counted(city: str) -> str:
        """Weather, counted."""
        runs["weather"] += 1
        return f"sunny in {city}"

    model = ScriptedChatModel(
        replies=[
            ai(
                call("weather_counted", {"city": "sf"}, "c1"),
                call("delete_file", {"path": "/tmp/x"}, "c2"),
                id="r1",
            ),
            AIMessage("done", id="r2"),
        ]
    )
    agent = create_react_agent(model, [weather_counted, delete_file], checkpointer=InMemorySaver())
    out = agent.invoke({"messages": [HumanMessage("go", id="h")]}, CONFIG)
    assert [i.value for i in out["__interrupt__"]] == [{"action": "delete", "path": "/tmp/x"}]
    assert agent.get_state(CONFIG).next == ("tools",)
    assert runs == {"weather": 1, "delete": 1}
    out = agent.invoke(Command(resume="approve"), CONFIG)
    assert shape(out["messages"]) == [
        ("human", "go"),
        ("ai", ""),
        ("tool", "sunny in sf"),
        ("tool", "deleted"),
        ("ai", "done"),
    ]
    assert runs == {"weather": 1, "delete": 2}


def test_forged_store_argument_from_the_model_is_stripped() -> None:
    @tool
    def remember(fact: str, store: Annotated[Any, InjectedStore()]) -> str:
        """Remember a fact."""
        store.put(("facts",), "f", {"fact": fact})
        return "ok"

    store = InMemoryStore()
    forged = call("remember", {"fact": "sky is blue", "store": {"put": "evil"}}, "c1")
    model = ScriptedChatModel(replies=[ai(forged, id="r1"), AIMessage("saved", id="r2")])
    agent = create_react_agent(model, [remember], store=store)
    out = agent.invoke({"messages": [HumanMessage("remember", id="h")]})
    assert shape(out["messages"])[-2:] == [("tool", "ok"), ("ai", "saved")]
    assert store.get(("facts",), "f").value == {"fact": "sky is blue"}
    shown = model.tools_seen[0][0]["function"]["parameters"]["properties"]
    assert list(shown) == ["fact"]


# --------------------------------------------------------------------------- prompts


@pytest.mark.parametrize(
    "prompt",
    [
        "be brief",
        SystemMessage("be brief"),
        lambda state: [SystemMessage("be brief"), *state["messages"]],
        RunnableLambda(lambda state: [SystemMessage("be brief"), *state["messages"]]),
    ],
    ids=["str", "system_message", "callable", "runnable"],
)
def test_prompt_forms(prompt: Any) -> None:
    model = ScriptedChatModel(replies=[AIMessage("ok", id="r")])
    create_react_agent(model, [weather], prompt=prompt).invoke(
        {"messages": [HumanMessage("hi", id="h")]}
    )
    assert shape(model.seen[0]) == [("system", "be brief"), ("human", "hi")]


def test_async_prompt_and_ainvoke() -> None:
    async def prompt(state: Any) -> list[Any]:
        return [SystemMessage("async"), *state["messages"]]

    model = ScriptedChatModel(replies=TWO_PARALLEL)
    agent = create_react_agent(model, [weather, population], prompt=prompt)
    out = asyncio.run(agent.ainvoke({"messages": [HumanMessage("sf?", id="h")]}))
    assert shape(out["messages"])[-1] == ("ai", "sf is sunny, 800k people")
    assert shape(model.seen[0]) == [("system", "async"), ("human", "sf?")]


# --------------------------------------------------------------------------- models


def test_tools_are_bound_to_the_model() -> None:
    model = ScriptedChatModel(replies=[AIMessage("ok", id="r")])
    agent = create_react_agent(model, [weather, population])
    agent.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert [t["function"]["name"] for t in model.tools_seen[0]] == ["weather", "population"]


def test_prebound_model_with_the_same_tools_is_used_as_is() -> None:
    model = ScriptedChatModel(replies=[AIMessage("ok", id="r")])
    agent = create_react_agent(model.bind_tools([weather]), [weather])
    out = agent.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert shape(out["messages"])[-1] == ("ai", "ok")


def test_prebound_model_with_other_tools_is_an_error() -> None:
    model = ScriptedChatModel(replies=[AIMessage("ok")])
    with pytest.raises(ValueError) as info:
        create_react_agent(model.bind_tools([weather]), [weather, population])
    assert str(info.value) == (
        "Number of tools in the model.bind_tools() and tools passed to create_react_agent "
        "must match Got 2 tools, expected 1"
    )
    with pytest.raises(ValueError) as info:
        create_react_agent(model.bind_tools([weather]), [population])
    assert str(info.value) == "Missing tools '{'population'}' in the model.bind_tools()"


def test_model_without_bind_tools_given_tools() -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    model = GenericFakeChatModel(messages=iter([AIMessage("x")]))
    with pytest.raises(NotImplementedError):
        create_react_agent(model, [weather])


def test_dynamic_model_chosen_from_state_and_runtime() -> None:
    fast = ScriptedChatModel(replies=[AIMessage("fast", id="f")])
    smart = ScriptedChatModel(replies=[AIMessage("smart", id="s")])

    def choose(state: Any, runtime: Any) -> Any:
        chosen = smart if runtime.context["tier"] == "pro" else fast
        return chosen.bind_tools([weather])

    agent = create_react_agent(choose, [weather])
    out = agent.invoke({"messages": [HumanMessage("hi", id="h")]}, context={"tier": "pro"})
    assert shape(out["messages"])[-1] == ("ai", "smart")
    out = agent.invoke({"messages": [HumanMessage("hi", id="h")]}, context={"tier": "free"})
    assert shape(out["messages"])[-1] == ("ai", "fast")


def test_async_dynamic_model_needs_the_async_api() -> None:
    async def choose(state: Any, runtime: Any) -> Any:
        return ScriptedChatModel(replies=[AIMessage("async", id="a")])

    agent = create_react_agent(choose, [])
    out = asyncio.run(agent.ainvoke({"messages": [HumanMessage("hi", id="h")]}))
    assert shape(out["messages"])[-1] == ("ai", "async")
    with pytest.raises(RuntimeError) as info:
        agent.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert str(info.value) == (
        "Async model callable provided but agent invoked synchronously. Use agent.ainvoke() or "
        "agent.astream(), or provide a sync model callable."
    )


@pytest.mark.parametrize("tools", [[weather], []])
def test_string_model_needs_langchain(tools: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # The agent-stack extra installs langchain; hide it as a machine without it would.
    monkeypatch.setitem(sys.modules, "langchain", None)
    monkeypatch.setitem(sys.modules, "langchain.chat_models", None)
    with pytest.raises(ImportError) as info:
        create_react_agent("openai:gpt-4o", tools)
    assert type(info.value) is ImportError
    assert str(info.value) == (
        "Please install langchain (`pip install langchain`) to use '<provider>:<model>' "
        "string syntax for `model` parameter."
    )
    # Raised while handling the failed import, which stays visible (as LangGraph 1.2).
    assert isinstance(info.value.__context__, ModuleNotFoundError)
    assert not info.value.__suppress_context__


# --------------------------------------------------------------------------- guards


def test_remaining_steps_guard_replaces_the_last_ai_message() -> None:
    looping = [ai(call("weather", {"city": "sf"}, f"c{i}"), id=f"r{i}") for i in range(5)]
    model = ScriptedChatModel(replies=looping)
    agent = create_react_agent(model, [weather])
    out = agent.invoke({"messages": [HumanMessage("loop", id="h")]}, {"recursion_limit": 6})
    assert shape(out["messages"]) == [
        ("human", "loop"),
        ("ai", ""),
        ("tool", "sunny in sf"),
        ("ai", ""),
        ("tool", "sunny in sf"),
        ("ai", "Sorry, need more steps to process this request."),
    ]
    assert out["messages"][-1].id == "r2"
    assert out["messages"][-1].tool_calls == []


def test_unanswered_tool_call_in_the_history_is_an_error() -> None:
    model = ScriptedChatModel(replies=[AIMessage("x")])
    agent = create_react_agent(model, [weather])
    history = [HumanMessage("hi", id="h"), ai(call("weather", {"city": "sf"}, "c9"), id="a")]
    with pytest.raises(ValueError) as info:
        agent.invoke({"messages": [*history, HumanMessage("again", id="h2")]})
    assert str(info.value) == (
        "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
        "Here are the first few of those tool calls: [{'name': 'weather', 'args': "
        "{'city': 'sf'}, 'id': 'c9', 'type': 'tool_call'}].\n\n"
        "Every tool call (LLM requesting to call a tool) in the message history MUST have a "
        "corresponding ToolMessage (result of a tool invocation to return to the LLM) - this "
        "is required by most LLM providers.\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/"
        "INVALID_CHAT_HISTORY"
    )


def test_bad_version_and_unknown_keyword() -> None:
    model = ScriptedChatModel(replies=[AIMessage("x")])
    with pytest.raises(ValueError) as info:
        create_react_agent(model, [], version="v3")  # type: ignore[arg-type]
    assert str(info.value) == "Invalid version v3. Supported versions are 'v1' and 'v2'."
    with pytest.raises(TypeError) as info2:
        create_react_agent(model, [], colour="red")
    assert str(info2.value) == (
        "create_react_agent() got unexpected keyword arguments: {'colour': 'red'}"
    )


def test_bad_tool_is_an_error() -> None:
    model = ScriptedChatModel(replies=[AIMessage("x")])
    with pytest.raises(ValueError) as info:
        create_react_agent(model, [42])  # type: ignore[list-item]
    assert str(info.value) == (
        "The first argument must be a string or a callable with a __name__ for tool "
        "decorator. Got <class 'int'>"
    )


def test_state_schema_must_have_the_agent_keys() -> None:
    class Thin(TypedDict):
        messages: Annotated[list, add_messages]

    model = ScriptedChatModel(replies=[AIMessage("x")])
    with pytest.raises(ValueError) as info:
        create_react_agent(model, [], state_schema=Thin)
    assert str(info.value) == "Missing required key(s) {'remaining_steps'} in state_schema"


# --------------------------------------------------------------------------- return_direct


def test_return_direct_tool_ends_the_run() -> None:
    @tool(return_direct=True)
    def final_answer(text: str) -> str:
        """Answer directly."""
        return text

    model = ScriptedChatModel(replies=[ai(call("final_answer", {"text": "42"}, "c"), id="r")])
    for version in ("v1", "v2"):
        agent = create_react_agent(model, [final_answer, weather], version=version)
        out = agent.invoke({"messages": [HumanMessage("q", id="h")]})
        assert shape(out["messages"]) == [("human", "q"), ("ai", ""), ("tool", "42")]


# --------------------------------------------------------------------------- structured response


class Weather(BaseModel):
    city: str
    sunny: bool


def test_structured_response_after_the_loop() -> None:
    model = ScriptedChatModel(replies=TWO_PARALLEL, structured=Weather(city="sf", sunny=True))
    agent = create_react_agent(
        model, [weather, population], response_format=("answer as json", Weather)
    )
    out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]})
    assert out["structured_response"] == Weather(city="sf", sunny=True)
    assert shape(model.seen[-1])[0] == ("system", "answer as json")
    assert len(model.seen[-1]) == 6


# --------------------------------------------------------------------------- hooks and schemas


def test_pre_model_hook_feeds_llm_input_messages() -> None:
    def trim(state: Any) -> dict[str, Any]:
        return {"llm_input_messages": state["messages"][-1:]}

    model = ScriptedChatModel(replies=TWO_PARALLEL)
    agent = create_react_agent(model, [weather, population], pre_model_hook=trim)
    out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]})
    assert shape(out["messages"])[-1] == ("ai", "sf is sunny, 800k people")
    assert shape(model.seen[1]) == [("tool", "800000")]
    assert "llm_input_messages" not in out


def test_post_model_hook_runs_after_each_model_call() -> None:
    seen: list[int] = []

    def audit(state: Any) -> dict[str, Any]:
        seen.append(len(state["messages"]))
        return {}

    model = ScriptedChatModel(replies=TWO_PARALLEL)
    agent = create_react_agent(model, [weather, population], post_model_hook=audit)
    out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]})
    assert shape(out["messages"])[-1] == ("ai", "sf is sunny, 800k people")
    assert seen == [2, 5]


def test_custom_state_schema_and_pydantic_state() -> None:
    class Custom(TypedDict):
        messages: Annotated[list, add_messages]
        remaining_steps: RemainingSteps
        user: str

    @tool
    def hello(name: str) -> str:
        """Greet."""
        return f"hi {name}"

    model = ScriptedChatModel(
        replies=[ai(call("hello", {"name": "x"}, "c"), id="r"), AIMessage("ok", id="r2")]
    )
    agent = create_react_agent(model, [hello], state_schema=Custom)
    out = agent.invoke({"messages": [HumanMessage("hi", id="h")], "user": "ann"})
    assert out["user"] == "ann"
    assert shape(out["messages"])[-2:] == [("tool", "hi x"), ("ai", "ok")]

    from foldgraph.prebuilt.chat_agent_executor import AgentStatePydantic

    model = ScriptedChatModel(
        replies=[ai(call("hello", {"name": "y"}, "c"), id="r"), AIMessage("ok", id="r2")]
    )
    agent = create_react_agent(model, [hello], state_schema=AgentStatePydantic)
    out = agent.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert shape(out["messages"])[-2:] == [("tool", "hi y"), ("ai", "ok")]


def test_tool_node_given_directly_and_agent_name() -> None:
    node = ToolNode([weather], handle_tool_errors="failed")
    model = ScriptedChatModel(
        replies=[ai(call("weather", {"town": "sf"}, "c"), id="r"), AIMessage("ok", id="r2")]
    )
    agent = create_react_agent(model, node, name="helper")
    assert agent.name == "helper"
    out = agent.invoke({"messages": [HumanMessage("q", id="h")]})
    assert shape(out["messages"])[-2:] == [("tool", "failed"), ("ai", "ok")]
    assert out["messages"][-1].name == "helper"


def test_interrupt_before_tools() -> None:
    model = ScriptedChatModel(replies=TWO_PARALLEL)
    agent = create_react_agent(
        model, [weather, population], checkpointer=InMemorySaver(), interrupt_before=["tools"]
    )
    out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]}, CONFIG)
    assert shape(out["messages"]) == [("human", "sf?"), ("ai", "")]
    assert agent.get_state(CONFIG).next == ("tools", "tools")
    out = agent.invoke(None, CONFIG)
    assert shape(out["messages"])[-1] == ("ai", "sf is sunny, 800k people")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_tracer_sees_the_runs_langgraph_shows(mode: str) -> None:
    """Each run with its parent and tags, as LangGraph 1.2 reports them: the model's
    sequence is a sibling of `call_model` under `agent`, and the conditional edge
    (`should_continue`) is a run of its own under the node it leaves."""
    from langchain_core.callbacks import BaseCallbackHandler

    class Recorder(BaseCallbackHandler):
        def __init__(self) -> None:
            self.runs: list[tuple[str, Any, Any, tuple[str, ...]]] = []
            self.names: dict[Any, Any] = {}

        def _add(self, kind: str, name: Any, kw: dict[str, Any]) -> None:
            self.names[kw["run_id"]] = name
            parent = self.names.get(kw.get("parent_run_id"))
            self.runs.append((kind, name, parent, tuple(sorted(kw.get("tags") or []))))

        def on_chain_start(self, serialized: Any, inputs: Any, **kw: Any) -> None:
            self._add("chain", kw.get("name"), kw)

        def on_chat_model_start(self, serialized: Any, messages: Any, **kw: Any) -> None:
            self._add("model", len(messages[0]), kw)

        def on_tool_start(self, serialized: Any, input_str: str, **kw: Any) -> None:
            self._add("tool", serialized.get("name"), kw)

    recorder = Recorder()
    model = ScriptedChatModel(
        replies=[ai(call("weather", {"city": "sf"}, "c1"), id="r1"), AIMessage("ok", id="r2")]
    )
    agent = create_react_agent(model, [weather], prompt="be brief")
    inputs = {"messages": [HumanMessage("hi", id="h")]}
    if mode == "sync":
        agent.invoke(inputs, {"callbacks": [recorder]})
    else:
        asyncio.run(agent.ainvoke(inputs, {"callbacks": [recorder]}))

    def one_call(step: int, seen: int) -> list[tuple[str, Any, Any, tuple[str, ...]]]:
        return [
            ("chain", "agent", "LangGraph", (f"graph:step:{step}",)),
            ("chain", "call_model", "agent", ("seq:step:1",)),
            ("chain", "RunnableSequence", "agent", ("seq:step:1",)),
            ("chain", "Prompt", "RunnableSequence", ("seq:step:1",)),
            ("model", seen, "RunnableSequence", ("seq:step:2",)),
            ("chain", "should_continue", "agent", ("seq:step:3",)),
        ]

    assert recorder.runs == [
        ("chain", "LangGraph", None, ()),
        *one_call(1, 2),
        ("chain", "tools", "LangGraph", ("graph:step:2",)),
        ("tool", "weather", "tools", ("seq:step:1",)),
        *one_call(3, 4),
    ]


def test_tools_condition_is_traced_as_a_run_under_its_node() -> None:
    """A graph routing with `tools_condition` shows it as LangGraph 1.2 does."""
    from langchain_core.callbacks import BaseCallbackHandler

    from foldgraph.graph import START, MessagesState, StateGraph
    from foldgraph.prebuilt import tools_condition

    class Recorder(BaseCallbackHandler):
        def __init__(self) -> None:
            self.events: list[tuple[str, Any, tuple[str, ...]]] = []
            self.names: dict[Any, Any] = {}

        def on_chain_start(self, serialized: Any, inputs: Any, **kw: Any) -> None:
            self.names[kw["run_id"]] = kw.get("name")
            self.events.append(("start", kw.get("name"), tuple(kw.get("tags") or [])))

        def on_chain_end(self, outputs: Any, **kw: Any) -> None:
            name = self.names[kw["run_id"]]
            if name == "tools_condition":
                self.events.append(("end", outputs, tuple(kw.get("tags") or [])))

    replies = iter([ai(call("weather", {"city": "sf"}, "c1"), id="r1"), AIMessage("ok", id="r2")])
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda state: {"messages": [next(replies)]})
    builder.add_node("tools", ToolNode([weather]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    recorder = Recorder()
    builder.compile().invoke({"messages": [HumanMessage("hi", id="h")]}, {"callbacks": [recorder]})
    assert recorder.events == [
        ("start", "LangGraph", ()),
        ("start", "agent", ("graph:step:1",)),
        ("start", "tools_condition", ("seq:step:3",)),
        ("end", "tools", ("seq:step:3",)),
        ("start", "tools", ("graph:step:2",)),
        ("start", "agent", ("graph:step:3",)),
        ("start", "tools_condition", ("seq:step:3",)),
        ("end", "__end__", ("seq:step:3",)),
    ]


def test_provider_builtin_tools_are_bound_but_not_run() -> None:
    model = ScriptedChatModel(replies=[AIMessage("ok", id="r")])
    agent = create_react_agent(model, [weather, {"type": "web_search_preview"}])
    agent.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert [t.get("type") for t in model.tools_seen[0]] == ["function", "web_search_preview"]
    assert list(agent.nodes) == ["__start__", "agent", "tools"]


def test_messages_stream_of_the_agent() -> None:
    model = ScriptedChatModel(
        replies=[ai(call("weather", {"city": "sf"}, "c1"), id="r1"), AIMessage("ok", id="r2")]
    )
    agent = create_react_agent(model, [weather])
    chunks = list(agent.stream({"messages": [HumanMessage("hi", id="h")]}, stream_mode="messages"))
    assert [
        (type(m).__name__, m.content, meta["langgraph_node"], meta["langgraph_step"])
        for m, meta in chunks
    ] == [
        ("AIMessage", "", "agent", 1),
        ("ToolMessage", "sunny in sf", "tools", 2),
        ("AIMessage", "ok", "agent", 3),
    ]


def test_interrupt_after_agent_then_continue() -> None:
    model = ScriptedChatModel(replies=TWO_PARALLEL)
    agent = create_react_agent(
        model, [weather, population], checkpointer=InMemorySaver(), interrupt_after=["agent"]
    )
    out = agent.invoke({"messages": [HumanMessage("sf?", id="h")]}, CONFIG)
    assert shape(out["messages"]) == [("human", "sf?"), ("ai", "")]
    assert agent.get_state(CONFIG).next == ("tools", "tools")
    out = agent.invoke(None, CONFIG)
    assert shape(out["messages"])[2:] == [
        ("tool", "sunny in sf"),
        ("tool", "800000"),
        ("ai", "sf is sunny, 800k people"),
    ]
    assert agent.get_state(CONFIG).next == ()
