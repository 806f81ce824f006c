"""A graph drawn as SVG with no tool but this module: layered, top to bottom.

`foldgraph graph --format svg` and the viewer's graph view use it; the viewer
passes the nodes to highlight (a checkpoint's `next`, and the nodes of the
step that produced it). Layers come from the longest path from `__start__`
over the graph without its back edges (loops are drawn as curves on the
side); conditional edges are dashed, as in LangGraph's mermaid drawing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape

import attrs

__all__ = ["Layout", "layout", "to_svg"]

CHAR_W, BOX_H, GAP_X, GAP_Y, PAD = 7.5, 34, 28, 56, 20


@attrs.frozen
class Layout:
    """Node boxes `(x, y, w, h)` by id, edges `(source, target, conditional, back)`."""

    boxes: dict[str, tuple[float, float, float, float]]
    labels: dict[str, str]
    edges: tuple[tuple[str, str, bool, bool], ...]
    width: float
    height: float


def _graph_parts(graph: Any) -> tuple[list[str], dict[str, str], list[tuple[str, str, bool]]]:
    nodes = list(graph.nodes)
    labels = {n: getattr(graph.nodes[n], "name", n) or n for n in nodes}
    edges = [(e.source, e.target, bool(getattr(e, "conditional", False))) for e in graph.edges]
    return nodes, labels, edges


def _back_edges(nodes: Sequence[str], edges: Sequence[tuple[str, str, bool]]) -> set[int]:
    """Edges closing a cycle in a depth-first walk from the first node."""
    out: dict[str, list[tuple[int, str]]] = {n: [] for n in nodes}
    for i, (s, t, _) in enumerate(edges):
        out.setdefault(s, []).append((i, t))
    state: dict[str, int] = {}
    back: set[int] = set()
    for root in nodes:
        if root in state:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        state[root] = 1
        while stack:
            node, pos = stack[-1]
            children = out.get(node, [])
            if pos < len(children):
                stack[-1] = (node, pos + 1)
                i, child = children[pos]
                if state.get(child) == 1:
                    back.add(i)
                elif child not in state:
                    state[child] = 1
                    stack.append((child, 0))
            else:
                state[node] = 2
                stack.pop()
    return back


def layout(graph: Any) -> Layout:
    """Positions for `graph` (a `get_graph()` drawing: `.nodes`, `.edges`)."""
    nodes, labels, edges = _graph_parts(graph)
    order = sorted(nodes, key=lambda n: (n != "__start__", n == "__end__"))
    back = _back_edges(order, edges)
    layer = {n: 0 for n in nodes}
    forward = [(s, t) for i, (s, t, _) in enumerate(edges) if i not in back and s != t]
    for _ in range(len(nodes)):
        moved = False
        for s, t in forward:
            if s in layer and t in layer and layer[t] < layer[s] + 1:
                layer[t] = layer[s] + 1
                moved = True
        if not moved:
            break
    if "__end__" in layer:
        layer["__end__"] = max(layer.values())
        if any(layer[n] == layer["__end__"] for n in nodes if n != "__end__"):
            layer["__end__"] += 1
    rows: dict[int, list[str]] = {}
    for n in nodes:
        rows.setdefault(layer[n], []).append(n)
    widths = {n: max(60.0, len(labels[n]) * CHAR_W + 24) for n in nodes}
    row_widths = {k: sum(widths[n] for n in v) + GAP_X * (len(v) - 1) for k, v in rows.items()}
    total_w = max(row_widths.values(), default=0) + 2 * PAD + 60
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for k, members in sorted(rows.items()):
        x = (total_w - row_widths[k]) / 2
        y = PAD + k * (BOX_H + GAP_Y)
        for n in members:
            boxes[n] = (x, y, widths[n], BOX_H)
            x += widths[n] + GAP_X
    height = PAD * 2 + (max(rows, default=0) + 1) * (BOX_H + GAP_Y) - GAP_Y
    return Layout(
        boxes=boxes,
        labels=labels,
        edges=tuple((s, t, c, i in back) for i, (s, t, c) in enumerate(edges)),
        width=total_w,
        height=height,
    )


def _edge_path(a: tuple[float, ...], b: tuple[float, ...], back: bool, total_w: float) -> str:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    if back:
        x1, y1 = ax + aw, ay + ah / 2
        x2, y2 = bx + bw, by + bh / 2
        bend = max(x1, x2) + 40
        return f"M{x1:.1f},{y1:.1f} C{bend:.1f},{y1:.1f} {bend:.1f},{y2:.1f} {x2 + 2:.1f},{y2:.1f}"
    x1, y1 = ax + aw / 2, ay + ah
    x2, y2 = bx + bw / 2, by - 2
    if y2 <= y1:  # same layer
        y1, y2 = ay + ah / 2, by + bh / 2
        x1 = ax + aw if ax < bx else ax
        x2 = bx - 2 if ax < bx else bx + bw + 2
        return f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
    mid = (y1 + y2) / 2
    return f"M{x1:.1f},{y1:.1f} C{x1:.1f},{mid:.1f} {x2:.1f},{mid:.1f} {x2:.1f},{y2:.1f}"


def to_svg(
    graph: Any,
    *,
    next_nodes: Iterable[str] = (),
    ran_nodes: Iterable[str] = (),
    title: str | None = None,
) -> str:
    """The graph as a standalone SVG document; `next_nodes` and `ran_nodes` highlighted."""
    lay = layout(graph)
    nxt, ran = set(next_nodes), set(ran_nodes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width:.0f}" '
        f'height="{lay.height:.0f}" viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" '
        'font-family="sans-serif" font-size="13" class="fg-graph">',
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' "
        "markerHeight='7' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' "
        "fill='#555'/></marker></defs>"
    )
    for s, t, conditional, back in lay.edges:
        if s not in lay.boxes or t not in lay.boxes:
            continue
        dash = ' stroke-dasharray="5,4"' if conditional else ""
        path = _edge_path(lay.boxes[s], lay.boxes[t], back, lay.width)
        out.append(
            f'<path d="{path}" fill="none" stroke="#555" stroke-width="1.3"{dash} '
            f'marker-end="url(#arrow)" data-edge="{escape(s)}->{escape(t)}"/>'
        )
    for node, (x, y, w, h) in lay.boxes.items():
        label = lay.labels[node]
        special = node in ("__start__", "__end__")
        classes = ["node"]
        fill, stroke = ("#eef2f7", "#8a99ad") if special else ("#ffffff", "#4a5a70")
        if node in ran:
            classes.append("ran")
            fill, stroke = "#e3f4e1", "#2f8a3a"
        if node in nxt:
            classes.append("next")
            fill, stroke = "#fff3cd", "#c98a00"
        radius = h / 2 if special else 6
        out.append(
            f'<g class="{" ".join(classes)}" data-node="{escape(node)}">'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius:.0f}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{2.2 if len(classes) > 1 else 1.2}"/>'
            f'<text x="{x + w / 2:.1f}" y="{y + h / 2 + 4.5:.1f}" text-anchor="middle" '
            f'fill="#1d2633">{escape(label)}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)
