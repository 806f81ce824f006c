"""Corrective RAG (CRAG) tutorial: grade retrieved documents, rewrite the query, web search.

Source: https://langchain-ai.github.io/langgraph/tutorials/rag/langgraph_crag/
GraphState is a TypedDict with a plain `documents: List[str]` key; web_search
appends the web result to the state's list in place (`documents.append(...)`) and
returns it. The grader, rewriter, generator, retriever and web search are
deterministic fakes in place of the tutorial's OpenAI/Tavily calls.
"""

import copy
from typing import List  # noqa: UP035 - as the tutorial writes it

from langchain_core.documents import Document
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

steps = []


class GraphState(TypedDict):
    """Represents the state of our graph."""

    question: str
    generation: str
    web_search: str
    documents: List[str]  # noqa: UP006


INDEX = {
    "agent memory": [
        Document(page_content="Agents keep short-term memory in context."),
        Document(page_content="Bananas are yellow."),
    ],
}


def retrieve(state):
    steps.append("---RETRIEVE---")
    question = state["question"]
    documents = INDEX.get(question, [Document(page_content="Unrelated text.")])
    return {"documents": documents, "question": question}


def generate(state):
    steps.append("---GENERATE---")
    question = state["question"]
    documents = state["documents"]
    context = " | ".join(d.page_content for d in documents)
    generation = f"Answer to {question!r} from: {context}"
    return {"documents": documents, "question": question, "generation": generation}


def grade(question: str, doc: Document) -> str:
    words = [w for w in question.lower().split() if len(w) > 3]
    return "yes" if any(w.rstrip("?") in doc.page_content.lower() for w in words) else "no"


def grade_documents(state):
    steps.append("---CHECK DOCUMENT RELEVANCE TO QUESTION---")
    question = state["question"]
    documents = state["documents"]
    filtered_docs = []
    web_search = "No"
    for d in documents:
        if grade(question, d) == "yes":
            steps.append("---GRADE: DOCUMENT RELEVANT---")
            filtered_docs.append(d)
        else:
            steps.append("---GRADE: DOCUMENT NOT RELEVANT---")
            web_search = "Yes"
    return {"documents": filtered_docs, "question": question, "web_search": web_search}


def transform_query(state):
    steps.append("---TRANSFORM QUERY---")
    question = state["question"]
    documents = state["documents"]
    better_question = f"What do we know about {question.rstrip('?')}?"
    return {"documents": documents, "question": better_question}


def web_search(state):
    steps.append("---WEB SEARCH---")
    question = state["question"]
    documents = state["documents"]
    web_results = Document(page_content=f"Web: {question} is explained on the web.")
    documents.append(web_results)
    return {"documents": documents, "question": question}


def decide_to_generate(state):
    steps.append("---ASSESS GRADED DOCUMENTS---")
    if state["web_search"] == "Yes":
        steps.append("---DECISION: NOT ALL DOCUMENTS ARE RELEVANT, TRANSFORM QUERY---")
        return "transform_query"
    steps.append("---DECISION: GENERATE---")
    return "generate"


workflow = StateGraph(GraphState)
workflow.add_node("retrieve", retrieve)
workflow.add_node("grade_documents", grade_documents)
workflow.add_node("generate", generate)
workflow.add_node("transform_query", transform_query)
workflow.add_node("web_search_node", web_search)
workflow.add_edge(START, "retrieve")
workflow.add_edge("retrieve", "grade_documents")
workflow.add_conditional_edges(
    "grade_documents",
    decide_to_generate,
    {"transform_query": "transform_query", "generate": "generate"},
)
workflow.add_edge("transform_query", "web_search_node")
workflow.add_edge("web_search_node", "generate")
workflow.add_edge("generate", END)
app = workflow.compile()


def main():
    outputs = []
    for output in app.stream({"question": "agent memory"}):
        for key, value in output.items():
            # The tutorial prints each chunk as it arrives; a deep copy keeps what was printed
            # (web_search later appends to the very list a chunk holds).
            outputs.append((key, copy.deepcopy(value)))
    final = app.invoke({"question": "How does memory work?"})
    return {"stream": outputs, "final": final, "steps": steps}
