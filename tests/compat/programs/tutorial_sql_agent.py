"""SQL agent tutorial: list tables, fetch a schema, generate, check and run a query.

Source: https://docs.langchain.com/oss/python/langgraph/sql-agent (formerly
langchain-ai.github.io/langgraph/tutorials/sql/sql-agent/). MessagesState graph with
ToolNodes named get_schema and run_query, added as `add_node(node, "name")`; the
tools query a small in-memory SQLite database instead of Chinook, and the LLM is a
fake tool-calling chat model.
"""

import sqlite3
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

db = sqlite3.connect(":memory:", check_same_thread=False)
db.executescript(
    """
    CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name TEXT);
    CREATE TABLE Album (AlbumId INTEGER PRIMARY KEY, Title TEXT, ArtistId INTEGER);
    INSERT INTO Artist VALUES (1, 'AC/DC'), (2, 'Accept');
    INSERT INTO Album VALUES (1, 'For Those About To Rock', 1), (2, 'Balls to the Wall', 2),
                             (3, 'Let There Be Rock', 1);
    """
)


@tool("sql_db_list_tables")
def list_tables_tool() -> str:
    """Input is an empty string, output is a comma-separated list of tables in the database."""
    rows = db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    return ", ".join(r[0] for r in rows)


@tool("sql_db_schema")
def get_schema_tool(table_names: str) -> str:
    """Input to this tool is a comma-separated list of tables, output is their schema."""
    out = []
    for name in table_names.split(","):
        row = db.execute("SELECT sql FROM sqlite_master WHERE name=?", (name.strip(),))
        out.append(row.fetchone()[0])
    return "\n\n".join(out)


@tool("sql_db_query")
def run_query_tool(query: str) -> str:
    """Execute a SQL query against the database and get back the result."""
    return str(db.execute(query).fetchall())


tools = [list_tables_tool, get_schema_tool, run_query_tool]
QUERY = "SELECT Artist.Name, COUNT(*) FROM Album JOIN Artist USING (ArtistId) GROUP BY 1"


class FakeToolCallingModel(BaseChatModel):
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


llm = FakeToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[
                {"name": "sql_db_schema", "id": "s1", "args": {"table_names": "Album, Artist"}}
            ],
        ),
        AIMessage("", tool_calls=[{"name": "sql_db_query", "id": "q1", "args": {"query": QUERY}}]),
        AIMessage("", tool_calls=[{"name": "sql_db_query", "id": "q2", "args": {"query": QUERY}}]),
        AIMessage("AC/DC has 2 albums, Accept has 1."),
    ]
)


def list_tables(state: MessagesState):
    tool_call = {"name": "sql_db_list_tables", "args": {}, "id": "abc123", "type": "tool_call"}
    tool_call_message = AIMessage(content="", tool_calls=[tool_call])
    list_tables_tool = next(t for t in tools if t.name == "sql_db_list_tables")
    tool_message = list_tables_tool.invoke(tool_call)
    response = AIMessage(f"Available tables: {tool_message.content}")
    return {"messages": [tool_call_message, tool_message, response]}


def call_get_schema(state: MessagesState):
    llm_with_tools = llm.bind_tools([get_schema_tool], tool_choice="any")
    response = llm_with_tools.invoke(state["messages"])
    return {"messages": [response]}


get_schema_node = ToolNode([get_schema_tool], name="get_schema")
run_query_node = ToolNode([run_query_tool], name="run_query")


def generate_query(state: MessagesState):
    system_message = {"role": "system", "content": "Write a syntactically correct query."}
    llm_with_tools = llm.bind_tools([run_query_tool])
    response = llm_with_tools.invoke([system_message, *state["messages"]])
    return {"messages": [response]}


def check_query(state: MessagesState):
    system_message = {"role": "system", "content": "Double check the query."}
    tool_call = state["messages"][-1].tool_calls[0]
    user_message = {"role": "user", "content": tool_call["args"]["query"]}
    llm_with_tools = llm.bind_tools([run_query_tool], tool_choice="any")
    response = llm_with_tools.invoke([system_message, user_message])
    response.id = state["messages"][-1].id
    return {"messages": [response]}


def should_continue(state: MessagesState) -> Literal[END, "check_query"]:
    messages = state["messages"]
    last_message = messages[-1]
    if not last_message.tool_calls:
        return END
    return "check_query"


builder = StateGraph(MessagesState)
builder.add_node(list_tables)
builder.add_node(call_get_schema)
builder.add_node(get_schema_node, "get_schema")
builder.add_node(generate_query)
builder.add_node(check_query)
builder.add_node(run_query_node, "run_query")
builder.add_edge(START, "list_tables")
builder.add_edge("list_tables", "call_get_schema")
builder.add_edge("call_get_schema", "get_schema")
builder.add_edge("get_schema", "generate_query")
builder.add_conditional_edges("generate_query", should_continue)
builder.add_edge("check_query", "run_query")
builder.add_edge("run_query", "generate_query")
agent = builder.compile()


def main():
    question = "Which artist has the most albums?"
    steps = []
    for step in agent.stream(
        {"messages": [{"role": "user", "content": question}]}, stream_mode="values"
    ):
        steps.append(step["messages"][-1])
    return {"steps": steps, "nodes": sorted(agent.get_graph().nodes)}
