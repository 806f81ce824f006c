"""`foldgraph graph module:attr --format ascii|mermaid|svg|png`: draw a graph, offline.

ascii and mermaid are the library's own drawings (`get_graph().draw_ascii()` /
`draw_mermaid()`, as LangGraph draws them); svg is laid out by
`foldgraph.ui.drawing` with no other tool; png is rendered by Graphviz's `dot`
(a Debian package, `apt-get install graphviz`) from the same nodes and edges.
Nothing is fetched from the network.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from typing import Any

from foldgraph.cli import CommandError
from foldgraph.cli._reading import load_graph


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("graph", help="draw a graph as ascii, mermaid, svg or png")
    parser.add_argument(
        "spec", metavar="MODULE:ATTR", help="the graph (module:attr or file.py:attr)"
    )
    parser.add_argument("--format", choices=("ascii", "mermaid", "svg", "png"), default="ascii")
    parser.add_argument("--xray", action="store_true", help="draw subgraphs inline")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    parser.set_defaults(handler=_run)


def to_dot(drawn: Any) -> str:
    """The drawing as Graphviz DOT (conditional edges dashed)."""

    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = ["digraph G {", '  node [shape=box, style="rounded", fontname="sans-serif"];']
    for node_id, node in drawn.nodes.items():
        lines.append(f"  {q(node_id)} [label={q(getattr(node, 'name', node_id) or node_id)}];")
    for e in drawn.edges:
        style = " [style=dashed]" if getattr(e, "conditional", False) else ""
        lines.append(f"  {q(e.source)} -> {q(e.target)}{style};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(graph: Any, fmt: str, xray: bool) -> bytes:
    drawn = graph.get_graph(xray=xray)
    if fmt == "mermaid":
        return drawn.draw_mermaid().encode()
    if fmt == "ascii":
        try:
            return (drawn.draw_ascii() + "\n").encode()
        except ImportError:
            raise CommandError(
                "--format ascii needs grandalf: pip install grandalf (or use --format mermaid)"
            ) from None
    if fmt == "svg":
        from foldgraph.ui.drawing import to_svg

        return (to_svg(drawn) + "\n").encode()
    dot = shutil.which("dot")
    if dot is None:
        raise CommandError(
            "--format png needs Graphviz's `dot` (apt-get install graphviz); "
            "--format svg needs nothing"
        )
    done = subprocess.run(
        [dot, "-Tpng"], input=to_dot(drawn).encode(), capture_output=True, timeout=60
    )
    if done.returncode != 0:
        raise CommandError(f"dot failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def _run(args: argparse.Namespace) -> int:
    data = render(load_graph(args.spec), args.format, args.xray)
    if args.output:
        with open(args.output, "wb") as fh:
            fh.write(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0
