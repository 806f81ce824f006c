"""How to use the graph API: use Pydantic models for graph state.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#use-pydantic-models-for-graph-state
Valid and invalid inputs, a nested model, what type each node receives, and the
plain dict that invoke returns.
"""

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel


class OverallState(BaseModel):
    a: str


def node(state: OverallState):
    return {"a": "goodbye"}


class NestedModel(BaseModel):
    value: str


class ComplexState(BaseModel):
    text: str
    count: int
    nested: NestedModel


observed = []


def process_node(state: ComplexState):
    observed.append(
        {"state_type": type(state).__name__, "nested_type": type(state.nested).__name__}
    )
    return {"text": state.text + " processed", "count": state.count + 1}


def main():
    builder = StateGraph(OverallState)
    builder.add_node(node)
    builder.add_edge(START, "node")
    builder.add_edge("node", END)
    graph = builder.compile()
    valid = graph.invoke({"a": "hello"})
    try:
        graph.invoke({"a": 123})
        invalid = "no error"
    except Exception as e:
        invalid = {"error": type(e).__name__, "first_line": str(e).splitlines()[0]}

    builder = StateGraph(ComplexState)
    builder.add_node("process", process_node)
    builder.add_edge(START, "process")
    builder.add_edge("process", END)
    complex_graph = builder.compile()
    input_state = ComplexState(text="hello", count=0, nested=NestedModel(value="test"))
    result = complex_graph.invoke(input_state)
    output_model = ComplexState(**result)
    return {
        "valid": valid,
        "invalid": invalid,
        "observed": observed,
        "result_type": type(result).__name__,
        "result": result,
        "converted_back": output_model,
    }
