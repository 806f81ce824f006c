"""Instructions per superstep, counted by callgrind: a measure the machine's load cannot move.

    python -m benchmarks.instructions                 # foldgraph, without and with InMemorySaver
    python -m benchmarks.instructions --root langgraph
    python -m benchmarks.instructions --workload react_agent   # per invoke, 10 tool rounds

A chain of n trivial nodes (one task per superstep) is invoked 1 and 1 + k times, each
count in its own ``valgrind --tool=callgrind`` run with ``PYTHONHASHSEED=0``; the
difference of the two totals divided by k * n is the cost of one superstep, with the
imports, the compile and the first invoke's warm-up taken out. Wall-clock timings on a
shared 2-core machine move by tens of percent; these counts repeat to a fraction of one.
``--workload react_agent`` counts one invoke of the react_agent workload's agent
(``--nodes`` tool rounds, default 10 there) the same way.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parent.parent


class ChainState(TypedDict):
    x: int


def _step(state: ChainState) -> dict[str, int]:
    return {"x": state["x"] + 1}


def run_chain(root: str, nodes: int, invokes: int, saver: bool) -> None:
    g = importlib.import_module(f"{root}.graph")
    builder = g.StateGraph(ChainState)
    names = [f"n{i}" for i in range(nodes)]
    for name in names:
        builder.add_node(name, _step)
    builder.add_edge(g.START, names[0])
    for a, b in itertools.pairwise(names):
        builder.add_edge(a, b)
    builder.add_edge(names[-1], g.END)
    checkpointer: Any = None
    if saver:
        checkpointer = importlib.import_module(f"{root}.checkpoint.memory").InMemorySaver()
    graph = builder.compile(checkpointer=checkpointer)
    for i in range(invokes):
        config = {"recursion_limit": nodes + 10, "configurable": {"thread_id": f"t{i}"}}
        assert graph.invoke({"x": 0}, config) == {"x": nodes}


def run_react(root: str, rounds: int, invokes: int, saver: bool) -> None:
    from langchain_core.messages import HumanMessage

    from benchmarks._harness import Lib
    from benchmarks.react_agent import build_agent

    lib = Lib(root)
    checkpointer = lib.memory.InMemorySaver() if saver else None
    agent = build_agent(lib, rounds, checkpointer)
    for i in range(invokes):
        config = {"configurable": {"thread_id": f"t{i}"}, "recursion_limit": 10**9}
        out = agent.invoke({"messages": [HumanMessage("hi?")]}, config)
        assert len(out["messages"]) == 2 * rounds + 2


def count(workload: str, root: str, nodes: int, invokes: int, saver: bool) -> int:
    """Total instructions (Ir) of one interpreter running ``invokes`` invokes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "benchmarks.instructions",
            "--child",
            "--workload",
            workload,
            "--root",
            root,
            "--nodes",
            str(nodes),
            "--invokes",
            str(invokes),
            *(["--saver"] if saver else []),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, timeout=3600)
        text = out.read_text()
    found = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    if found is None:
        raise RuntimeError(f"no instruction total in {out}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__)
    p.add_argument("--root", default="foldgraph", choices=["foldgraph", "langgraph"])
    p.add_argument("--workload", default="chain", choices=["chain", "react_agent"])
    p.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="nodes in the chain (default 200), or tool rounds of react_agent (default 10)",
    )
    p.add_argument("--extra", type=int, default=5, help="invokes k added to the baseline's one")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--invokes", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--saver", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    react = args.workload == "react_agent"
    nodes = args.nodes or (10 if react else 200)
    if args.child:
        (run_react if react else run_chain)(args.root, nodes, args.invokes, args.saver)
        return 0
    what = f"per invoke, {nodes} tool rounds" if react else f"per superstep, chain of {nodes}"
    print(f"{args.root}: instructions {what}, callgrind")
    for saver in (False, True):
        base = count(args.workload, args.root, nodes, 1, saver)
        more = count(args.workload, args.root, nodes, 1 + args.extra, saver)
        per = (more - base) / (args.extra * (1 if react else nodes))
        label = "InMemorySaver" if saver else "no saver"
        shown = f"{per / 1e6:,.2f}M" if react else f"{per / 1e3:,.1f}k"
        print(f"  {label:<14} {shown}  ({more:,} - {base:,} Ir)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
