"""The compat corpus's programs with a checkpointer, replayed through the HTTP API.

    python -m tools.served_compat [NAME ...]     # table of programs: match / differ / error

Each program is run in-process (``import langgraph`` served by foldgraph) while its
top-level graph calls are recorded: ``invoke``/``stream`` (sync or async) and
``update_state`` on a graph with a checkpointer and a ``thread_id``. The same
program runs again inside a ``foldgraph dev --alias-langgraph`` server (this
module is its ``langgraph.json`` target: importing it with ``FOLDGRAPH_SERVED_COMPAT``
set records the graphs and serves them as ``<program>__<n>``), and the recorded
calls are replayed in order through ``langgraph-sdk``: ``runs.wait`` with the input,
``Command`` or checkpoint, ``threads.update_state``. Then every thread's final
state and history (values, next, source, step of each checkpoint) from the server
must equal the in-process ones, after the corpus's normalisation (generated ids
and times as placeholders).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import inspect
import json
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import compat  # noqa: E402

_depth: contextvars.ContextVar[int] = contextvars.ContextVar("served_compat_depth", default=0)


@dataclasses.dataclass
class Call:
    graph: int
    method: str
    thread_id: str
    args: dict[str, Any]


@dataclasses.dataclass
class Recording:
    graphs: list[Any] = dataclasses.field(default_factory=list)
    calls: list[Call] = dataclasses.field(default_factory=list)
    #: With `snapshots`, each graph is also deep-copied when first called: the copy keeps
    #: its models as they were then (a fake model's next answer), for serving elsewhere.
    snapshots: list[Any] | None = None

    def index(self, graph: Any) -> int:
        for i, known in enumerate(self.graphs):
            if known is graph:
                return i
        self.graphs.append(graph)
        if self.snapshots is not None:
            self.snapshots.append(_copy_before_use(graph))
        return len(self.graphs) - 1


def _copy_before_use(graph: Any) -> Any:
    import copy

    keep = {id(x): x for x in (graph.checkpointer, graph.store, getattr(graph, "cache", None))}
    try:
        return copy.deepcopy(graph, memo=dict(keep))
    except Exception:
        return graph


def _durable(graph: Any) -> bool:
    return graph.checkpointer not in (None, True, False)


@contextlib.contextmanager
def recording(snapshots: bool = False) -> Iterator[Recording]:
    """Record top-level calls of graphs with a checkpointer while the block runs."""
    from foldgraph.pregel import Pregel

    rec = Recording(snapshots=[] if snapshots else None)
    saved = {name: getattr(Pregel, name) for name in _METHODS}

    def note(graph: Any, method: str, args: tuple, kwargs: dict) -> None:
        bound = dict(kwargs)
        if method in ("update_state", "aupdate_state"):
            for key, value in zip(("config", "values", "as_node"), args, strict=False):
                bound[key] = value
        else:
            for key, value in zip(("input", "config"), args, strict=False):
                bound[key] = value
        config = bound.get("config")
        thread = ((config or {}).get("configurable") or {}).get("thread_id")
        if _depth.get() or thread is None or not _durable(graph):
            return
        rec.calls.append(Call(rec.index(graph), method, str(thread), bound))

    def wrap(name: str, fn: Any) -> Any:
        if inspect.isasyncgenfunction(fn):

            @functools.wraps(fn)
            async def agen(self: Any, *args: Any, **kwargs: Any) -> Any:
                note(self, name, args, kwargs)
                token = _depth.set(_depth.get() + 1)
                try:
                    async for item in fn(self, *args, **kwargs):
                        yield item
                finally:
                    _depth.reset(token)

            return agen
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def coro(self: Any, *args: Any, **kwargs: Any) -> Any:
                note(self, name, args, kwargs)
                token = _depth.set(_depth.get() + 1)
                try:
                    return await fn(self, *args, **kwargs)
                finally:
                    _depth.reset(token)

            return coro

        @functools.wraps(fn)
        def plain(self: Any, *args: Any, **kwargs: Any) -> Any:
            note(self, name, args, kwargs)
            token = _depth.set(_depth.get() + 1)
            try:
                result = fn(self, *args, **kwargs)
                if inspect.isgenerator(result):
                    result = list(result)  # drive it here, where nested calls are not recorded
                    return iter(result)
                return result
            finally:
                _depth.reset(token)

        return plain

    for name, fn in saved.items():
        setattr(Pregel, name, wrap(name, fn))
    try:
        yield rec
    finally:
        for name, fn in saved.items():
            setattr(Pregel, name, fn)


_METHODS = ("invoke", "ainvoke", "stream", "astream", "update_state", "aupdate_state")


def record_program(name: str, snapshots: bool = False) -> tuple[Recording, Any]:
    """Run program `name` with recording on; the recording and the program's record."""
    with compat.langgraph_is_foldgraph(), recording(snapshots) as rec:
        result = compat.load_program(name).main()
        if inspect.iscoroutine(result):
            result = asyncio.run(result)
    return rec, result


def served_programs() -> list[str]:
    """The corpus programs that call a graph with a checkpointer on a thread."""
    out = []
    for name in compat.program_names():
        text = (compat.PROGRAMS / f"{name}.py").read_text()
        if any(s in text for s in ("MemorySaver", "SqliteSaver", "checkpointer")):
            out.append(name)
    return out


# -- the server side: this module as a langgraph.json target ----------------------------------


def serve_graphs(names: list[str]) -> dict[str, Any]:
    """`<program>__<n>` -> graph, for every graph the programs call on a thread."""
    graphs: dict[str, Any] = {}
    for name in names:
        try:
            rec, _ = record_program(name, snapshots=True)
        except Exception:  # a program that fails in-process is reported by the client side
            continue
        for i, graph in enumerate(rec.snapshots or rec.graphs):
            graphs[f"{name}__{i}"] = graph
    return graphs


def write_config(folder: Path, names: list[str]) -> Path:
    """A langgraph.json serving `names`' graphs from this module."""
    graphs = {}
    for name in names:
        try:
            rec, _ = record_program(name)
        except Exception:
            continue
        for i in range(len(rec.graphs)):
            graphs[f"{name}__{i}"] = f"tools.served_compat:SERVED.{name}__{i}"
    config = {"dependencies": [str(ROOT)], "graphs": graphs}
    path = folder / "langgraph.json"
    path.write_text(json.dumps(config, indent=2))
    (folder / "served_names.json").write_text(json.dumps(names))
    return path


class _Served:
    """Attribute access `SERVED.<program>__<n>` for langgraph.json, built on first use."""

    _graphs: dict[str, Any] | None = None

    def __getattr__(self, key: str) -> Any:
        if self._graphs is None:
            names = json.loads(Path(os.environ["FOLDGRAPH_SERVED_COMPAT"]).read_text())
            type(self)._graphs = serve_graphs(names)
        try:
            return self._graphs[key]  # type: ignore[index]
        except KeyError:
            raise AttributeError(key) from None


SERVED = _Served()


# -- the client side: replay and compare -------------------------------------------------------


def _plain(value: Any) -> Any:
    from foldgraph.server import serde

    return serde.to_plain(value)


def _snapshot_record(values: Any, nxt: Any, metadata: Any) -> dict[str, Any]:
    return {
        "values": values,
        "next": list(nxt),
        "source": (metadata or {}).get("source"),
        "step": (metadata or {}).get("step"),
    }


def local_threads(rec: Recording) -> dict[tuple[int, str], dict[str, Any]]:
    """Each recorded (graph, thread)'s final state and history, as the in-process saver has them."""
    out = {}
    for call in rec.calls:
        key = (call.graph, call.thread_id)
        if key in out:
            continue
        graph = rec.graphs[call.graph]
        config = {"configurable": {"thread_id": call.args["config"]["configurable"]["thread_id"]}}
        with compat.langgraph_is_foldgraph():
            state = graph.get_state(config)
            history = list(graph.get_state_history(config))
        out[key] = {
            "state": _plain(state.values),
            "history": [_snapshot_record(_plain(s.values), s.next, s.metadata) for s in history],
            "ids": sorted(s.config["configurable"]["checkpoint_id"] for s in history),
            "interrupts": {
                i.id: _plain(i.value) for s in history for t in s.tasks for i in t.interrupts
            },
        }
    return out


def _message_tuples(value: Any) -> Any:
    """`("user", "hi")` message shorthands as `{"role": "user", "content": "hi"}`: JSON has no
    tuples, and a list of two strings is not a message."""
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return {"role": value[0], "content": value[1]}
    if isinstance(value, dict):
        return {k: _message_tuples(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_message_tuples(v) for v in value]
    return value


def _resume(client: Any, thread_id: str, local_values: dict[str, Any], resume: Any) -> Any:
    """A resume keyed by local interrupt ids, keyed by the server's ids of equal values."""
    if not isinstance(resume, dict) or not resume or not set(resume) <= set(local_values):
        return resume
    pending = client.threads.get_state(thread_id)["interrupts"]
    mapped = {}
    for local_id, answer in resume.items():
        for interrupt in pending:
            if interrupt["value"] == local_values[local_id] and interrupt["id"] not in mapped:
                mapped[interrupt["id"]] = answer
                break
        else:
            return resume
    return mapped


def replay(client: Any, name: str, rec: Recording) -> dict[tuple[int, str], dict[str, Any]]:
    """Replay the recorded calls through `client`; each thread's state and history there."""
    threads: dict[tuple[int, str], str] = {}
    local = local_threads(rec)
    for call in rec.calls:
        key = (call.graph, call.thread_id)
        remote = threads.setdefault(key, str(uuid.uuid4()))
        assistant = f"{name}__{call.graph}"
        config = call.args.get("config") or {}
        conf = dict(config.get("configurable") or {})
        checkpoint_id = conf.pop("checkpoint_id", None)
        conf.pop("thread_id", None)
        conf.pop("checkpoint_ns", None)
        if checkpoint_id is not None:
            checkpoint_id = _map_checkpoint(client, remote, local[key]["ids"], checkpoint_id)
        sent_config = {
            **{k: v for k, v in config.items() if k in ("recursion_limit", "tags", "metadata")},
            "configurable": _plain(conf),
        }
        if call.method in ("update_state", "aupdate_state"):
            values = call.args.get("values")
            as_node = call.args.get("as_node")
            client.threads.update_state(
                remote,
                _plain(_message_tuples(values)),
                as_node=as_node,
                checkpoint_id=checkpoint_id,
            )
            continue
        value = call.args.get("input")
        request: dict[str, Any] = {
            "config": sent_config,
            "if_not_exists": "create",
            "interrupt_before": call.args.get("interrupt_before"),
            "interrupt_after": call.args.get("interrupt_after"),
            "durability": call.args.get("durability"),
            "checkpoint_id": checkpoint_id,
        }
        if call.args.get("context") is not None:
            request["context"] = _plain(call.args["context"])
        if type(value).__name__ == "Command":
            resume = value.resume
            if resume is not None:
                resume = _resume(client, remote, local[key]["interrupts"], resume)
            request["command"] = {
                k: _plain(v)
                for k, v in (
                    ("resume", resume),
                    ("update", _message_tuples(value.update)),
                    ("goto", value.goto or None),
                )
                if v is not None
            }
        else:
            request["input"] = _plain(_message_tuples(value))
        # A run that fails on the server failed in-process too (the program caught it).
        client.runs.wait(
            remote,
            assistant,
            raise_error=False,
            **{k: v for k, v in request.items() if v is not None},
        )
    out = {}
    for key, remote in threads.items():
        state = client.threads.get_state(remote)
        history = client.threads.get_history(remote, limit=10_000)
        out[key] = {
            "state": state["values"],
            "history": [_snapshot_record(s["values"], s["next"], s["metadata"]) for s in history],
        }
    return out


def _map_checkpoint(client: Any, thread_id: str, local_ids: list[str], checkpoint_id: str) -> str:
    """The server's checkpoint made at the same position as the local `checkpoint_id`."""
    position = local_ids.index(checkpoint_id)
    history = client.threads.get_history(thread_id, limit=10_000)
    remote_ids = sorted(s["checkpoint"]["checkpoint_id"] for s in history)
    return remote_ids[position]


def compare(client: Any, name: str) -> str | None:
    """None when program `name` served through `client` matches its in-process run."""
    rec, _ = record_program(name)
    if not rec.calls:
        return "no call on a thread with a checkpointer"
    expected = {
        key: {"state": v["state"], "history": v["history"]} for key, v in local_threads(rec).items()
    }
    actual = replay(client, name, rec)
    for key in expected:
        want = compat.normalise(expected[key])
        got = compat.normalise(actual.get(key))
        if want != got:
            return f"graph {key[0]} thread {key[1]}: " + (
                compat.first_difference(want, got) or "differs"
            )
    return None


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - a command for people
    import tempfile

    sys.path.insert(0, str(ROOT / "tests" / "server"))
    from langgraph_sdk import get_sync_client
    from server_process import Server, dev_args

    names = list(argv if argv else sys.argv[1:]) or served_programs()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = write_config(folder, names)
        env = {"FOLDGRAPH_SERVED_COMPAT": str(folder / "served_names.json")}
        server = Server([*dev_args(folder / "db.sqlite", config), "--alias-langgraph"], env=env)
        server.start(timeout=120)
        try:
            client = get_sync_client(url=server.url, api_key=None)
            failures = 0
            for name in names:
                try:
                    problem = compare(client, name)
                except Exception as err:
                    problem = f"{type(err).__name__}: {err}"
                failures += problem is not None
                print(f"{'match ' if problem is None else 'DIFFER'}  {name}  {problem or ''}")
        finally:
            server.stop()
    print(f"{len(names) - failures} of {len(names)} programs match")
    return 1 if failures else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
