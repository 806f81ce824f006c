"""Plan-and-execute tutorial: a planner, a ReAct executor per step, and a replanner.

Source: https://langchain-ai.github.io/langgraph/tutorials/plan-and-execute/plan-and-execute/
PlanExecute state with an operator.add list of (step, result) tuples; the planner and
replanner use with_structured_output (Plan, Act with a Response|Plan union); each step
runs a prebuilt create_react_agent; should_end checks `"response" in state`. All
models are fake chat models; the search tool is deterministic.
"""

import operator
from typing import Annotated, Any, List, Tuple, Union  # noqa: UP035 - tutorial spelling

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import create_react_agent
from pydantic import BaseModel, Field
from typing_extensions import TypedDict


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


def call(name: str, args: dict, id_: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": id_}])


@tool
def search(query: str) -> str:
    """Search the web."""
    return {"2024 Australian Open winner": "Jannik Sinner", "Sinner hometown": "Sexten"}.get(
        query, "no result"
    )


executor_llm = FakeChatModel(
    responses=[
        call("search", {"query": "2024 Australian Open winner"}, "t1"),
        AIMessage("Jannik Sinner won the 2024 Australian Open."),
        call("search", {"query": "Sinner hometown"}, "t2"),
        AIMessage("His hometown is Sexten."),
    ]
)
planner_llm = FakeChatModel(
    responses=[
        call(
            "Plan",
            {"steps": ["Find the 2024 Australian Open winner", "Find the winner's hometown"]},
            "p1",
        )
    ]
)
replanner_llm = FakeChatModel(
    responses=[
        call("Act", {"action": {"steps": ["Find the winner's hometown"]}}, "r1"),
        call("Act", {"action": {"response": "The winner, Jannik Sinner, is from Sexten."}}, "r2"),
    ]
)

agent_executor = create_react_agent(executor_llm, [search], prompt="You are a helpful assistant.")


class PlanExecute(TypedDict):
    input: str
    plan: List[str]  # noqa: UP006
    past_steps: Annotated[List[Tuple], operator.add]  # noqa: UP006
    response: str


class Plan(BaseModel):
    """Plan to follow in future"""

    steps: List[str] = Field(description="different steps to follow, in order")  # noqa: UP006


class Response(BaseModel):
    """Response to user."""

    response: str


class Act(BaseModel):
    """Action to perform."""

    action: Union[Response, Plan] = Field(description="Action to perform.")  # noqa: UP007


planner_prompt = ChatPromptTemplate.from_messages(
    [
        ("system", "For the given objective, come up with a simple step by step plan."),
        ("placeholder", "{messages}"),
    ]
)
planner = planner_prompt | planner_llm.with_structured_output(Plan)
replanner_prompt = ChatPromptTemplate.from_template(
    "Your objective was this:\n{input}\n\nYour original plan was this:\n{plan}\n\n"
    "You have currently done the follow steps:\n{past_steps}\n\nUpdate your plan."
)
replanner = replanner_prompt | replanner_llm.with_structured_output(Act)


async def execute_step(state: PlanExecute):
    plan = state["plan"]
    plan_str = "\n".join(f"{i + 1}. {step}" for i, step in enumerate(plan))
    task = plan[0]
    task_formatted = (
        f"For the following plan:\n{plan_str}\n\nYou are tasked with executing step {1}, {task}."
    )
    agent_response = await agent_executor.ainvoke({"messages": [("user", task_formatted)]})
    return {"past_steps": [(task, agent_response["messages"][-1].content)]}


async def plan_step(state: PlanExecute):
    plan = await planner.ainvoke({"messages": [("user", state["input"])]})
    return {"plan": plan.steps}


async def replan_step(state: PlanExecute):
    output = await replanner.ainvoke(state)
    if isinstance(output.action, Response):
        return {"response": output.action.response}
    return {"plan": output.action.steps}


def should_end(state: PlanExecute):
    if state.get("response"):
        return END
    return "agent"


workflow = StateGraph(PlanExecute)
workflow.add_node("planner", plan_step)
workflow.add_node("agent", execute_step)
workflow.add_node("replan", replan_step)
workflow.add_edge(START, "planner")
workflow.add_edge("planner", "agent")
workflow.add_edge("agent", "replan")
workflow.add_conditional_edges("replan", should_end, ["agent", END])
app = workflow.compile()


async def main():
    config = {"recursion_limit": 50}
    inputs = {"input": "what is the hometown of the mens 2024 Australia open winner?"}
    events = []
    async for event in app.astream(inputs, config=config):
        for k, v in event.items():
            if k != "__end__":
                events.append((k, v))
    return {"events": events}
