"""`--plot`: throughput against history length, log-log, one line per reducer and side.

matplotlib is an optional extra (`pip install 'foldgraph[plot]'`); asking for a plot
without it raises `PlotUnavailable` before anything is measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from foldgraph.bench._render import title
from foldgraph.bench._report import BenchReport


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def require_matplotlib() -> Any:
    """The pyplot module (non-interactive backend), or PlotUnavailable saying how to get it."""
    try:
        import matplotlib
    except ImportError as exc:
        raise PlotUnavailable(
            "--plot needs matplotlib, which is not installed: "
            "pip install 'foldgraph[plot]' (or pip install matplotlib)"
        ) from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(report: BenchReport, path: str | Path, batch: int | None = None) -> Path:
    """Write a PNG of updates per second against history length for every reducer."""
    plt = require_matplotlib()
    batches = sorted({r.batch for r in report.rows})
    chosen = batch if batch is not None else (batches[0] if batches else 1)
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, reducer in enumerate(report.reducers):
        color = colors[i % len(colors)]
        for side, style in (("foldgraph", "-"), ("langgraph", "--")):
            points = [
                (r.history, m.updates_per_second)
                for r in report.rows
                if r.reducer == reducer
                and r.batch == chosen
                and (m := r.side(side)) is not None
                and m.updates_per_second is not None
            ]
            if not points:
                continue
            xs, ys = zip(*points, strict=True)
            label = title(reducer) + ("" if side == "foldgraph" else " (LangGraph)")
            ax.plot(xs, ys, style, marker="o", color=color, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("history length (items already in the channel)")
    ax.set_ylabel("updates per second (CPU time)")
    ax.set_title(
        "Reducer throughput against history length"
        + (f" (batch {chosen})" if len(batches) > 1 else "")
        + "\nfoldgraph solid, LangGraph dashed"
    )
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    out = Path(path)
    fig.savefig(out, bbox_inches="tight")
    plt.close(fig)
    return out
