"""How to view and update state in subgraphs: a weather subgraph with a breakpoint.

Source: https://langchain-ai.github.io/langgraph/how-tos/subgraphs-manage-state/
A router classifies the query; weather questions go to a subgraph compiled with
interrupt_before=["weather_node"]. The guide then: reads the parent state and the
subgraph's (get_state(subgraphs=True)), resumes, replays the subgraph from a past
checkpoint found through the subgraph's own history, updates the subgraph's state
(`city`), acts as a subgraph node (as_node="weather_node") and as the whole subgraph
(as_node="weather_graph"). The models are fakes answering with tool calls (structured
output); everything the guide prints is recorded.
"""

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from typing_extensions import TypedDict


class FakeChatModel(BaseChatModel):
    """Answers from a script: structured-output calls get a tool call, chat gets text."""

    structured: dict[str, list[dict]] = {}
    index: dict[str, int] = {}

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        tools = kwargs.get("tools") or []
        if tools:
            name = tools[0]["function"]["name"]
            answers = self.structured[name]
            i = self.index.get(name, 0)
            self.index[name] = i + 1
            args = answers[i % len(answers)]
            message = AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{i}"}])
        else:
            message = AIMessage("Hello! How can I help you today?", id="chat-reply")
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake"

    def bind_tools(self, tools, **kwargs: Any):
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)


@tool
def get_weather(city: str):
    """Get the weather for a specific city"""
    return f"It's sunny in {city}!"


raw_model = FakeChatModel(
    structured={
        "get_weather": [{"city": "San Francisco"}],
        "Router": [
            {"route": "other"},
            {"route": "weather"},
            {"route": "weather"},
            {"route": "weather"},
            {"route": "weather"},
        ],
    }
)
model = raw_model.with_structured_output(get_weather)


class SubGraphState(MessagesState):
    city: str


def model_node(state: SubGraphState):
    result = model.invoke(state["messages"])
    return {"city": result["city"]}


def weather_node(state: SubGraphState):
    result = get_weather.invoke({"city": state["city"]})
    return {"messages": [{"role": "assistant", "content": result}]}


subgraph = StateGraph(SubGraphState)
subgraph.add_node(model_node)
subgraph.add_node(weather_node)
subgraph.add_edge(START, "model_node")
subgraph.add_edge("model_node", "weather_node")
subgraph.add_edge("weather_node", END)
subgraph = subgraph.compile(interrupt_before=["weather_node"])


class RouterState(MessagesState):
    route: Literal["weather", "other"]


class Router(TypedDict):
    route: Literal["weather", "other"]


router_model = raw_model.with_structured_output(Router)


def router_node(state: RouterState):
    system_message = "Classify the incoming query as either about weather or not."
    messages = [{"role": "system", "content": system_message}] + state["messages"]
    route = router_model.invoke(messages)
    return {"route": route["route"]}


def normal_llm_node(state: RouterState):
    response = raw_model.invoke(state["messages"])
    return {"messages": [response]}


def route_after_prediction(state: RouterState):
    if state["route"] == "weather":
        return "weather_graph"
    else:
        return "normal_llm_node"


graph = StateGraph(RouterState)
graph.add_node(router_node)
graph.add_node(normal_llm_node)
graph.add_node("weather_graph", subgraph)
graph.add_edge(START, "router_node")
graph.add_conditional_edges("router_node", route_after_prediction)
graph.add_edge("normal_llm_node", END)
graph.add_edge("weather_graph", END)
graph = graph.compile(checkpointer=MemorySaver())


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def snapshot(state):
    """What the guide prints of a StateSnapshot, with nested subgraph states."""
    return {
        "values": state.values,
        "next": state.next,
        "config": state.config,
        "metadata": state.metadata,
        "parent_config": state.parent_config,
        "interrupts": state.interrupts,
        "tasks": [
            {
                "name": t.name,
                "path": t.path,
                "interrupts": t.interrupts,
                "state": snapshot(t.state) if hasattr(t.state, "values") else t.state,
            }
            for t in state.tasks
        ],
    }


def main():
    out: dict[str, Any] = {}
    config = {"configurable": {"thread_id": "1"}}
    inputs = {"messages": [{"role": "user", "content": "hi!"}]}
    out["not_weather"] = list(graph.stream(inputs, config=config, stream_mode="updates"))

    config = {"configurable": {"thread_id": "2"}}
    inputs = {"messages": [{"role": "user", "content": "what's the weather in sf"}]}
    out["weather"] = list(graph.stream(inputs, config=config, stream_mode="updates"))
    out["state_next"] = graph.get_state(config).next
    out["state_with_subgraphs"] = snapshot(graph.get_state(config, subgraphs=True))
    out["resumed"] = [
        (ns_names(ns), value)
        for ns, value in graph.stream(None, config=config, stream_mode="values", subgraphs=True)
    ]

    # Resuming from a specific subgraph node: through the subgraph's own history.
    parent_before_subgraph = next(
        h for h in graph.get_state_history(config) if h.next == ("weather_graph",)
    )
    subgraph_before_model_node = next(
        h
        for h in graph.get_state_history(parent_before_subgraph.tasks[0].state)
        if h.next == ("model_node",)
    )
    out["subgraph_before_model_node"] = snapshot(subgraph_before_model_node)
    out["replayed"] = [
        (ns_names(ns), value)
        for ns, value in graph.stream(
            None, config=subgraph_before_model_node.config, stream_mode="values", subgraphs=True
        )
    ]

    # Modifying the subgraph's state.
    config = {"configurable": {"thread_id": "3"}}
    inputs = {"messages": [{"role": "user", "content": "what's the weather in sf"}]}
    out["third"] = list(graph.stream(inputs, config=config, stream_mode="updates"))
    state = graph.get_state(config, subgraphs=True)
    out["third_messages"] = state.values["messages"]
    graph.update_state(state.tasks[0].state.config, {"city": "la"})
    out["after_city_update"] = [
        (ns_names(ns), update)
        for ns, update in graph.stream(None, config=config, stream_mode="updates", subgraphs=True)
    ]

    # Acting as a subgraph node.
    config = {"configurable": {"thread_id": "14"}}
    out["fourth"] = list(graph.stream(inputs, config=config, stream_mode="updates"))
    state = graph.get_state(config, subgraphs=True)
    graph.update_state(
        state.tasks[0].state.config,
        {"messages": [{"role": "assistant", "content": "rainy"}]},
        as_node="weather_node",
    )
    out["as_subgraph_node"] = [
        (ns_names(ns), update)
        for ns, update in graph.stream(None, config=config, stream_mode="updates", subgraphs=True)
    ]
    out["as_subgraph_node_messages"] = graph.get_state(config).values["messages"]

    # Acting as the entire subgraph.
    config = {"configurable": {"thread_id": "8"}}
    out["fifth"] = list(graph.stream(inputs, config=config, stream_mode="updates"))
    state = graph.get_state(config, subgraphs=True)
    graph.update_state(
        state.config,
        {"messages": [{"role": "assistant", "content": "rainy"}]},
        as_node="weather_graph",
    )
    out["as_whole_subgraph"] = list(graph.stream(None, config=config, stream_mode="updates"))
    out["as_whole_subgraph_messages"] = graph.get_state(config).values["messages"]
    return out
