"""Stream a graph with a subgraph: subgraphs=True with updates, messages and custom at once.

Source: https://langchain-ai.github.io/langgraph/how-tos/streaming/#stream-subgraph-outputs
and the issue reports about namespaces of streamed chunks. The parent calls a compiled
subgraph as a node; the subgraph's nodes call a streaming chat model and write custom
data. Every chunk is recorded as (namespace, mode, payload), namespaces as their node
names (the task ids after ``:`` are generated).
"""

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.config import get_stream_writer
from langgraph.graph import START, MessagesState, StateGraph

model = GenericFakeChatModel(messages=iter([AIMessage("Paris is the capital", id="ai-1")] * 4))


class SubState(MessagesState):
    city: str


def lookup(state: SubState):
    writer = get_stream_writer()
    writer({"lookup": "started"})
    reply = model.invoke(state["messages"])
    return {"messages": [reply], "city": "Paris"}


def summarize(state: SubState):
    get_stream_writer()({"summary_for": state["city"]})
    return {"messages": [AIMessage(f"Summary: {state['city']}", id="ai-2")]}


subgraph = (
    StateGraph(SubState)
    .add_node(lookup)
    .add_node(summarize)
    .add_edge(START, "lookup")
    .add_edge("lookup", "summarize")
    .compile()
)


def prepare(state: MessagesState):
    get_stream_writer()("preparing")
    return {"messages": [{"role": "user", "content": "capital of France?", "id": "h-2"}]}


graph = (
    StateGraph(MessagesState)
    .add_node(prepare)
    .add_node("research", subgraph)
    .add_edge(START, "prepare")
    .add_edge("prepare", "research")
    .compile()
)


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def main():
    inputs = {"messages": [{"role": "user", "content": "hi", "id": "h-1"}]}
    chunks = []
    meta_seen = {}
    for ns, mode, payload in graph.stream(
        inputs, stream_mode=["updates", "messages", "custom"], subgraphs=True
    ):
        if mode == "messages":
            msg, meta = payload
            chunks.append(
                (ns_names(ns), mode, type(msg).__name__, msg.content, meta["langgraph_node"])
            )
            meta_seen.setdefault(
                meta["langgraph_node"],
                sorted(
                    k for k in meta if k.startswith("langgraph_") or k.startswith("checkpoint_ns")
                ),
            )
            meta_seen.setdefault(
                "ns_of_" + meta["langgraph_node"],
                [p.split(":")[0] for p in meta["langgraph_checkpoint_ns"].split("|")],
            )
        else:
            chunks.append((ns_names(ns), mode, payload))
    ns_is_tuple = [type(ns).__name__ for ns, _ in graph.stream(inputs, subgraphs=True)]
    no_sub = list(graph.stream(inputs, stream_mode=["updates", "custom"]))
    single_mode = [
        (ns_names(ns), chunk)
        for ns, chunk in graph.stream(inputs, stream_mode="custom", subgraphs=True)
    ]
    return {
        "chunks": chunks,
        "meta": meta_seen,
        "ns_types": ns_is_tuple,
        "without_subgraphs": no_sub,
        "single_mode": single_mode,
    }
