"""What a reducer benchmark found: records, their JSON form, and comparisons of two runs.

Base units throughout (seconds, bytes). The JSON form (`to_json` / `from_json`)
keeps every timed value, so a saved run can be re-read, compared with a later one
(`compare`) or plotted without measuring again; derived numbers (medians, growth
verdicts, ratios) are written too, for scripts, and recomputed when read.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from foldgraph.bench._growth import Growth, growth

FORMAT = "foldgraph-reducer-bench/1"
SIDES = ("foldgraph", "langgraph")


@attrs.frozen
class Measure:
    """One side's numbers for one reducer at one history length and batch size."""

    times: tuple[float, ...] = ()
    """CPU seconds per update: every value of every worker process."""
    bytes_per_update: float | None = None
    """Memory retained per update when every version is kept."""
    error: str | None = None
    skipped: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.skipped is None and bool(self.times)

    @property
    def time_per_update(self) -> float | None:
        return statistics.median(self.times) if self.ok else None

    @property
    def updates_per_second(self) -> float | None:
        t = self.time_per_update
        return None if t is None else 1.0 / max(t, 1e-15)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.times:
            out["time_per_update"] = self.time_per_update
            out["updates_per_second"] = self.updates_per_second
            out["times"] = list(self.times)
        for key in ("bytes_per_update", "error", "skipped"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Measure:
        return cls(
            times=tuple(float(t) for t in data.get("times", ())),
            bytes_per_update=data.get("bytes_per_update"),
            error=data.get("error"),
            skipped=data.get("skipped"),
        )


@attrs.frozen
class Row:
    """A reducer at one history length and batch size, on each side measured."""

    reducer: str
    history: int
    batch: int
    foldgraph: Measure | None = None
    langgraph: Measure | None = None

    @property
    def speedup(self) -> float | None:
        """LangGraph's time per update / foldgraph's (above 1: foldgraph is faster)."""
        if self.foldgraph is None or self.langgraph is None:
            return None
        fg, lg = self.foldgraph.time_per_update, self.langgraph.time_per_update
        return None if fg is None or lg is None else lg / max(fg, 1e-15)

    def side(self, name: str) -> Measure | None:
        return self.foldgraph if name == "foldgraph" else self.langgraph

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reducer": self.reducer,
            "history": self.history,
            "batch": self.batch,
        }
        for name in SIDES:
            measure = self.side(name)
            if measure is not None:
                out[name] = measure.to_json()
        if self.speedup is not None:
            out["speedup"] = self.speedup
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Row:
        return cls(
            reducer=data["reducer"],
            history=int(data["history"]),
            batch=int(data["batch"]),
            foldgraph=Measure.from_json(data["foldgraph"]) if "foldgraph" in data else None,
            langgraph=Measure.from_json(data["langgraph"]) if "langgraph" in data else None,
        )


@attrs.frozen
class EndToEnd:
    """The reducer on a channel of the two-node loop graph, with one kind of saver."""

    reducer: str
    history: int
    saver: str  # "none", "memory", "sqlite"
    side: str
    time_per_update: float | None = None
    error: str | None = None
    skipped: str | None = None

    @property
    def updates_per_second(self) -> float | None:
        t = self.time_per_update
        return None if t is None else 1.0 / max(t, 1e-15)

    def to_json(self) -> dict[str, Any]:
        out = attrs.asdict(self)
        out["updates_per_second"] = self.updates_per_second
        return {k: v for k, v in out.items() if v is not None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EndToEnd:
        return cls(
            reducer=data["reducer"],
            history=int(data["history"]),
            saver=data["saver"],
            side=data["side"],
            time_per_update=data.get("time_per_update"),
            error=data.get("error"),
            skipped=data.get("skipped"),
        )


@attrs.frozen
class BenchReport:
    """A whole run: rows, end-to-end numbers, and where they were measured."""

    rows: tuple[Row, ...] = ()
    e2e: tuple[EndToEnd, ...] = ()
    langgraph: str | None = None
    """LangGraph's version when it ran beside foldgraph, else None (see `langgraph_note`)."""
    langgraph_note: str | None = None
    machine: Mapping[str, Any] = attrs.field(factory=dict)
    settings: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def reducers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.reducer for r in self.rows))

    @property
    def growth(self) -> tuple[Growth, ...]:
        """A verdict per reducer, side and batch size, over the history lengths measured."""
        out = []
        for reducer in self.reducers:
            for side in SIDES:
                batches = dict.fromkeys(r.batch for r in self.rows if r.reducer == reducer)
                for batch in batches:
                    points = [
                        (r.history, m.time_per_update)
                        for r in self.rows
                        if r.reducer == reducer
                        and r.batch == batch
                        and (m := r.side(side)) is not None
                        and m.time_per_update is not None
                    ]
                    if len(points) >= 2:
                        sizes, times = zip(*points, strict=True)
                        out.append(growth(reducer, side, batch, sizes, times))
        return tuple(out)

    @property
    def flagged(self) -> tuple[Growth, ...]:
        """foldgraph reducers whose cost grows faster than O(log n)."""
        return tuple(g for g in self.growth if g.side == "foldgraph" and g.flagged)

    @property
    def skipped(self) -> tuple[str, ...]:
        """Why some cases were not measured (each reason once)."""
        reasons = [m.skipped for r in self.rows for s in SIDES if (m := r.side(s)) and m.skipped]
        reasons += [f"{e.side}: {e.skipped}" for e in self.e2e if e.skipped]
        return tuple(dict.fromkeys(reasons))

    @property
    def errors(self) -> tuple[str, ...]:
        out = []
        for row in self.rows:
            for side in SIDES:
                m = row.side(side)
                if m is not None and m.error is not None:
                    out.append(f"{row.reducer} at {row.history:,} ({side}): {m.error}")
        for e in self.e2e:
            if e.error is not None:
                out.append(
                    f"{e.reducer} end to end at {e.history:,}, {e.saver} ({e.side}): {e.error}"
                )
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "machine": dict(self.machine),
            "settings": dict(self.settings),
            "langgraph": self.langgraph,
            "langgraph_note": self.langgraph_note,
            "rows": [r.to_json() for r in self.rows],
            "growth": [attrs.asdict(g) | {"verdict": g.verdict} for g in self.growth],
            "e2e": [e.to_json() for e in self.e2e],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BenchReport:
        if data.get("format") != FORMAT:
            raise ValueError(
                f"not a reducer benchmark file (format {data.get('format')!r}, expected "
                f"{FORMAT!r}): write one with `foldgraph bench reducers --json FILE`"
            )
        return cls(
            rows=tuple(Row.from_json(r) for r in data.get("rows", ())),
            e2e=tuple(EndToEnd.from_json(e) for e in data.get("e2e", ())),
            langgraph=data.get("langgraph"),
            langgraph_note=data.get("langgraph_note"),
            machine=dict(data.get("machine", {})),
            settings=dict(data.get("settings", {})),
        )


@attrs.frozen
class Change:
    """One number of an old run beside the same number of a new one."""

    what: str  # "reducer" or "e2e:<saver>"
    reducer: str
    history: int
    batch: int
    old: float | None
    new: float | None

    @property
    def speedup(self) -> float | None:
        """Old time / new time: above 1, the new run is faster."""
        if self.old is None or self.new is None:
            return None
        return self.old / max(self.new, 1e-15)


def compare(old: BenchReport, new: BenchReport) -> tuple[Change, ...]:
    """foldgraph's time per update in both runs, for every row and end-to-end case either has."""
    changes: list[Change] = []

    def time_of(rows: Iterable[Row]) -> dict[tuple[str, int, int], float | None]:
        return {
            (r.reducer, r.history, r.batch): (r.foldgraph.time_per_update if r.foldgraph else None)
            for r in rows
        }

    before, after = time_of(old.rows), time_of(new.rows)
    for key in dict.fromkeys([*before, *after]):
        changes.append(Change("reducer", *key, before.get(key), after.get(key)))

    def e2e_of(report: BenchReport) -> dict[tuple[str, str, int], float | None]:
        return {
            (e.saver, e.reducer, e.history): e.time_per_update
            for e in report.e2e
            if e.side == "foldgraph"
        }

    before_e, after_e = e2e_of(old), e2e_of(new)
    for key in dict.fromkeys([*before_e, *after_e]):
        saver, reducer, history = key
        changes.append(
            Change(f"e2e:{saver}", reducer, history, 1, before_e.get(key), after_e.get(key))
        )
    return tuple(changes)
