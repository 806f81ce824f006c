"""Agentic RAG tutorial: the model chooses to retrieve; documents are graded; questions rewritten.

Source: https://langchain-ai.github.io/langgraph/tutorials/rag/langgraph_agentic_rag/
(docs.langchain.com/oss/python/langgraph/agentic-rag). generate_query_or_respond binds a
retriever tool; ToolNode runs it; grade_documents (structured output GradeDocuments)
routes to generate_answer or rewrite_question. The retriever tool searches a fixed list
of blog snippets; every LLM is a fake chat model.
"""

from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, convert_to_messages
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from pydantic import BaseModel, Field

BLOG = [
    "Reward hacking occurs when an RL agent exploits flaws in the reward function.",
    "Hallucination in LLMs refers to fabricated content.",
    "Diffusion video models extend image diffusion to time.",
]


class FakeChatModel(BaseChatModel):
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


@tool
def retrieve_blog_posts(query: str) -> str:
    """Search and return information about Lilian Weng blog posts."""
    words = [w for w in query.lower().split() if len(w) > 3]
    hits = [doc for doc in BLOG if any(w in doc.lower() for w in words)]
    return "\n\n".join(hits) or "No documents found."


retriever_tool = retrieve_blog_posts

response_model = FakeChatModel(
    responses=[
        AIMessage("Hello! How can I help?"),
        AIMessage(
            "",
            tool_calls=[
                {
                    "name": "retrieve_blog_posts",
                    "id": "r1",
                    "args": {"query": "types of unicorn hacking"},
                }
            ],
        ),
        AIMessage("What does Lilian Weng say about types of reward hacking?"),
        AIMessage(
            "",
            tool_calls=[
                {"name": "retrieve_blog_posts", "id": "r2", "args": {"query": "reward hacking"}}
            ],
        ),
        AIMessage("Reward hacking is when an agent exploits flaws in the reward function."),
    ]
)
grader_model = FakeChatModel(
    responses=[
        AIMessage(
            "", tool_calls=[{"name": "GradeDocuments", "id": "g1", "args": {"binary_score": "no"}}]
        ),
        AIMessage(
            "", tool_calls=[{"name": "GradeDocuments", "id": "g2", "args": {"binary_score": "yes"}}]
        ),
    ]
)


def generate_query_or_respond(state: MessagesState):
    response = response_model.bind_tools([retriever_tool]).invoke(state["messages"])
    return {"messages": [response]}


class GradeDocuments(BaseModel):
    """Grade documents using a binary score for relevance check."""

    binary_score: str = Field(description="Relevance score: 'yes' if relevant, or 'no'")


def grade_documents(state: MessagesState) -> Literal["generate_answer", "rewrite_question"]:
    question = state["messages"][0].content
    context = state["messages"][-1].content
    prompt = f"Question: {question}\nDocument: {context}\nRelevant?"
    response = grader_model.with_structured_output(GradeDocuments).invoke(
        [{"role": "user", "content": prompt}]
    )
    if response.binary_score == "yes":
        return "generate_answer"
    return "rewrite_question"


def rewrite_question(state: MessagesState):
    messages = state["messages"]
    question = messages[0].content
    prompt = f"Improve this question: {question}"
    response = response_model.invoke([{"role": "user", "content": prompt}])
    return {"messages": [{"role": "user", "content": response.content}]}


def generate_answer(state: MessagesState):
    question = state["messages"][0].content
    context = state["messages"][-1].content
    prompt = f"Question: {question}\nContext: {context}"
    response = response_model.invoke([{"role": "user", "content": prompt}])
    return {"messages": [response]}


workflow = StateGraph(MessagesState)
workflow.add_node(generate_query_or_respond)
workflow.add_node("retrieve", ToolNode([retriever_tool]))
workflow.add_node(rewrite_question)
workflow.add_node(generate_answer)
workflow.add_edge(START, "generate_query_or_respond")
workflow.add_conditional_edges(
    "generate_query_or_respond", tools_condition, {"tools": "retrieve", END: END}
)
workflow.add_conditional_edges("retrieve", grade_documents)
workflow.add_edge("generate_answer", END)
workflow.add_edge("rewrite_question", "generate_query_or_respond")
graph = workflow.compile()


def main():
    greeting = graph.invoke({"messages": convert_to_messages([("user", "hello!")])})
    chunks = []
    for chunk in graph.stream(
        {
            "messages": [
                {
                    "role": "user",
                    "content": "What does Lilian Weng say about types of unicorn hacking?",
                }
            ]
        }
    ):
        for node, update in chunk.items():
            chunks.append((node, update["messages"][-1]))
    return {"greeting": greeting["messages"][-1].content, "chunks": chunks}
