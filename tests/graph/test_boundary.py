"""Values at the boundary: user code sees plain Python values of its own types.

Each expected value was produced by running the same program on LangGraph 1.2.22;
tests marked `foldgraph_only` pin where foldgraph keeps history safe and LangGraph
does not (see the comment on each).
"""

import copy
import dataclasses
import itertools
import json
import operator
import pickle
from typing import Annotated

import pydantic
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.graph.message import add_messages
from foldgraph.types import Command, Send


class Plain(TypedDict):
    items: list
    docs: Annotated[list, operator.add]
    meta: dict


def _chain(*nodes, state=Plain, checkpointer=None):
    builder = StateGraph(state)
    names = []
    for node in nodes:
        builder.add_node(node)
        names.append(node.__name__)
    builder.add_edge(START, names[0])
    for a, b in itertools.pairwise(names):
        builder.add_edge(a, b)
    return builder.compile(checkpointer=checkpointer)


CONFIG = {"configurable": {"thread_id": "t"}}


def test_state_slices_are_real_lists_and_dicts_that_json_dumps():
    seen = {}

    def look(state):
        seen["items"] = json.dumps(state["items"])
        seen["types"] = (
            isinstance(state["items"], list),
            isinstance(state["docs"], list),
            isinstance(state["meta"], dict),
            type(state) is dict,
        )
        seen["state"] = json.dumps(state, default=str)
        seen["copies"] = (copy.deepcopy(state), pickle.loads(pickle.dumps(state)))
        return {}

    _chain(look).invoke({"items": [1, 2], "docs": ["d1"], "meta": {"a": [1]}})
    assert seen["items"] == "[1, 2]"
    assert seen["types"] == (True, True, True, True)
    assert seen["state"] == '{"items": [1, 2], "docs": ["d1"], "meta": {"a": [1]}}'
    expected = {"items": [1, 2], "docs": ["d1"], "meta": {"a": [1]}}
    assert seen["copies"] == (expected, expected)


def test_outputs_and_history_are_plain_too():
    graph = _chain(lambda_node := _named("noop", lambda s: {}), checkpointer=InMemorySaver())
    assert lambda_node
    out = graph.invoke({"items": [1], "docs": ["d"], "meta": {"k": 1}}, CONFIG)
    assert out == {"items": [1], "docs": ["d"], "meta": {"k": 1}}
    assert (type(out["items"]), type(out["docs"]), type(out["meta"])) == (list, list, dict)
    values = graph.get_state(CONFIG).values
    assert (type(values["items"]), type(values["docs"]), type(values["meta"])) == (list, list, dict)
    chunks = list(graph.stream(None, CONFIG, stream_mode="values"))
    assert all(type(c["docs"]) is list for c in chunks)


def _named(name, fn):
    fn.__name__ = name
    return fn


def test_a_messages_placeholder_prompt_takes_the_state():
    class State(TypedDict):
        messages: Annotated[list, add_messages]

    prompt = ChatPromptTemplate.from_messages(
        [("system", "be brief"), MessagesPlaceholder("messages")]
    )

    def call(state):
        rendered = prompt.invoke(state).to_messages()
        return {"messages": [AIMessage(f"{len(rendered)}: {rendered[0].content}")]}

    out = _chain(call, state=State).invoke({"messages": [HumanMessage("hi")]})
    assert [m.content for m in out["messages"]] == ["hi", "2: be brief"]


def _rag():
    # LangGraph's corrective-RAG: `documents = state["documents"]; documents.append(...);
    # return {"documents": documents}` on a channel without a reducer.
    class Rag(TypedDict):
        question: str
        documents: list
        web: dict

    def retrieve(state):
        return {"documents": ["doc-a"], "web": {"n": 0}}

    def grade(state):
        documents = state["documents"]
        documents.append("doc-web")
        web = state["web"]
        web["n"] += 1
        return {"documents": documents, "web": web}

    def answer(state):
        return {"question": f"{state['question']}: {json.dumps(state)}"}

    return _chain(retrieve, grade, answer, state=Rag, checkpointer=InMemorySaver())


def test_append_and_return_runs_as_in_the_corrective_rag_example():
    graph = _rag()
    out = graph.invoke({"question": "q"}, CONFIG)
    assert out == {
        "question": 'q: {"question": "q", "documents": ["doc-a", "doc-web"], "web": {"n": 1}}',
        "documents": ["doc-a", "doc-web"],
        "web": {"n": 1},
    }


@pytest.mark.foldgraph_only("LangGraph's checkpoint after `retrieve` shows `grade`'s append")
def test_append_and_return_leaves_the_earlier_checkpoint_as_it_was_written():
    graph = _rag()
    graph.invoke({"question": "q"}, CONFIG)
    history = [s.values for s in graph.get_state_history(CONFIG)]
    assert history[2] == {"question": "q", "documents": ["doc-a"], "web": {"n": 0}}
    assert history[1] == {"question": "q", "documents": ["doc-a", "doc-web"], "web": {"n": 1}}
    assert graph.verify_replay(CONFIG).ok


@pytest.mark.foldgraph_only("LangGraph: the in-place append also lands in the channel")
def test_append_and_return_on_a_reducer_channel_is_an_ordinary_update():
    def grow(state):
        docs = state["docs"]
        docs.append("d2")
        return {"docs": docs}

    out = _chain(grow).invoke({"items": [], "docs": ["d1"], "meta": {}})
    # The node's list was its own copy, so the update is ["d1", "d2"] added to ["d1"].
    # (LangGraph appends to the channel's own list first: ["d1", "d2", "d1", "d2"].)
    assert out["docs"] == ["d1", "d1", "d2"]


@pytest.mark.foldgraph_only("LangGraph changes the live channel (and, by default, history)")
def test_a_mutation_that_is_not_returned_changes_no_checkpoint_and_no_later_node():
    seen = {}

    def mutate(state):
        state["items"].append(99)
        state["meta"]["k"] = "mutated"
        state["docs"].clear()
        state["extra"] = 1
        return None

    def later(state):
        seen["later"] = dict(state)
        return {}

    graph = _chain(mutate, later, checkpointer=InMemorySaver())
    out = graph.invoke({"items": [1], "docs": ["d"], "meta": {"a": 1}}, CONFIG)
    original = {"items": [1], "docs": ["d"], "meta": {"a": 1}}
    assert out == original
    assert seen["later"] == original
    assert [s.values for s in graph.get_state_history(CONFIG)][:3] == [original] * 3
    assert graph.verify_replay(CONFIG).ok


@pytest.mark.foldgraph_only("LangGraph hands both siblings the channel's own list")
def test_siblings_reading_the_same_version_each_get_their_own_copy():
    class S(TypedDict):
        items: list
        out: Annotated[list, operator.add]

    def a(state):
        state["items"].append("a")
        return {"out": [list(state["items"])]}

    def b(state):
        state["items"].append("b")
        return {"out": [list(state["items"])]}

    builder = StateGraph(S)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    out = builder.compile().invoke({"items": [0]})
    assert out == {"items": [0], "out": [[0, "a"], [0, "b"]]}


def test_send_arguments_reach_the_node_as_plain_dicts():
    class Fan(TypedDict):
        subjects: list
        out: Annotated[list, operator.add]

    def fan(state):
        return [Send("work", {"s": s}) for s in state["subjects"]]

    def work(arg):
        arg["seen"] = True
        return {"out": [[type(arg).__name__, isinstance(arg["s"], list), len(arg["s"])]]}

    builder = StateGraph(Fan)
    builder.add_node("work", work)
    builder.add_conditional_edges(START, fan)
    out = builder.compile().invoke({"subjects": [[1], [2, 3]]})
    assert out == {"subjects": [[1], [2, 3]], "out": [["dict", True, 1], ["dict", True, 2]]}


# -- routers read the schema's own type ---------------------------------------------------


@dataclasses.dataclass
class DataState:
    messages: Annotated[list, operator.add] = dataclasses.field(default_factory=list)
    n: int = 0


class ModelState(pydantic.BaseModel):
    messages: Annotated[list, operator.add] = []
    n: int = 0


def _count(state):
    return {"messages": [state.n], "n": state.n + 1}


def _until_three(state):
    return END if len(state.messages) >= 3 else "count"


@pytest.mark.parametrize("schema", [DataState, ModelState])
def test_a_router_of_a_dataclass_or_pydantic_state_reads_attributes(schema):
    seen = []

    def route(state):
        seen.append(type(state))
        return _until_three(state)

    builder = StateGraph(schema)
    builder.add_node("count", _count)
    builder.add_edge(START, "count")
    builder.add_conditional_edges("count", route)
    assert builder.compile().invoke({"n": 0}) == {"messages": [0, 1, 2], "n": 3}
    assert seen == [schema] * 3


def test_a_router_of_a_root_value_state_gets_the_value():
    builder = StateGraph(Annotated[int, operator.add])
    builder.add_node("inc", lambda x: 1)
    builder.add_edge(START, "inc")
    builder.add_conditional_edges("inc", lambda x: END if x >= 5 else "inc")
    assert builder.compile().invoke(1) == 5


def test_a_router_reads_its_source_nodes_input_schema_and_the_dict_it_returned():
    class Full(TypedDict):
        a: int
        b: int
        c: int

    class OnlyA(TypedDict):
        a: int

    seen = []

    def first(state: OnlyA):
        return {"b": 2}

    def route(state):
        seen.append(dict(state))
        return END

    builder = StateGraph(Full)
    builder.add_node("first", first)
    builder.add_edge(START, "first")
    builder.add_conditional_edges("first", route)
    builder.compile().invoke({"a": 1, "b": 0, "c": 0})
    assert seen == [{"b": 2, "a": 1}]


def test_a_router_annotated_with_a_schema_gets_that_schema():
    @dataclasses.dataclass
    class View:
        n: int

    class S(TypedDict):
        n: int
        other: str

    seen = []

    def route(state: View) -> str:
        seen.append(state)
        return END

    builder = StateGraph(S)
    builder.add_node("noop", lambda s: {"n": 1})
    builder.add_edge(START, "noop")
    builder.add_conditional_edges("noop", route)
    builder.compile().invoke({"n": 0, "other": "x"})
    assert seen == [View(n=1)]


@pytest.mark.foldgraph_only("LangGraph hands the Send the channel's own list")
def test_command_goto_with_send_gets_a_plain_copy():
    class S(TypedDict):
        items: list
        out: Annotated[list, operator.add]

    def start(state):
        return Command(goto=[Send("work", {"items": state["items"]})])

    def work(arg):
        arg["items"].append("private")
        return {"out": [len(arg["items"])]}

    builder = StateGraph(S)
    builder.add_node("start", start)
    builder.add_node("work", work)
    builder.add_edge(START, "start")
    out = builder.compile().invoke({"items": [1]})
    assert out == {"items": [1], "out": [2]}
