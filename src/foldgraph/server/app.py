"""The ASGI application: routes, error handlers, and a lifespan that owns the backend.

`create_app` returns a Starlette app; start-up opens storage, the saver and the
store (SQLite file by default, PostgreSQL for a `postgresql://` URL, memory on
request), loads the graphs, and starts the executor and the cron scheduler;
shut-down stops them and closes everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pathlib
from collections.abc import AsyncIterator
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from foldgraph.server.config import ServerConfig
from foldgraph.server.http import HTTPError, error_response

logger = logging.getLogger("foldgraph.server")


@attrs.frozen
class ServeOptions:
    """How to run: where the data lives, how many runs execute at once, and (with
    PostgreSQL, see `scaling`) the process's role, its signals and its leases."""

    database_url: str | None = None
    in_memory: bool = False
    jobs: int = 10
    role: str = "both"
    redis_url: str | None = None
    lease_seconds: float = 20.0
    max_attempts: int = 3
    drain_seconds: float = 30.0
    host: str = "127.0.0.1"
    ui: bool = True


def default_database(config: ServerConfig) -> str:
    """The SQLite file a project's threads live in when no `--database-url` is given."""
    folder = pathlib.Path(config.root) / ".foldgraph"
    folder.mkdir(exist_ok=True)
    return str(folder / "server.sqlite")


@contextlib.asynccontextmanager
async def open_backend(
    config: ServerConfig, options: ServeOptions
) -> AsyncIterator[tuple[Any, Any, Any]]:
    """`(storage, checkpointer, store)` over the database the options name."""
    store_conf = dict(config.store or {})
    index = _index_config(store_conf.get("index"), config)
    ttl = store_conf.get("ttl")
    url = options.database_url
    if options.in_memory:
        from foldgraph.checkpoint.memory import InMemorySaver
        from foldgraph.server.storage.sqlite import SqliteStorage
        from foldgraph.store.memory import InMemoryStore
        from foldgraph.store.sqlite.aio import AsyncSqliteStore

        storage = SqliteStorage(":memory:")
        await storage.setup()
        try:
            if ttl:  # InMemoryStore has no TTLs; an in-memory SQLite store does
                async with AsyncSqliteStore.from_conn_string(
                    ":memory:", index=index, ttl=ttl
                ) as st:
                    await st.setup()
                    yield storage, InMemorySaver(), st
            else:
                yield storage, InMemorySaver(), InMemoryStore(index=index)
        finally:
            await storage.close()
        return
    if url and url.startswith(("postgres://", "postgresql://")):
        from foldgraph.checkpoint.postgres.aio import AsyncPostgresSaver
        from foldgraph.server.storage.pools import sync_pool
        from foldgraph.server.storage.postgres import PostgresStorage
        from foldgraph.store.postgres.aio import AsyncPostgresStore

        storage = PostgresStorage(url)
        await storage.open()
        await storage.setup()
        # Pools that replace a connection the database dropped (a restart) when it is
        # taken (`pools`); the saver's is as large as the number of runs at once.
        saver_pool = await asyncio.to_thread(sync_pool, url, max(4, options.jobs))
        store_pool = await asyncio.to_thread(sync_pool, url, 4)
        saver = AsyncPostgresSaver(saver_pool)
        store = AsyncPostgresStore(store_pool, index=index, ttl=ttl)
        try:
            await saver.setup()
            await store.setup()
            yield storage, saver, store
        finally:
            with contextlib.suppress(Exception):
                await store.stop_ttl_sweeper()
            await asyncio.to_thread(saver_pool.close)
            await asyncio.to_thread(store_pool.close)
            await storage.close()
        return
    path = url.removeprefix("sqlite:///").removeprefix("sqlite://") if url else None
    path = path or default_database(config)
    from foldgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from foldgraph.server.storage.sqlite import SqliteStorage
    from foldgraph.store.sqlite.aio import AsyncSqliteStore

    storage = SqliteStorage(path)
    await storage.setup()
    async with (
        AsyncSqliteSaver.from_conn_string(path) as saver,
        AsyncSqliteStore.from_conn_string(path, index=index, ttl=ttl) as store,
    ):
        await saver.setup()
        await store.setup()
        try:
            yield storage, saver, store
        finally:
            await storage.close()


def _index_config(index: Any, config: ServerConfig) -> Any:
    """`store.index` of langgraph.json, with `embed` given as `./file.py:name` loaded."""
    if not index:
        return None
    index = dict(index)
    embed = index.get("embed")
    if isinstance(embed, str) and ":" in embed and embed.split(":")[0].endswith(".py"):
        from foldgraph.server.config import GraphSpec
        from foldgraph.server.graphs import _import_attr

        index["embed"] = _import_attr(GraphSpec("store.index.embed", embed), config.root)
    elif isinstance(embed, str):
        try:
            from langchain.embeddings import init_embeddings  # type: ignore[import-not-found]
        except ImportError:
            raise ValueError(
                f"store.index.embed {embed!r} names a provider model: install `langchain` "
                "for init_embeddings, or give './file.py:embeddings'"
            ) from None
        index["embed"] = init_embeddings(embed)
    return index


def create_app(config: ServerConfig, options: ServeOptions | None = None) -> Starlette:
    """The server for `config`'s graphs, as an ASGI app (run it with uvicorn).

    The graphs are imported here, so a graph that cannot load fails before serving.
    """
    from foldgraph.server.checkpointer import checkpointer_settings
    from foldgraph.server.graphs import load_graphs
    from foldgraph.server.ttl import ThreadTTLPolicy

    options = options or ServeOptions()
    loaded = load_graphs(config)
    saver_settings = checkpointer_settings(config)
    ttl_policy = ThreadTTLPolicy.from_config(
        (config.checkpointer or {}).get("ttl"), "langgraph.json"
    )
    viewer = _viewer(config, options, loaded)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        from foldgraph.server.checkpointer import open_checkpointer
        from foldgraph.server.config import ConfigError
        from foldgraph.server.crons import CronScheduler
        from foldgraph.server.graphs import GraphRegistry
        from foldgraph.server.scaling import open_queue, sweeping
        from foldgraph.server.service import KEEP_LATEST_NEEDS_PRUNE, Service
        from foldgraph.server.ttl import ThreadSweeper
        from foldgraph.server.worker import Executor

        async with (
            open_backend(config, options) as (storage, built_in, store),
            open_checkpointer(saver_settings, built_in) as saver,
            open_queue(storage, options) as queue,
            sweeping(storage, queue),
        ):
            graphs = GraphRegistry.from_config(config, saver, store, loaded)
            executor = Executor(
                storage,
                queue,
                graphs,
                jobs=options.jobs,
                checkpointer=saver,
                drain_seconds=options.drain_seconds,
            )
            service = Service(
                config=config,
                storage=storage,
                queue=queue,
                graphs=graphs,
                executor=executor,
                checkpointer=saver,
                store=store,
                auth=app.state.auth,
                ttl=ttl_policy,
            )
            if ttl_policy.strategy == "keep_latest" and not service.can_prune():
                raise ConfigError(f"langgraph.json: checkpointer.ttl: {KEEP_LATEST_NEEDS_PRUNE}")
            app.state.service = service
            await service.ensure_system_assistants()
            if viewer is not None:
                try:
                    viewer.open()
                except Exception:  # the API serves on; /ui says it is not there
                    logger.exception("the viewer at /ui could not open %s", viewer.target)
            if options.role != "api":
                await executor.start()
            crons = CronScheduler(service)
            await crons.start()
            sweeper = ThreadSweeper(service, ttl_policy)
            await sweeper.start()
            if ((config.store or {}).get("ttl") or {}).get("sweep_interval_minutes"):
                await store.start_ttl_sweeper()
            try:
                yield
            finally:
                await sweeper.stop()
                await crons.stop()
                await executor.stop()
                with contextlib.suppress(Exception):
                    await store.stop_ttl_sweeper()
                if viewer is not None:
                    viewer.close()

    from foldgraph.server.auth import load_auth

    if options.role == "worker":
        from foldgraph.server.scaling import health_routes

        routes, middleware = health_routes(), []
    else:
        routes, middleware = _routes(config), _middleware(config)
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPError: _http_error, Exception: _server_error},
    )
    app.state.auth = load_auth(config)
    app.state.viewer = viewer
    if viewer is not None:
        from starlette.routing import Mount

        app.router.routes.append(Mount("/ui", app=viewer))
    if options.role != "worker":
        _mount_custom_app(app, config)
    return app


def _viewer(config: ServerConfig, options: ServeOptions, loaded: dict[str, Any]) -> Any:
    """The viewer to mount at /ui (see `server.viewer`), or None (logged, with why)."""
    from foldgraph.pregel import Pregel
    from foldgraph.server.viewer import ViewerMount, database_target, why_not_mounted

    reason = why_not_mounted(config, options)
    if reason is not None:
        logger.info("the viewer is not served at /ui: %s", reason)
        return None
    target = database_target(options.database_url, default_database(config))
    drawable = {name: g for name, g in loaded.items() if isinstance(g, Pregel)}
    return ViewerMount(target, drawable)


def _routes(config: ServerConfig) -> list[Any]:
    from foldgraph.server.routes import assistants, crons, events, meta, runs, store, threads

    http = config.http or {}
    table: list[Any] = []
    if not http.get("disable_meta"):
        table += meta.routes
    if not http.get("disable_assistants"):
        table += assistants.routes
    if not http.get("disable_runs"):
        table += runs.routes
    if not http.get("disable_threads"):
        table += threads.routes + events.routes
    if not http.get("disable_store"):
        table += store.routes
    table += crons.routes
    return table


def _middleware(config: ServerConfig) -> list[Middleware]:
    middleware = []
    cors = (config.http or {}).get("cors")
    if cors:
        from starlette.middleware.cors import CORSMiddleware

        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=cors.get("allow_origins", []),
                allow_methods=cors.get("allow_methods", ["*"]),
                allow_headers=cors.get("allow_headers", ["*"]),
                allow_credentials=cors.get("allow_credentials", False),
                expose_headers=cors.get("expose_headers", []),
                max_age=cors.get("max_age", 600),
            )
        )
    from foldgraph.server.auth import AuthMiddleware

    middleware.append(Middleware(AuthMiddleware))
    return middleware


def _mount_custom_app(app: Starlette, config: ServerConfig) -> None:
    """`http.app` of langgraph.json: the user's ASGI app, its routes served beside the API."""
    target = (config.http or {}).get("app")
    if not target:
        return
    from foldgraph.server.config import GraphSpec
    from foldgraph.server.graphs import _import_attr

    custom = _import_attr(GraphSpec("http.app", target), config.root)
    custom_routes = getattr(custom, "routes", None)
    if custom_routes is not None:
        # The user's routes win over ours where both match, as with LangGraph's server.
        app.router.routes[:0] = list(custom_routes)
    else:
        from starlette.routing import Mount

        app.router.routes.append(Mount("/", app=custom))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPError)
    return error_response(exc.status, exc.detail, exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    logger.exception("%s %s failed", request.method, request.url.path, exc_info=exc)
    return error_response(500, f"{type(exc).__name__}: {exc}")
