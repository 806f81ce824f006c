"""Drawing a `StateGraph` as LangGraph draws it (a langchain-core `Graph`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from foldgraph.constants import END, START


def _interrupt_marker(name: str, before: Any, after: Any) -> str | None:
    """`before`, `after` or `before,after`: where a static breakpoint stops at `name`.

    As in LangGraph's drawings, only nodes listed by name are marked (not `"*"`).
    """
    is_before = before != "*" and name in (before or ())
    is_after = after != "*" and name in (after or ())
    if is_before and is_after:
        return "before,after"
    return "before" if is_before else "after" if is_after else None


def draw(
    builder: Any,  # a StateGraph (imported by it, so not named here)
    compiled: Any = None,
    subgraphs: Mapping[str, Any] | None = None,
) -> Any:
    """A langchain-core drawable `Graph` of the builder's nodes and edges, laid out as
    LangGraph lays it out: START, the nodes in the order added; the edges of nodes
    reached from START (a node that leads nowhere gets one to END): from START
    first, then by (source, target), plain edges to END last. A conditional edge whose
    ends are unknown (no path map, no `Literal` hint) is not drawn. `subgraphs` (name ->
    drawn subgraph) are drawn inline.
    """
    from langchain_core.runnables.graph import Graph

    before = getattr(compiled, "interrupt_before_nodes", ())
    after = getattr(compiled, "interrupt_after_nodes", ())
    drawn = Graph()
    drawn.add_node(None, START)
    for name, spec in builder.nodes.items():
        metadata = dict(spec.metadata or {})
        if spec.defer:
            metadata["defer"] = True
        marker = _interrupt_marker(name, before, after)
        if marker is not None:
            metadata["__interrupt"] = marker
        tools = getattr(spec.runnable, "tools_by_name", None)
        if isinstance(tools, Mapping) and tools:
            metadata["__tools"] = list(tools)
        drawn.add_node(spec.runnable, name, metadata=metadata or None)

    edges: set[tuple[str, str, bool, str | None]] = {(s, e, False, None) for s, e in builder.edges}
    for starts, end in builder.waiting_edges:
        edges.update((s, end, False, None) for s in starts)
    for source, branches in builder.branches.items():
        for branch in branches.values():
            for key, end in (branch.ends or {}).items():
                label = str(key)  # LangGraph labels edges with the key's text: True -> "True"
                edges.add((source, end, True, label if label != end else None))
    for name, spec in builder.nodes.items():
        ends = spec.ends or ()
        labels = ends if isinstance(ends, dict) else {e: None for e in ends}
        edges.update((name, t, True, label if label != t else None) for t, label in labels.items())

    def add(source: str, target: str, data: Any = None, conditional: bool = False) -> None:
        if any(e.source == source and e.target == target for e in drawn.edges):
            return
        if target == END and END not in drawn.nodes:
            drawn.add_node(None, END)
        drawn.add_edge(drawn.nodes[source], drawn.nodes[target], data, conditional)

    termini = {t for _, t, _, _ in edges if t != END} - {s for s, _, _, _ in edges}
    edges.update((source, END, False, None) for source in termini)
    reached = _reached(edges)
    for source, target, conditional, label in sorted(
        (e for e in edges if e[0] in reached), key=_edge_order
    ):
        add(source, target, label, conditional)
    for name, sub in (subgraphs or {}).items():
        _inline(drawn, name, sub)
    return drawn


def _edge_order(edge: tuple[str, str, bool, str | None]) -> tuple[Any, ...]:
    """LangGraph's edge order: from START first, plain edges to END last, else by name."""
    source, target, conditional, label = edge
    group = 0 if source == START else 2 if target == END and not conditional else 1
    return (group, source, target, conditional, label is not None, label or "")


def _reached(edges: set[tuple[str, str, bool, str | None]]) -> set[str]:
    """The nodes a run can reach from START (edges of the others are not drawn)."""
    reached, todo = {START}, [START]
    while todo:
        node = todo.pop()
        for source, target, _, _ in edges:
            if source == node and target not in reached:
                reached.add(target)
                todo.append(target)
    return reached


def _inline(drawn: Any, name: str, sub: Any) -> None:
    """Replace node `name` by the drawing of its subgraph (without its START and END)."""
    if not (len(sub.nodes) > 1 and name in drawn.nodes and sub.first_node() and sub.last_node()):
        return
    sub.trim_first_node()
    sub.trim_last_node()
    drawn.nodes.pop(name)
    first, last = drawn.extend(sub, prefix=name)
    for index, edge in enumerate(drawn.edges):
        if edge.source == name:
            edge = edge.copy(source=last.id)
        if edge.target == name:
            edge = edge.copy(target=first.id)
        drawn.edges[index] = edge
