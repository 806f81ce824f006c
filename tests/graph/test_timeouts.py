"""Node timeouts, heartbeats, step_timeout, and cancellation, as in LangGraph 1.2.

Short real times: every wait here ends in well under a second in total (a
timed-out attempt is cancelled, not waited for). Expected behaviour checked by
running the same programs on LangGraph 1.2.22.
"""

from __future__ import annotations

import asyncio
import operator
import threading
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import RunnableLambda, RunnableParallel

from foldgraph.channels import EphemeralValue, LastValue
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import NodeCancelledError, NodeError, NodeTimeoutError
from foldgraph.func import entrypoint, task
from foldgraph.graph import START, StateGraph
from foldgraph.graph.message import add_messages
from foldgraph.pregel import NodeBuilder, Pregel
from foldgraph.runtime import Runtime
from foldgraph.types import RetryPolicy, TimeoutPolicy
from foldgraph.utils.runnable import RunnableCallable


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def one_node(node: Any, **options: Any) -> Any:
    builder = StateGraph(S)
    builder.add_node("node", node, **options)
    builder.add_edge(START, "node")
    return builder


async def hang(state: S) -> dict[str, Any]:
    await asyncio.sleep(30)  # cancelled by the timeout long before
    return {"log": ["never"]}


@pytest.mark.timeout(10)
def test_run_timeout_raises_node_timeout_error() -> None:
    graph = one_node(hang, timeout=0.05).compile()
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(graph.ainvoke({"log": []}))
    error = caught.value
    assert (error.node, error.kind, error.timeout, error.run_timeout) == ("node", "run", 0.05, 0.05)
    assert str(error).startswith("Node 'node' exceeded its run timeout of 0.050s (elapsed: ")


@pytest.mark.timeout(10)
def test_heartbeats_keep_an_idle_timeout_from_firing() -> None:
    async def beating(state: S, runtime: Runtime) -> dict[str, Any]:
        for _ in range(5):
            await asyncio.sleep(0.02)
            runtime.heartbeat()
        return {"log": ["done"]}

    policy = TimeoutPolicy(idle_timeout=0.06, refresh_on="heartbeat")
    graph = one_node(beating, timeout=policy).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["done"]}

    async def silent(state: S) -> dict[str, Any]:
        await asyncio.sleep(30)
        return {"log": ["never"]}

    graph = one_node(silent, timeout=TimeoutPolicy(idle_timeout=0.05)).compile()
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(graph.ainvoke({"log": []}))
    assert caught.value.kind == "idle"
    assert str(caught.value).startswith(
        "Node 'node' exceeded its idle timeout of 0.050s without making progress"
    )


@pytest.mark.timeout(10)
def test_a_timeout_counts_as_a_failure_for_retries_and_handlers() -> None:
    attempts: list[int] = []

    async def slow_then_fast(state: S, runtime: Runtime) -> dict[str, Any]:
        assert runtime.execution_info is not None
        attempts.append(runtime.execution_info.node_attempt)
        if len(attempts) == 1:
            await asyncio.sleep(30)
        return {"log": [f"attempt {len(attempts)}"]}

    retry = RetryPolicy(max_attempts=2, initial_interval=0.001, jitter=False)
    graph = one_node(slow_then_fast, timeout=0.05, retry_policy=retry).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["attempt 2"]}
    assert attempts == [1, 2]

    def handler(state: S, error: NodeError) -> dict[str, Any]:
        return {"log": [f"{error.node} timed out: {type(error.error).__name__}"]}

    graph = one_node(hang, timeout=0.05, error_handler=handler).compile()
    assert asyncio.run(graph.ainvoke({"log": []})) == {"log": ["node timed out: NodeTimeoutError"]}


def test_sync_nodes_cannot_have_a_timeout() -> None:
    def sync_node(state: S) -> dict[str, Any]:
        return {}

    with pytest.raises(ValueError, match="Node 'node' is sync"):
        one_node(sync_node, timeout=1.0).compile()
    with pytest.raises(ValueError, match="run_timeout must be greater than 0"):
        one_node(hang, timeout=-1.0)


@pytest.mark.timeout(10)
def test_a_node_raising_cancelled_error_fails_with_node_cancelled_error() -> None:
    async def cancels_itself(state: S) -> dict[str, Any]:
        raise asyncio.CancelledError()

    with pytest.raises(NodeCancelledError) as caught:
        asyncio.run(one_node(cancels_itself).compile().ainvoke({"log": []}))
    assert caught.value.node == "node"


@pytest.mark.timeout(10)
def test_a_sync_node_raising_cancelled_error_fails_with_node_cancelled_error() -> None:
    # A plain sync function is called with nothing around it: the error is still
    # LangGraph's, caused by the CancelledError (LangGraph 1.2.22 gives the same).
    def cancels_itself(state: S) -> dict[str, Any]:
        raise asyncio.CancelledError()

    with pytest.raises(NodeCancelledError) as caught:
        one_node(cancels_itself).compile().invoke({"log": []})
    assert caught.value.node == "node"
    assert str(caught.value) == "Node 'node' raised asyncio.CancelledError"
    assert type(caught.value.__cause__) is asyncio.CancelledError


@pytest.mark.timeout(10)
def test_step_timeout_stops_a_slow_step() -> None:
    graph = one_node(hang).compile()
    graph.step_timeout = 0.05
    with pytest.raises(TimeoutError) as caught:
        asyncio.run(graph.ainvoke({"log": []}))
    assert str(caught.value) == ""  # asyncio's bare TimeoutError, as LangGraph raises it

    release = threading.Event()

    def blocked(state: S) -> dict[str, Any]:
        release.wait(5)
        return {"log": ["late"]}

    graph = one_node(blocked).compile()
    graph.step_timeout = 0.05
    try:
        with pytest.raises(TimeoutError, match="Timed out"):
            graph.invoke({"log": []})
    finally:
        release.set()


@pytest.mark.timeout(10)
def test_cancelled_run_keeps_finished_siblings() -> None:
    calls: list[str] = []

    async def main() -> list[str]:
        quick_done = asyncio.Event()

        async def quick(state: S) -> dict[str, Any]:
            calls.append("quick")
            quick_done.set()
            return {"log": ["quick"]}

        async def slow(state: S) -> dict[str, Any]:
            calls.append("slow")
            if calls.count("slow") == 1:
                await asyncio.sleep(30)  # cancelled with the run
            return {"log": ["slow"]}

        builder = StateGraph(S)
        builder.add_node("quick", quick)
        builder.add_node("slow", slow)
        builder.add_edge(START, "quick")
        builder.add_edge(START, "slow")
        graph = builder.compile(checkpointer=InMemorySaver())
        config = {"configurable": {"thread_id": "c"}}
        run = asyncio.ensure_future(graph.ainvoke({"log": []}, config))
        await asyncio.wait_for(quick_done.wait(), 10)
        await asyncio.sleep(0.01)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
        out = await graph.ainvoke(None, config)
        return sorted(out["log"])

    assert asyncio.run(main()) == ["quick", "slow"]
    assert calls == ["quick", "slow", "slow"]


# -- which nodes may have a timeout, and the ones outside StateGraph ---------------------

SYNC_REFUSED = (
    "Node timeouts are only supported for async nodes because sync Python execution "
    "cannot be safely cancelled in-process. Node 'slow' is sync."
)


def _inc(value: int) -> int:
    return value + 1


async def _ainc(value: int) -> int:
    return value + 1


async def _dec(value: int) -> int:
    return value - 1


async def _aslow(value: int) -> int:
    await asyncio.sleep(30)
    return value


def _low_level(bound: Any, timeout: Any = TimeoutPolicy(idle_timeout=0.05)) -> Any:
    node = NodeBuilder().subscribe_only("input").do(bound).set_timeout(timeout).write_to("output")
    return Pregel(
        nodes={"slow": node},
        channels={"input": EphemeralValue(int), "output": LastValue(int)},
        input_channels="input",
        output_channels="output",
    )


@pytest.mark.parametrize(
    "bound",
    [
        _inc,
        RunnableLambda(_inc),
        RunnableLambda(_inc).with_config(tags=["wrapped"]),
        RunnableParallel(sync=RunnableLambda(_inc), async_=RunnableLambda(_ainc)),
        RunnableLambda(_ainc) | RunnableLambda(_inc),
    ],
    ids=["function", "lambda", "wrapped", "parallel", "sequence"],
)
def test_a_low_level_node_with_sync_work_cannot_have_a_timeout(bound: Any) -> None:
    with pytest.raises(ValueError) as caught:
        _low_level(bound)
    assert str(caught.value) == SYNC_REFUSED


@pytest.mark.parametrize(
    "bound",
    [
        _ainc,
        RunnableLambda(_ainc).bind(),
        RunnableLambda(_inc, afunc=_ainc),
        RunnableCallable(_inc, _ainc),
        RunnableLambda(_ainc) | RunnableLambda(_ainc).with_config(tags=["t"]) | _dec,
    ],
    ids=["coroutine", "bound lambda", "lambda with afunc", "callable", "async sequence"],
)
def test_a_low_level_node_with_async_work_may_have_a_timeout(bound: Any) -> None:
    assert asyncio.run(_low_level(bound).ainvoke(1)) == 2


def test_a_state_graph_node_given_as_a_sync_runnable_cannot_have_a_timeout() -> None:
    with pytest.raises(ValueError) as caught:
        one_node(RunnableLambda(lambda state: {}), timeout=1.0).compile()
    assert str(caught.value) == SYNC_REFUSED.replace("'slow'", "'node'")
    one_node(RunnableLambda(lambda state: {}, afunc=hang), timeout=1.0).compile()


@pytest.mark.timeout(10)
def test_a_low_level_nodes_timeout_is_enforced() -> None:
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(_low_level(_aslow).ainvoke(1))
    error = caught.value
    assert (error.node, error.kind, error.idle_timeout, error.run_timeout) == (
        "slow",
        "idle",
        0.05,
        None,
    )
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(_low_level(RunnableLambda(_aslow), timeout=0.05).ainvoke(1))
    assert (caught.value.kind, caught.value.run_timeout) == ("run", 0.05)


def test_a_timed_node_run_by_the_sync_api_is_refused() -> None:
    with pytest.raises(ValueError) as caught:
        _low_level(_ainc).invoke(1)
    assert str(caught.value) == SYNC_REFUSED


@pytest.mark.timeout(10)
def test_an_entrypoints_timeout_is_enforced() -> None:
    @entrypoint(timeout=TimeoutPolicy(idle_timeout=0.05))
    async def slow_workflow(x: int) -> int:
        await asyncio.sleep(30)
        return x

    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(slow_workflow.ainvoke(1))
    assert (caught.value.node, caught.value.kind, caught.value.idle_timeout) == (
        "slow_workflow",
        "idle",
        0.05,
    )

    @entrypoint(timeout=5)
    async def quick_workflow(x: int) -> int:
        return x * 2

    assert asyncio.run(quick_workflow.ainvoke(2)) == 4
    with pytest.raises(ValueError) as refused:
        quick_workflow.invoke(2)
    assert str(refused.value) == SYNC_REFUSED.replace("'slow'", "'quick_workflow'")


@pytest.mark.timeout(10)
def test_an_entrypoints_timeout_lets_a_task_started_before_it_run() -> None:
    child_started = threading.Event()

    @task()
    def child(value: int) -> int:
        child_started.set()
        return value + 1

    @entrypoint(timeout=TimeoutPolicy(idle_timeout=0.05))
    async def parent(value: int) -> int:
        child(value)
        await asyncio.sleep(30)
        return value

    with pytest.raises(NodeTimeoutError):
        asyncio.run(parent.ainvoke(1))
    assert child_started.wait(5)


# -- a model's streamed tokens are progress -----------------------------------------------


class _Chat(TypedDict):
    messages: Annotated[list[Any], add_messages]


class _SlowTokens(GenericFakeChatModel):
    """Three tokens, `gap` seconds apart, each reported to the callbacks."""

    gap: float = 0.08

    async def _astream(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        for i in range(3):
            await asyncio.sleep(self.gap)
            chunk = ChatGenerationChunk(
                message=AIMessageChunk(content=str(i), chunk_position="last" if i == 2 else None)
            )
            if run_manager:
                await run_manager.on_llm_new_token(str(i), chunk=chunk)
            yield chunk

    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=""))])


def _chat_graph(gap: float, policy: TimeoutPolicy, stream_inside: bool) -> Any:
    model = _SlowTokens(messages=iter([]), gap=gap)

    async def call_model(state: _Chat) -> dict[str, Any]:
        if not stream_inside:
            return {"messages": [await model.ainvoke(state["messages"])]}
        text = ""
        async for chunk in model.astream(state["messages"]):
            text += chunk.content
        return {"messages": [AIMessage(text, id="a")]}

    builder = StateGraph(_Chat)
    builder.add_node("call_model", call_model, timeout=policy)
    builder.add_edge(START, "call_model")
    return builder.compile()


@pytest.mark.timeout(10)
def test_a_models_streamed_tokens_refresh_the_idle_timeout() -> None:
    # Tokens 0.08 s apart under an idle limit of 0.15 s: the whole call (0.24 s) is
    # longer than the limit, each gap is shorter (LangGraph 1.2.22's values).
    graph = _chat_graph(0.08, TimeoutPolicy(idle_timeout=0.15), stream_inside=False)

    async def tokens() -> list[str]:
        inputs = {"messages": [HumanMessage("hi", id="h")]}
        return [c.content async for c, _ in graph.astream(inputs, stream_mode="messages")]

    assert asyncio.run(tokens()) == ["0", "1", "2"]
    graph = _chat_graph(0.08, TimeoutPolicy(idle_timeout=0.15), stream_inside=True)
    out = asyncio.run(graph.ainvoke({"messages": [HumanMessage("hi", id="h")]}))
    assert [m.content for m in out["messages"]] == ["hi", "012"]


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("gap", "policy", "kind"),
    [
        (0.3, TimeoutPolicy(idle_timeout=0.15), "idle"),  # each gap is too long
        (0.08, TimeoutPolicy(idle_timeout=0.15, refresh_on="heartbeat"), "idle"),
        (0.08, TimeoutPolicy(run_timeout=0.15), "run"),  # a run limit is never refreshed
    ],
)
def test_tokens_do_not_refresh_what_they_should_not(
    gap: float, policy: TimeoutPolicy, kind: str
) -> None:
    graph = _chat_graph(gap, policy, stream_inside=True)
    with pytest.raises(NodeTimeoutError) as caught:
        asyncio.run(graph.ainvoke({"messages": [HumanMessage("hi", id="h")]}))
    assert caught.value.kind == kind


@pytest.mark.timeout(10)
def test_a_timed_tasks_streamed_tokens_refresh_its_idle_timeout() -> None:
    model = _SlowTokens(messages=iter([]), gap=0.08)

    @task(timeout=TimeoutPolicy(idle_timeout=0.15))
    async def ask(question: str) -> str:
        text = ""
        async for chunk in model.astream([HumanMessage(question)]):
            text += chunk.content
        return text

    @entrypoint()
    async def workflow(question: str) -> str:
        return await ask(question)

    assert asyncio.run(workflow.ainvoke("hi")) == "012"
