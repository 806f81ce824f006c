"""The retrieval-agent template (langchain-ai/retrieval-agent-template), its pre-1.0 form.

Source: https://github.com/langchain-ai/retrieval-agent-template (src/retrieval_graph/
graph.py, state.py, configuration.py). generate_query uses the first message as the
query and afterwards asks a structured-output model for one; retrieve calls a
retriever; respond answers from the retrieved documents. The graph keeps the
template's older spelling: StateGraph(State, input=InputState, config_schema=...),
and configuration read from RunnableConfig. Models and retriever are fakes.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, cast

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableConfig, ensure_config
from langgraph.graph import StateGraph, add_messages
from pydantic import BaseModel


class FakeChatModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake"

    def bind_tools(self, tools, **kwargs: Any):
        return self


QUERY_MODEL = FakeChatModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[{"name": "SearchQuery", "args": {"query": "cats sleep"}, "id": "q1"}],
        )
    ]
)
RESPONSE_MODEL = FakeChatModel(
    responses=[AIMessage("Cats like boxes."), AIMessage("Cats sleep 16 hours a day.")]
)
DOCS = {
    "cats": [Document(page_content="Cats like boxes.", metadata={"id": "d1"})],
    "cats sleep": [Document(page_content="Cats sleep a lot.", metadata={"id": "d2"})],
}
response_prompts = []


class FakeRetriever:
    async def ainvoke(self, query: str, config: RunnableConfig | None = None):
        return DOCS.get(query, [])


@dataclass(kw_only=True)
class Configuration:
    user_id: str = "anonymous"
    response_system_prompt: str = "Answer using:\n{retrieved_docs}"
    query_system_prompt: str = "Previous queries:\n- {queries}"

    @classmethod
    def from_runnable_config(cls, config: RunnableConfig | None = None) -> "Configuration":
        config = ensure_config(config)
        configurable = config.get("configurable") or {}
        _fields = {f.name for f in fields(cls) if f.init}
        return cls(**{k: v for k, v in configurable.items() if k in _fields})


def add_queries(existing: Sequence[str], new: Sequence[str]) -> Sequence[str]:
    return list(existing) + list(new)


@dataclass(kw_only=True)
class InputState:
    messages: Annotated[Sequence[AnyMessage], add_messages]


@dataclass(kw_only=True)
class State(InputState):
    queries: Annotated[list[str], add_queries] = field(default_factory=list)
    retrieved_docs: list[Document] = field(default_factory=list)


class SearchQuery(BaseModel):
    """Search the indexed documents for a query."""

    query: str


def format_docs(docs: list[Document] | None) -> str:
    if not docs:
        return "<documents></documents>"
    formatted = "\n".join(
        f'<document id="{d.metadata["id"]}">{d.page_content}</document>' for d in docs
    )
    return f"<documents>\n{formatted}\n</documents>"


async def generate_query(state: State, *, config: RunnableConfig) -> dict[str, list[str]]:
    messages = state.messages
    if len(messages) == 1:
        return {"queries": [messages[-1].content]}
    configuration = Configuration.from_runnable_config(config)
    prompt = ChatPromptTemplate.from_messages(
        [("system", configuration.query_system_prompt), ("placeholder", "{messages}")]
    )
    model = QUERY_MODEL.with_structured_output(SearchQuery)
    message_value = await prompt.ainvoke(
        {"messages": state.messages, "queries": "\n- ".join(state.queries)}, config
    )
    generated = cast(SearchQuery, await model.ainvoke(message_value, config))
    return {"queries": [generated.query]}


async def retrieve(state: State, *, config: RunnableConfig) -> dict[str, list[Document]]:
    response = await FakeRetriever().ainvoke(state.queries[-1], config)
    return {"retrieved_docs": response}


async def respond(state: State, *, config: RunnableConfig) -> dict[str, list[AnyMessage]]:
    configuration = Configuration.from_runnable_config(config)
    prompt = ChatPromptTemplate.from_messages(
        [("system", configuration.response_system_prompt), ("placeholder", "{messages}")]
    )
    message_value = await prompt.ainvoke(
        {"messages": state.messages, "retrieved_docs": format_docs(state.retrieved_docs)},
        config,
    )
    response_prompts.append(message_value.to_messages()[0].content)
    response = await RESPONSE_MODEL.ainvoke(message_value, config)
    return {"messages": [response]}


builder = StateGraph(State, input=InputState, config_schema=Configuration)
builder.add_node(generate_query)
builder.add_node(retrieve)
builder.add_node(respond)
builder.add_edge("__start__", "generate_query")
builder.add_edge("generate_query", "retrieve")
builder.add_edge("retrieve", "respond")


async def main():
    graph = builder.compile(interrupt_before=[], interrupt_after=[])
    graph.name = "RetrievalGraph"
    first = await graph.ainvoke(
        {"messages": [("user", "cats")]}, {"configurable": {"user_id": "u1"}}
    )
    second = await graph.ainvoke(
        {"messages": [*first["messages"], ("user", "how long do they sleep?")]},
        {"configurable": {"user_id": "u1"}},
    )
    return {
        "first": first,
        "second_queries": second["queries"],
        "second_docs": second["retrieved_docs"],
        "second_last": second["messages"][-1].content,
        "response_prompts": response_prompts,
    }
