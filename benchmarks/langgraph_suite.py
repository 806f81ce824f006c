"""Workloads 10-11, issue "runner": two shapes of LangGraph's own benchmark suite.

Written here from their description, run unchanged on both libraries:

- `sequential`: a `MessagesState` graph of n no-op nodes in a line (the node
  returns None), invoked with an empty message list. At 10 nodes the fixed
  cost of one invoke (config, run set-up, output) is most of the time; at
  1 000 the superstep is.
- `fanout_to_subgraph`: START sends one `Send("generate_joke", {"subject": s})`
  per subject (a list of 1 000 letters) to a compiled subgraph whose input and
  output schemas differ from its state: `edit` rewrites the subject, `generate`
  writes a joke, `bump` appends " a" in a loop until ten are there. Without a
  checkpointer and with `InMemorySaver` (a fresh thread per invoke).

Both report wall and CPU time (all threads); the targets are read on CPU time,
which a shared machine's load moves least.
"""

import operator
import random
import string
from typing import Annotated, Any, TypedDict

from benchmarks._harness import Lib, Metric, Settings, Workload, check, median_wall_cpu

# --------------------------------------------------------------------------- sequential


def _noop(state: Any) -> None:
    return None


def build_sequential(lib: Lib, n: int) -> Any:
    g = lib.graph
    builder = g.StateGraph(g.MessagesState)
    previous = g.START
    for i in range(n):
        name = f"node_{i}"
        builder.add_node(name, _noop)
        builder.add_edge(previous, name)
        previous = name
    builder.add_edge(previous, g.END)
    return builder.compile()


def run_sequential(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    graph = build_sequential(lib, n)
    config = {"recursion_limit": n + 10}
    out = graph.invoke({"messages": []}, config)
    check(out == {"messages": []}, f"sequential {n} returned {out!r}")
    # At 10 nodes one invoke is well under a millisecond: time batches of 20.
    batch = 20 if n <= 100 else 1
    repeats = settings.repeats if n <= 100 else max(3, settings.repeats // 2)

    def calls() -> None:
        for _ in range(batch):
            graph.invoke({"messages": []}, config)

    wall, cpu = median_wall_cpu(calls, repeats)
    return {"per_invoke": wall / batch, "cpu_per_invoke": cpu / batch}


SEQUENTIAL = Workload(
    name="sequential",
    title="10. LangGraph's `sequential` shape: n no-op nodes over MessagesState",
    issue="runner",
    metrics=(
        Metric("per_invoke", "time per invoke (wall)", "us"),
        Metric("cpu_per_invoke", "CPU time per invoke", "us"),
    ),
    sizes=(10, 1000),
    quick_sizes=(10,),
    run=run_sequential,
    size_label="nodes",
    note="invoke({'messages': []}, {'recursion_limit': n + 10}); each node returns None.",
)


# --------------------------------------------------------------------------- fan-out to subgraph


class JokesOverall(TypedDict):
    subjects: list
    jokes: Annotated[list, operator.add]


class JokeInput(TypedDict):
    subject: Any


class JokeOutput(TypedDict):
    jokes: list


class JokeAll(JokeInput, JokeOutput):
    pass


def build_fanout_to_subgraph(lib: Lib, checkpointer: Any = None) -> Any:
    g, Send = lib.graph, lib.types.Send

    def edit(state: JokeInput) -> dict[str, Any]:
        return {"subject": f"{state['subject']} - hohoho"}

    def generate(state: JokeInput) -> dict[str, Any]:
        return {"jokes": [f"Joke about {state['subject']}"]}

    def bump(state: JokeOutput) -> dict[str, Any]:
        return {"jokes": [state["jokes"][0] + " a"]}

    def again(state: JokeOutput) -> str:
        return g.END if state["jokes"][0].endswith(" a" * 10) else "bump"

    sub = g.StateGraph(JokeAll, input_schema=JokeInput, output_schema=JokeOutput)
    sub.add_node("edit", edit)
    sub.add_node("generate", generate)
    sub.add_node("bump", bump)
    sub.add_edge(g.START, "edit")
    sub.add_edge("edit", "generate")
    sub.add_edge("generate", "bump")
    sub.add_conditional_edges("bump", again)

    def to_jokes(state: JokesOverall) -> list[Any]:
        return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]

    builder = g.StateGraph(JokesOverall)
    builder.add_node("generate_joke", sub.compile())
    builder.add_conditional_edges(g.START, to_jokes)
    builder.add_edge("generate_joke", g.END)
    return builder.compile(checkpointer=checkpointer)


def run_fanout_to_subgraph(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    rng = random.Random(11)
    subjects = [rng.choices(string.ascii_lowercase, k=1_000) for _ in range(n)]
    out: dict[str, float] = {}
    for key, saver in (("", None), ("saver_", lib.memory.InMemorySaver())):
        graph = build_fanout_to_subgraph(lib, saver)
        threads = iter(range(1_000_000))

        def once(graph: Any = graph, threads: Any = threads) -> Any:
            config = {"configurable": {"thread_id": f"t{next(threads)}"}}
            return graph.invoke({"subjects": subjects}, config)

        result = once()
        jokes = result["jokes"]
        check(len(jokes) == n, f"{len(jokes)} jokes for {n} subjects")
        tail = " - hohoho" + " a" * 10
        check(
            all(j.startswith("Joke about [") and j.endswith(tail) for j in jokes),
            f"unexpected joke {jokes[0][:40]!r}...{jokes[0][-40:]!r}",
        )
        wall, cpu = median_wall_cpu(once, settings.repeats, warmup=0)
        out[f"{key}per_invoke"], out[f"{key}cpu_per_invoke"] = wall, cpu
    return out


FANOUT_TO_SUBGRAPH = Workload(
    name="fanout_to_subgraph",
    title="11. LangGraph's `fanout_to_subgraph` shape: n Sends into a compiled subgraph",
    issue="runner",
    metrics=(
        Metric("per_invoke", "time per invoke, no checkpointer (wall)", "ms"),
        Metric("cpu_per_invoke", "CPU time per invoke, no checkpointer", "ms"),
        Metric("saver_per_invoke", "time per invoke, InMemorySaver (wall)", "ms"),
        Metric("saver_cpu_per_invoke", "CPU time per invoke, InMemorySaver", "ms"),
    ),
    sizes=(10, 100),
    quick_sizes=(10,),
    run=run_fanout_to_subgraph,
    size_label="Sends",
    note=(
        "START -> n Send('generate_joke', {'subject': <1 000 letters>}); the subgraph edits "
        "the subject, writes a joke, then bumps it until it ends with ten ' a'."
    ),
)

WORKLOADS = (SEQUENTIAL, FANOUT_TO_SUBGRAPH)
