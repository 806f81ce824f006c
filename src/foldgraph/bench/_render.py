"""A benchmark report as people read it: rich tables for the terminal, Markdown for docs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from foldgraph.bench._report import BenchReport, Change, Measure
from foldgraph.bench._samples import BUILTINS

NONE = "-"
SAVER_TITLES = {"none": "no saver", "memory": "InMemorySaver", "sqlite": "SqliteSaver"}


def seconds(t: float | None) -> str:
    if t is None:
        return NONE
    for scale, unit in ((1e-6, "ns"), (1e-3, "µs"), (1.0, "ms")):
        if t < scale:
            return f"{t / scale * 1000:.3g} {unit}"
    return f"{t:.3g} s"


def rate(r: float | None) -> str:
    if r is None:
        return NONE
    for scale, unit in ((1e6, "M"), (1e3, "k")):
        if r >= scale:
            return f"{r / scale:.3g}{unit}"
    return f"{r:.3g}"


def size(b: float | None) -> str:
    if b is None:
        return NONE
    for scale, unit in ((1 << 20, "MiB"), (1 << 10, "KiB")):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{b:.0f} B"


def factor(x: float | None) -> str:
    if x is None:
        return NONE
    return f"{x:,.0f}x" if x >= 100 else f"{x:.3g}x"


def title(reducer: str) -> str:
    builtin = BUILTINS.get(reducer)
    return builtin.title if builtin else reducer


def _cell(m: Measure | None, what: str) -> str:
    if m is None:
        return NONE
    if m.skipped:
        return "n/a"
    if m.error:
        return "error"
    if what == "time":
        return seconds(m.time_per_update)
    if what == "rate":
        return rate(m.updates_per_second)
    return size(m.bytes_per_update)


def reducer_table(report: BenchReport, compact: bool = False) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the main table; `compact` for a terminal (short names)."""
    with_lg = any(r.langgraph is not None for r in report.rows)
    batches = {r.batch for r in report.rows}
    header = ["reducer", "history"]
    if len(batches) > 1:
        header.append("batch")
    if compact:
        header += ["time/update", "updates/s", "kept/update"]
        if with_lg:
            header += ["LG time/update", "LG kept/update", "speed-up"]
    else:
        header += ["time / update", "updates / s", "memory / update kept"]
        if with_lg:
            header += ["LangGraph time / update", "LangGraph memory / update kept", "speed-up"]
    rows = []
    previous = None
    for r in report.rows:
        name = r.reducer if compact else title(r.reducer)
        cells = [name if r.reducer != previous else "", f"{r.history:,}"]
        previous = r.reducer
        if len(batches) > 1:
            cells.append(str(r.batch))
        cells += [_cell(r.foldgraph, "time"), _cell(r.foldgraph, "rate"), _cell(r.foldgraph, "mem")]
        if with_lg:
            cells += [_cell(r.langgraph, "time"), _cell(r.langgraph, "mem"), factor(r.speedup)]
        rows.append(cells)
    return header, rows


def growth_table(report: BenchReport, compact: bool = False) -> tuple[list[str], list[list[str]]]:
    by_key: dict[tuple[str, int], dict[str, Any]] = {}
    for g in report.growth:
        by_key.setdefault((g.reducer, g.batch), {})[g.side] = g
    with_lg = any("langgraph" in v for v in by_key.values())
    batches = {b for _, b in by_key}
    header = ["reducer"] + (["batch"] if len(batches) > 1 else [])
    header += ["exponent", "verdict"]
    if with_lg:
        header += ["LangGraph exponent", "LangGraph verdict"]
    rows = []
    for (reducer, batch), sides in by_key.items():
        cells = [reducer if compact else title(reducer)] + (
            [str(batch)] if len(batches) > 1 else []
        )
        for side in ("foldgraph", "langgraph") if with_lg else ("foldgraph",):
            g = sides.get(side)
            if g is None:
                cells += [NONE, NONE]
                continue
            exp = NONE if g.exponent is None else f"{g.exponent:.2f}"
            if compact:
                verdict = "GROWS" if g.flagged else "flat"
            else:
                verdict = g.verdict + (f": {g.evidence}" if g.flagged else "")
            cells += [exp, verdict]
        rows.append(cells)
    return header, rows


def e2e_table(report: BenchReport, compact: bool = False) -> tuple[list[str], list[list[str]]]:
    savers = list(dict.fromkeys(e.saver for e in report.e2e))
    sides = list(dict.fromkeys(e.side for e in report.e2e))
    header = ["reducer", "history"]
    for side in sides:
        prefix = "" if side == "foldgraph" else ("LG " if compact else "LangGraph ")
        header += [f"{prefix}{SAVER_TITLES.get(s, s)}" for s in savers]
    cells_of: dict[tuple[str, int], dict[tuple[str, str], str]] = {}
    for e in report.e2e:
        text = "error" if e.error else "n/a" if e.skipped else rate(e.updates_per_second)
        cells_of.setdefault((e.reducer, e.history), {})[(e.side, e.saver)] = text
    rows = []
    previous = None
    for (reducer, history), cells in cells_of.items():
        shown = reducer if compact else title(reducer)
        row = [shown if reducer != previous else "", f"{history:,}"]
        previous = reducer
        row += [cells.get((side, s), NONE) for side in sides for s in savers]
        rows.append(row)
    return header, rows


def compare_table(changes: Sequence[Change]) -> tuple[list[str], list[list[str]]]:
    header = ["what", "reducer", "history", "batch", "old", "new", "old / new"]
    rows = [
        [
            "reducer" if c.what == "reducer" else SAVER_TITLES.get(c.what[4:], c.what),
            title(c.reducer),
            f"{c.history:,}",
            str(c.batch),
            seconds(c.old),
            seconds(c.new),
            factor(c.speedup),
        ]
        for c in changes
    ]
    return header, rows


def notes(report: BenchReport) -> list[str]:
    out = []
    if report.langgraph_note and report.langgraph is None:
        out.append(report.langgraph_note)
    m = report.machine
    loads = [m.get("load_at_start"), m.get("load_at_end")]
    cpus = m.get("cpus") or 1
    if any(load is not None and load >= 0.75 * cpus for load in loads):
        shown = " -> ".join(f"{x:.1f}" for x in loads if x is not None)
        out.append(
            f"The machine was busy (load {shown} on {cpus} CPUs): times are CPU time, "
            "medians over every value, but caches are shared."
        )
    out.extend(f"n/a: {reason}" for reason in report.skipped)
    out.extend(f"error: {e}" for e in report.errors)
    return out


def print_report(report: BenchReport, console: Any = None) -> None:
    """The report as rich tables on the terminal."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()

    def show(caption: str, table: tuple[list[str], list[list[str]]]) -> None:
        header, rows = table
        if not rows:
            return
        t = Table(title=caption, title_justify="left")
        for i, h in enumerate(header):
            t.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            t.add_row(*row)
        console.print(t)

    show("Reducer cost per update (CPU time, median; LG = LangGraph)", reducer_table(report, True))
    show("Growth of time per update with history length", growth_table(report, True))
    show("End to end: two-node loop graph, updates per second", e2e_table(report, True))
    for line in notes(report):
        console.print(line, style="yellow" if not line.startswith("error") else "red")
    for g in report.growth:
        if g.flagged:
            side = "" if g.side == "foldgraph" else " (LangGraph)"
            style = "bold red" if g.side == "foldgraph" else "dim"
            console.print(f"grows{side}: {g.reducer}: {g.evidence}", style=style)


def print_compare(changes: Sequence[Change], console: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    header, rows = compare_table(changes)
    t = Table(title="foldgraph time per update: old run against new run", title_justify="left")
    for i, h in enumerate(header):
        t.add_column(h, justify="left" if i < 2 else "right")
    for row in rows:
        t.add_row(*row)
    console.print(t)


def markdown(report: BenchReport) -> str:
    """The report's tables in Markdown (for a README or a results file)."""

    def md(header: list[str], rows: list[list[str]]) -> str:
        if not rows:
            return ""
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        return "\n".join(lines) + "\n"

    parts = [md(*reducer_table(report)), md(*growth_table(report)), md(*e2e_table(report))]
    extra = notes(report)
    if extra:
        parts.append("\n".join(f"- {line}" for line in extra) + "\n")
    return "\n".join(p for p in parts if p)
