"""Shared bits of the checkpoint behaviour tests.

Tests marked `foldgraph_only` pin a deliberate difference from LangGraph (the
reason on each says what LangGraph does); they are left out when the suite is
run against LangGraph (`make test-on-langgraph`).
"""

# -- durable savers ------------------------------------------------------------------------
# The behaviour tests of the modules below run once per saver: each `InMemorySaver()` they
# build becomes, in turn, a `SqliteSaver` on a private in-memory database and a
# `PostgresSaver` on a private schema of the server named by FOLDGRAPH_PG_DSN (started by
# `make test` / `.ci/run`). Without a server the Postgres runs skip with the reason; under
# CI=true they fail instead.
import itertools
import os

import pytest

_DURABLE_MODULES = frozenset(
    {
        "test_async_runs",
        "test_boundary_history",
        "test_exit_durability",
        "test_interrupt_stream",
        "test_interrupts",
        "test_message_ids",
        "test_stream_v2",
        "test_subgraphs",
        "test_threads",
        "test_time_travel",
        "test_time_travel_parity",
    }
)
SAVER_KINDS = ("memory", "sqlite", "postgres")
# The expected values are LangGraph's with its InMemorySaver (the "memory" run checks
# that claim on LangGraph); the other runs check foldgraph's own savers against them.
_OWN_SAVER = pytest.mark.foldgraph_only(
    "foldgraph's SqliteSaver/PostgresSaver in place of InMemorySaver, built foldgraph's way"
)
_schemas = itertools.count()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if module in _DURABLE_MODULES and "saver_kind" in metafunc.fixturenames:
        kinds = [k if k == "memory" else pytest.param(k, marks=_OWN_SAVER) for k in SAVER_KINDS]
        metafunc.parametrize("saver_kind", kinds, indirect=True)


@pytest.fixture
def saver_kind(request: pytest.FixtureRequest) -> str:
    """Which saver stands in for `InMemorySaver` in this test ("memory" outside the list)."""
    return getattr(request, "param", "memory")


def postgres_dsn() -> str:
    """The test server's DSN; skips (or fails under CI) when there is none."""
    dsn = os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        reason = (
            "NO POSTGRESQL SERVER: FOLDGRAPH_PG_DSN is not set. Run the suite with `make test` "
            "(it starts a throwaway cluster) to run the PostgresSaver tests."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return dsn


def new_postgres_saver(dsn: str, opened: list) -> object:
    """A PostgresSaver on a schema of its own, so each saver starts empty."""
    import psycopg

    from foldgraph.checkpoint.postgres import PostgresSaver

    schema = f"fg_test_{os.getpid()}_{next(_schemas)}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    conn = psycopg.connect(dsn, autocommit=True, options=f"-c search_path={schema}")
    opened.append((conn, schema))
    saver = PostgresSaver(conn)
    saver.setup()
    return saver


@pytest.fixture(autouse=True)
def _durable_saver(
    saver_kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> object:
    if saver_kind == "memory":
        yield None
        return
    opened: list = []
    if saver_kind == "sqlite":
        from foldgraph.checkpoint.sqlite import SqliteSaver

        def make(*_: object, **kwargs: object) -> object:
            saver = SqliteSaver(":memory:", **kwargs)
            opened.append((saver.conn, None))
            return saver
    else:
        dsn = postgres_dsn()

        def make(*_: object, **kwargs: object) -> object:
            return new_postgres_saver(dsn, opened)

    module = request.module
    for name in ("InMemorySaver", "MemorySaver"):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, make)
    yield make
    for conn, schema in opened:
        conn.close()
        if schema is not None:
            import psycopg

            with psycopg.connect(dsn, autocommit=True) as admin:
                admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgres"])
def durable_saver(request: pytest.FixtureRequest, tmp_path: object) -> object:
    """`make(**kwargs)`: savers of one kind that share one database within the test."""
    opened: list = []
    if request.param == "sqlite":
        from foldgraph.checkpoint.sqlite import SqliteSaver

        path = str(tmp_path / "threads.db")  # type: ignore[operator]

        def make(**kwargs: object) -> object:
            saver = SqliteSaver(path, **kwargs)
            opened.append((saver.conn, None))
            return saver

        make.kind = "sqlite"  # type: ignore[attr-defined]
        make.path = path  # type: ignore[attr-defined]
        yield make
    else:
        import psycopg

        from foldgraph.checkpoint.postgres import PostgresSaver

        dsn = postgres_dsn()
        schema = f"fg_test_{os.getpid()}_{next(_schemas)}"
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA {schema}")

        def make(**kwargs: object) -> object:
            conn = psycopg.connect(dsn, autocommit=True, options=f"-c search_path={schema}")
            opened.append((conn, None))
            return PostgresSaver(conn, **kwargs)

        make.kind = "postgres"  # type: ignore[attr-defined]
        make.dsn = dsn  # type: ignore[attr-defined]
        make.schema = schema  # type: ignore[attr-defined]
        yield make
    for conn, _ in opened:
        conn.close()
    if request.param == "postgres":
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def pg_schema_dsn() -> object:
    """A DSN of the test server whose tables live in a private schema, dropped afterwards."""
    import psycopg

    server = postgres_dsn()
    schema = f"fg_test_{os.getpid()}_{next(_schemas)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    yield f"{server} options='-c search_path={schema}'"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
