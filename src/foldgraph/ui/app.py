"""The viewer: a small Starlette app serving static pages and a JSON API over a `Source`.

>>> from foldgraph.ui import create_app
>>> app = create_app("threads.sqlite")                      # doctest: +SKIP
>>> app = create_app("threads.sqlite", graph=my_graph)      # fork, re-run, answer

`foldgraph ui PATH_OR_URL` runs it on 127.0.0.1; a server mounts it with
`Mount("/ui", app=create_app(...))`. Reads are GETs; the actions (fork,
replay, resume) are POSTs that must carry the session's token (handed to the
page inside its HTML, so another site's page cannot forge one), exist only
when a graph is given, and refuse foreign (LangGraph) databases. Requests
whose Host is not a loopback name are refused, so a DNS-rebinding page cannot
reach the API either. Runs started here execute in a background thread; the
page polls `/api/runs/{id}` to show their steps as they arrive.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import pathlib
import secrets
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

__all__ = ["create_app"]

STATIC = pathlib.Path(__file__).parent / "static"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")


class _Runs:
    """Runs started from the page: their steps so far, status and newest checkpoint."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs: dict[str, dict[str, Any]] = {}
        self.ids = itertools.count(1)

    def start(self, work: Any) -> str:
        run_id = str(next(self.ids))
        record: dict[str, Any] = {"id": run_id, "status": "running", "steps": [], "error": None}
        with self.lock:
            self.runs[run_id] = record

        def on_step(update: Any) -> None:
            with self.lock:
                record["steps"].append(update)

        def body() -> None:
            try:
                head = work(on_step)
                with self.lock:
                    record.update(status="done", checkpoint_id=head)
            except Exception as exc:  # reported to the page, which shows it
                with self.lock:
                    record.update(status="error", error=f"{type(exc).__name__}: {exc}")

        threading.Thread(target=body, name=f"foldgraph-ui-run-{run_id}", daemon=True).start()
        return run_id

    def get(self, run_id: str) -> dict[str, Any] | None:
        with self.lock:
            found = self.runs.get(run_id)
            return None if found is None else json.loads(json.dumps(found, default=str))


def create_app(
    target: str | pathlib.Path,
    *,
    graph: Any = None,
    graphs: Mapping[str, Any] | None = None,
    graph_name: str | None = None,
    read_only: bool = False,
    token: str | None = None,
    allowed_hosts: Sequence[str] = LOOPBACK,
) -> Any:
    """The viewer's ASGI app over `target` (a SQLite file or PostgreSQL URL).

    With `graph` (a compiled graph) the page can fork, re-run and answer
    interrupts on foldgraph databases; without it everything is read-only.
    A server with several graphs passes `graphs` (graph id -> graph) instead: a
    thread is acted on with the graph its newest checkpoint's `graph_id`
    metadata names (LangGraph's server records it), or the only one.
    `read_only=True` keeps the graphs for drawing only (a server mounting the
    viewer over its own database runs writes through its API instead).
    `token` fixes the session token (a random one by default).
    """
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from foldgraph.ui.source import NotFound, ReadError, open_source, teach_types

    text_target = str(target)
    source = open_source(text_target)
    session_token = token or secrets.token_urlsafe(24)
    foreign = not source.kind.startswith("foldgraph-")
    known = dict(graphs or {})
    if graph is not None:
        known.setdefault(graph_name or "graph", graph)
    teach_types(source, known.values())
    writable = bool(known) and not foreign and not read_only
    if writable:
        reason = None
    elif source.kind == "server":
        reason = "a server, read through its API"
    elif foreign:
        reason = f"a {source.kind} database: foreign databases are opened read-only"
    elif read_only:
        reason = "opened read-only"
    else:
        reason = "no graph given (--graph module:attr)"
    runs = _Runs()
    hosts = {h.lower() for h in allowed_hosts}

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def guarded(endpoint: Any) -> Any:
        def wrapped(request: Request) -> Response:
            host = request.headers.get("host", "").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if hosts and name not in hosts:
                return error(403, f"host {host!r} refused: the viewer answers loopback names only")
            if request.method == "POST":
                if not writable:
                    return error(403, f"read-only: {reason}")
                sent = request.headers.get("x-foldgraph-token", "")
                if not secrets.compare_digest(sent, session_token):
                    return error(403, "missing or wrong session token")
            try:
                return endpoint(request)
            except NotFound as exc:
                return error(404, str(exc))
            except ReadError as exc:
                return error(400, str(exc))
            except (ValueError, KeyError, TypeError) as exc:
                return error(400, f"{type(exc).__name__}: {exc}")

        return wrapped

    def index(request: Request) -> Response:
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        config = {
            "token": session_token,
            "kind": source.kind,
            "target": _display(text_target),
            "writable": writable,
            "reason": reason,
            "graph": ", ".join(known) or None,
        }
        blob = json.dumps(config).replace("<", "\\u003c")
        base = json.dumps(request.scope.get("root_path", "") + "/")
        page = page.replace("/*FOLDGRAPH_CONFIG*/{}", blob).replace('"/*BASE*/"', base)
        return HTMLResponse(page)

    def _int(request: Request, name: str, default: int, top: int = 500) -> int:
        raw = request.query_params.get(name)
        value = default if raw in (None, "") else int(raw)
        return max(0, min(value, top))

    def threads(request: Request) -> Response:
        q = request.query_params
        rows = source.threads(
            search=q.get("search") or None,
            status=q.get("status") or None,
            limit=_int(request, "limit", 50),
            offset=_int(request, "offset", 0, 10**9),
        )
        return JSONResponse([r.to_json() for r in rows])

    def history(request: Request) -> Response:
        q = request.query_params
        ns = q.get("ns")
        rows = source.history(
            request.path_params["thread_id"],
            before=q.get("before") or None,
            limit=_int(request, "limit", 50),
            ns=ns,
        )
        return JSONResponse([r.to_json() for r in rows])

    def checkpoint(request: Request) -> Response:
        cid = request.path_params["checkpoint_id"]
        view = source.checkpoint(
            request.path_params["thread_id"],
            None if cid == "latest" else cid,
            ns=request.query_params.get("ns"),
        )
        return JSONResponse(view.to_json())

    def diff(request: Request) -> Response:
        from foldgraph.ui.diff import diff_values

        q = request.query_params
        thread, other = q["thread"], q.get("other_thread") or q["thread"]
        a, b = source.values(thread, q["a"]), source.values(other, q["b"])
        body = {"thread_id": thread, "other_thread_id": other, "from": q["a"], "to": q["b"]}
        return JSONResponse({**body, **diff_values(a, b).to_json()})

    def graph_for(thread_id: str | None) -> Any:
        if not known:
            raise NotFound("no graph given: start the viewer with --graph module:attr")
        if len(known) == 1:
            return next(iter(known.values()))
        name = source.thread(thread_id).metadata.get("graph_id") if thread_id else None
        if name not in known:
            raise ReadError(
                f"thread {thread_id!r} names graph {name!r}; this viewer knows {sorted(known)}"
            )
        return known[name]

    def drawing(request: Request) -> Response:
        from foldgraph.ui.drawing import to_svg

        q = request.query_params
        drawn = graph_for(q.get("thread")).get_graph(xray=True)
        next_nodes: list[str] = []
        ran: list[str] = []
        if q.get("thread") and q.get("checkpoint"):
            view = source.checkpoint(q["thread"], q["checkpoint"], ns=q.get("ns"))
            prefix = view.row.checkpoint_ns.split(":")[0]
            next_nodes = _drawn_ids(drawn, view.row.next, prefix)
            ran = _drawn_ids(drawn, view.row.writes, prefix)
        svg = to_svg(drawn, next_nodes=next_nodes, ran_nodes=ran)
        return Response(svg, media_type="image/svg+xml")

    def _bound(thread_id: str, work: Any) -> Any:
        from foldgraph.ui.actions import bound_graph

        chosen = graph_for(thread_id)

        def run(on_step: Any) -> Any:
            with bound_graph(chosen, text_target) as live:
                return work(live, on_step)

        return run

    def _body(request: Request) -> Any:
        import anyio.from_thread

        raw = anyio.from_thread.run(request.body)
        return json.loads(raw or b"{}")

    def fork_action(request: Request) -> Response:
        from foldgraph.ui.actions import bound_graph, fork

        body = _body(request)
        thread_id = request.path_params["thread_id"]
        with bound_graph(graph_for(thread_id), text_target) as live:
            made = fork(
                live,
                thread_id,
                body["checkpoint_id"],
                body["values"],
                as_node=body.get("as_node") or None,
            )
        return JSONResponse({"checkpoint_id": made, "parent_checkpoint_id": body["checkpoint_id"]})

    def replay_action(request: Request) -> Response:
        from foldgraph.ui.actions import replay

        body = _body(request)
        thread_id = request.path_params["thread_id"]
        run_id = runs.start(
            _bound(thread_id, lambda g, on: replay(g, thread_id, body["checkpoint_id"], on_step=on))
        )
        return JSONResponse({"run_id": run_id})

    def resume_action(request: Request) -> Response:
        from foldgraph.ui.actions import resume

        body = _body(request)
        thread_id = request.path_params["thread_id"]
        run_id = runs.start(
            _bound(
                thread_id,
                lambda g, on: resume(
                    g,
                    thread_id,
                    body.get("value"),
                    interrupt_id=body.get("interrupt_id") or None,
                    on_step=on,
                ),
            )
        )
        return JSONResponse({"run_id": run_id})

    def run_status(request: Request) -> Response:
        found = runs.get(request.path_params["run_id"])
        return error(404, "no such run") if found is None else JSONResponse(found)

    routes = [
        Route("/", guarded(index)),
        Route("/api/threads", guarded(threads)),
        Route("/api/threads/{thread_id}/history", guarded(history)),
        Route("/api/threads/{thread_id}/checkpoints/{checkpoint_id}", guarded(checkpoint)),
        Route("/api/diff", guarded(diff)),
        Route("/api/graph.svg", guarded(drawing)),
        Route("/api/threads/{thread_id}/fork", guarded(fork_action), methods=["POST"]),
        Route("/api/threads/{thread_id}/replay", guarded(replay_action), methods=["POST"]),
        Route("/api/threads/{thread_id}/resume", guarded(resume_action), methods=["POST"]),
        Route("/api/runs/{run_id}", guarded(run_status)),
        Mount("/static", app=StaticFiles(directory=STATIC)),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        try:
            yield
        finally:
            source.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.source = source
    app.state.token = session_token
    app.state.writable = writable
    return app


def _drawn_ids(drawn: Any, names: Sequence[str], prefix: str) -> list[str]:
    """The drawing's node ids for `names` of a graph at namespace `prefix`: a subgraph
    drawn inline (xray) stands for its node by its own nodes `node:inner`."""
    ids = list(drawn.nodes)
    out = []
    for name in names:
        full = f"{prefix}:{name}" if prefix else name
        if full in drawn.nodes:
            out.append(full)
        else:
            out.extend(i for i in ids if i.startswith(full + ":"))
    return out


def _display(target: str) -> str:
    import re

    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", target)
