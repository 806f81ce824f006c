"""Instructions per superstep, counted by callgrind: a measure the machine's load cannot move.

    python -m benchmarks.instructions                 # foldgraph, without and with InMemorySaver
    python -m benchmarks.instructions --root langgraph

A chain of n trivial nodes (one task per superstep) is invoked 1 and 1 + k times, each
count in its own ``valgrind --tool=callgrind`` run with ``PYTHONHASHSEED=0``; the
difference of the two totals divided by k * n is the cost of one superstep, with the
imports, the compile and the first invoke's warm-up taken out. Wall-clock timings on a
shared 2-core machine move by tens of percent; these counts repeat to a fraction of one.
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


def count(root: str, nodes: int, invokes: int, saver: bool) -> int:
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
    p.add_argument("--nodes", type=int, default=200, help="nodes in the chain (supersteps)")
    p.add_argument("--extra", type=int, default=5, help="invokes k added to the baseline's one")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--invokes", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument("--saver", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        run_chain(args.root, args.nodes, args.invokes, args.saver)
        return 0
    print(f"{args.root}: instructions per superstep, chain of {args.nodes} nodes, callgrind")
    for saver in (False, True):
        base = count(args.root, args.nodes, 1, saver)
        more = count(args.root, args.nodes, 1 + args.extra, saver)
        per_step = (more - base) / (args.extra * args.nodes)
        label = "InMemorySaver" if saver else "no saver"
        print(f"  {label:<14} {per_step / 1e3:,.1f}k  ({more:,} - {base:,} Ir)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
