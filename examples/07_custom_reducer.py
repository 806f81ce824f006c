"""Example 7: a custom reducer, checked against the monoid laws and measured.

What it shows: `best_scores`, a reducer of your own (each player keeps their best score),
on a state key that three judges write in the same superstep. foldgraph folds a step's
writes as one batch, replays stored steps, and merges branches' writes in task order;
all of that gives the answers a pairwise fold would only if the reducer is a lawful monoid
(an empty value that changes nothing, and associativity). `check_reducer` searches for a
counterexample to each law with hypothesis: `best_scores` passes, while `mean`, a
tempting reducer that averages, fails and is shown with the smallest values that prove it.
`bench_reducers` measures how the cost of one update grows with the size of the value.

Run it:
    python examples/07_custom_reducer.py
The same checks from the command line (exit code 0 when lawful, 1 when a law fails):
    foldgraph check-reducer examples/07_custom_reducer.py:best_scores
    foldgraph check-reducer examples/07_custom_reducer.py:mean
and the measurement, beside LangGraph's way of folding it when LangGraph is installed:
    foldgraph bench reducers examples/07_custom_reducer.py:best_scores --quick
With FOLDGRAPH_EXAMPLES_SMOKE=1 it measures two small sizes only (the test suite does).
"""

from __future__ import annotations

import os
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.bench import Settings, bench_reducers, check_reducer
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Send


def best_scores(current: dict[str, int], update: dict[str, int]) -> dict[str, int]:
    """Each player's best score: the identity is {}, and max is associative."""
    merged = dict(current)
    for player, score in update.items():
        merged[player] = max(score, merged.get(player, score))
    return merged


def mean(current: float, update: float) -> float:
    """The average of the old and the new value: looks harmless, is not associative."""
    return (current + update) / 2


class Contest(TypedDict):
    entries: dict[str, list[int]]  # judge -> a score per player, in player order
    scores: Annotated[dict[str, int], best_scores]


PLAYERS = ["ada", "bo", "cy"]


def judge(entry: dict) -> dict:
    return {"scores": dict(zip(PLAYERS, entry["marks"], strict=True))}


def judges(state: Contest) -> list[Send]:
    return [Send("judge", {"marks": marks}) for marks in state["entries"].values()]


builder = StateGraph(Contest)
builder.add_node("judge", judge)
builder.add_conditional_edges(START, judges, ["judge"])
builder.add_edge("judge", END)
graph = builder.compile()


def main() -> None:
    entries = {"judge-1": [7, 9, 4], "judge-2": [8, 6, 5], "judge-3": [6, 9, 9]}
    print(f"1. Three judges score in one step: {graph.invoke({'entries': entries})['scores']}")

    print("2. The laws, checked with hypothesis (check_reducer / foldgraph check-reducer):")
    reports = {
        reducer.__name__: check_reducer(reducer, examples=30) for reducer in (best_scores, mean)
    }
    for name, report in reports.items():
        failed = [r.law for r in report.failures]
        print(f"   {name}: " + ("lawful" if report.lawful else f"fails {failed}"))
    found = next(r for r in reports["mean"].failures if r.law == "associativity")
    print("   the smallest counterexample hypothesis found for mean:")
    print("      " + found.counterexample.replace("\n", "\n      "))

    print("3. Time per update as the value grows (bench_reducers / foldgraph bench reducers),")
    print("   beside the built-in operator.or_ on a dict key (dict_merge):")
    ours = f"{__file__}:best_scores"
    smoke = bool(os.environ.get("FOLDGRAPH_EXAMPLES_SMOKE"))
    quick = Settings(
        history=(10, 100) if smoke else (10, 1_000, 10_000),
        processes=1,
        values=1 if smoke else 3,
        min_time=0.005,
        memory=False,
        e2e_savers=(),  # memory and end-to-end runs: see `foldgraph bench reducers`
        langgraph=False,
    )
    report = bench_reducers([ours, "dict_merge"], quick)
    times = {(r.reducer, r.history): r.foldgraph.time_per_update for r in report.rows}
    print(f"   {'players':>8}  {'best_scores':>12}  {'dict_merge':>12}")
    for size in quick.history:
        mine, builtin = times[ours, size] * 1e6, times["dict_merge", size] * 1e6
        print(f"   {size:>8}  {mine:>9.2f} us  {builtin:>9.2f} us")
    print("   best_scores copies the dict on every update (O(players)); dict_merge keeps a")
    print("   persistent map and copies nothing. Small values: either is fine.")


if __name__ == "__main__":
    main()
