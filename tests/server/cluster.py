"""A deployment on this machine: `foldgraph serve` API and worker processes sharing one
PostgreSQL database (and a Redis server), behind a small TCP load balancer.

Everything listens on 127.0.0.1 (PostgreSQL on a unix socket), on free ports; every
process started here is stopped by its own pid, whatever happened. Each test gets a
fresh database on the cluster `.ci/with_postgres.sh` started (`FOLDGRAPH_PG_DSN`)
and the Redis server `.ci/with_redis.sh` started (`FOLDGRAPH_REDIS_URL`); a test that
restarts PostgreSQL starts a private cluster of its own (`PrivatePostgres`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pathlib
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections.abc import Iterator

import httpx
import pytest

PROJECT = pathlib.Path(__file__).parent / "scale_project" / "langgraph.json"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _missing(what: str) -> None:
    reason = f"NO {what}: run the tests with `make test` (it starts one)."
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def database_url_from(dsn: str, name: str) -> str:
    """A `postgresql://` URL for database `name` on the server `dsn` points at."""
    from psycopg.conninfo import conninfo_to_dict

    parts = conninfo_to_dict(dsn)
    query = {k: str(v) for k, v in parts.items() if k in ("host", "port", "password")}
    user = urllib.parse.quote(str(parts.get("user", "")))
    return f"postgresql://{user}@/{name}?{urllib.parse.urlencode(query)}"


@contextlib.contextmanager
def fresh_database(dsn: str | None = None) -> Iterator[str]:
    """A new empty database on the test cluster (its URL), dropped afterwards."""
    dsn = dsn or os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        _missing("POSTGRESQL SERVER (FOLDGRAPH_PG_DSN is not set)")
    import psycopg

    name = f"fg_scale_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield database_url_from(dsn, name)
    finally:
        with contextlib.suppress(Exception), psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


_redis_dbs = itertools.count(1)


def redis_url() -> str:
    """The test Redis server, on a database number of its own for each call (1..15)."""
    base = os.environ.get("FOLDGRAPH_REDIS_URL")
    if not base:
        _missing("REDIS SERVER (FOLDGRAPH_REDIS_URL is not set)")
    number = next(_redis_dbs) % 15 + 1
    url = f"{base.rstrip('/')}/{number}"
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
    return url


class Process:
    """One `foldgraph serve` process; its output goes to a log file."""

    def __init__(
        self,
        role: str,
        database_url: str,
        *,
        redis: str | None = None,
        jobs: int = 10,
        lease: float = 20.0,
        extra: list[str] | None = None,
        log_dir: pathlib.Path,
        project: pathlib.Path = PROJECT,
    ) -> None:
        self.role = role
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [
            "serve",
            "--config",
            str(project),
            "--database-url",
            database_url,
            "--role",
            role,
            "--jobs",
            str(jobs),
            "--lease-seconds",
            str(lease),
            "--port",
            str(self.port),
            *(["--redis-url", redis] if redis else []),
            *(extra or []),
        ]
        self.log_path = log_dir / f"{role}-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "foldgraph.cli", *self.args],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        return self

    def wait_ready(self, timeout: float = 60.0) -> Process:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.role} exited with {self.proc.returncode}:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/ok", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"{self.role} did not answer /ok within {timeout}s:\n{self.log()}")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL, as a machine dying would."""
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(timeout=10)

    def stop(self, timeout: float = 20.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-6000:]
        except OSError:
            return ""


class Balancer:
    """A TCP load balancer on 127.0.0.1: each new connection goes to the next live backend.

    A backend that refuses the connection is skipped, as a real balancer's health check
    would; a connection whose backend dies is cut, and the client reconnects.
    """

    def __init__(self, backends: list[Process]) -> None:
        self.backends = backends
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._turn = itertools.count()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._server.settimeout(0.2)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        #: The backend each connection went to, in the order they came.
        self.assigned: list[Process] = []

    def start(self) -> Balancer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)
        self._server.close()
        with self._lock:
            for sock in list(self._open):
                with contextlib.suppress(OSError):
                    sock.close()

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _connect(self) -> socket.socket | None:
        n = len(self.backends)
        start = next(self._turn)
        for i in range(n):
            backend = self.backends[(start + i) % n]
            if not backend.alive:
                continue
            with contextlib.suppress(OSError):
                sock = socket.create_connection(("127.0.0.1", backend.port), timeout=2)
                with self._lock:
                    self.assigned.append(backend)
                return sock
        return None

    def _serve(self, client: socket.socket) -> None:
        upstream = self._connect()
        if upstream is None:
            client.close()
            return
        with self._lock:
            self._open.update((client, upstream))
        upstream.settimeout(None)

        def pipe(src: socket.socket, dst: socket.socket) -> None:
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                for sock in (src, dst):
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)

        back = threading.Thread(target=pipe, args=(upstream, client), daemon=True)
        back.start()
        pipe(client, upstream)
        back.join(timeout=60)
        with self._lock:
            for sock in (client, upstream):
                self._open.discard(sock)
                sock.close()


class Cluster:
    """`apis` API instances and `workers` workers on one database, behind a `Balancer`."""

    def __init__(
        self,
        database_url: str,
        *,
        apis: int = 2,
        workers: int = 2,
        redis: str | None = None,
        jobs: int = 10,
        lease: float = 20.0,
        extra: list[str] | None = None,
        log_dir: pathlib.Path,
        project: pathlib.Path = PROJECT,
    ) -> None:
        self.database_url = database_url
        self.redis = redis
        self.jobs = jobs
        self.lease = lease
        self.extra = extra
        self.log_dir = log_dir
        self.project = project
        self.apis = [self._process("api") for _ in range(apis)]
        self.workers = [self._process("worker") for _ in range(workers)]
        self.balancer: Balancer | None = None

    def _process(self, role: str) -> Process:
        return Process(
            role,
            self.database_url,
            redis=self.redis,
            jobs=self.jobs,
            lease=self.lease,
            extra=self.extra,
            log_dir=self.log_dir,
            project=self.project,
        )

    def start(self) -> Cluster:
        everyone = [*self.apis, *self.workers]
        for process in everyone:  # all at once, on an empty database
            process.start()
        for process in everyone:
            process.wait_ready()
        self.balancer = Balancer(self.apis).start()
        return self

    def add_worker(self) -> Process:
        worker = self._process("worker").start().wait_ready()
        self.workers.append(worker)
        return worker

    def random_api(self) -> Process:
        return random.choice([a for a in self.apis if a.alive])

    def stop(self) -> None:
        if self.balancer is not None:
            self.balancer.stop()
        for process in [*self.apis, *self.workers]:
            process.stop()

    def logs(self) -> str:
        return "\n".join(f"== {p.role} {p.port}\n{p.log()}" for p in [*self.apis, *self.workers])


@contextlib.contextmanager
def cluster(database_url: str, log_dir: pathlib.Path, **kwargs) -> Iterator[Cluster]:
    """A started `Cluster`, stopped (every process by its pid) when the block ends."""
    made = Cluster(database_url, log_dir=log_dir, **kwargs)
    try:
        made.start()
        yield made
    except BaseException:
        print(made.logs(), file=sys.stderr)
        raise
    finally:
        made.stop()


def postgres_bindir() -> pathlib.Path | None:
    """Where `initdb` and `pg_ctl` are (the distribution's packages), or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return pathlib.Path(found).parent
    candidates = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return candidates[-1].parent if candidates else None


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (unix socket only), to stop and start at will."""

    def __init__(self) -> None:
        bindir = postgres_bindir()
        if bindir is None:
            _missing("POSTGRESQL SERVER BINARIES (initdb, pg_ctl)")
        self.bindir = bindir
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="fg-pg-private-"))
        self.port = free_port()
        self.runas: list[str] = []
        if os.getuid() == 0:
            os.chown(self.dir, _postgres_uid(), -1)
            self.runas = ["runuser", "-u", "postgres", "--"]
        self.dsn = f"host={self.dir} port={self.port} user=postgres dbname=postgres"

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run(
            [*self.runas, str(self.bindir / args[0]), *args[1:]],
            check=True,
            capture_output=True,
            timeout=timeout,
        )

    def init(self) -> PrivatePostgres:
        data = str(self.dir / "data")
        self._run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync")
        return self.start()

    def start(self) -> PrivatePostgres:
        options = (
            f"-k {self.dir} -p {self.port} -c listen_addresses='' -c fsync=off"
            " -c max_connections=200"
        )
        self._run(
            "pg_ctl", "-D", str(self.dir / "data"), "-l", str(self.dir / "server.log"),
            "-w", "-t", "60", "start", "-o", options,
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    """A Redis server of the test's own on a free port of 127.0.0.1 (no persistence: a
    restart empties it), to stop and start at will; stopped by its pid."""

    def __init__(self, log_dir: pathlib.Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            _missing("REDIS SERVER BINARY (redis-server)")
        self.binary = binary
        self.dir = log_dir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            [
                self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.dir),
                "--logfile", str(self.dir / f"redis-{self.port}.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        try:
            wait_for(lambda: _pings(client), 20, "redis-server answering")
        finally:
            client.close()
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def client(self):
        import redis

        return redis.Redis.from_url(self.url)


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except Exception:
        return False


def _postgres_uid() -> int:
    import pwd

    try:
        return pwd.getpwnam("postgres").pw_uid
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "postgres"], check=True, timeout=30
        )
        return pwd.getpwnam("postgres").pw_uid


# -- what the tests check ------------------------------------------------------------------


def sdk(target) -> object:
    """A sync SDK client of a process or balancer (anything with a `url`)."""
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=target.url, api_key=None, timeout=60)


def wait_for(predicate, timeout: float, what: str, every: float = 0.05):
    """Poll `predicate` until it is true (its value), failing after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout}s"
        time.sleep(every)


def db_rows(url: str, sql: str, params=()) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchall()


def check_thread(client, thread_id: str, runs: int, nodes: list[str]) -> None:
    """The thread shows each run's steps once, in enqueue order, and its history is one
    chain with every superstep once, in order (no branch, nothing repeated)."""
    state = client.threads.get_state(thread_id)
    assert state["values"]["log"] == [f"{r}:{n}" for r in range(runs) for n in nodes]
    history = client.threads.get_history(thread_id, limit=1000)
    steps = [h["metadata"]["step"] for h in history]
    per_run = len(nodes) + 2  # the input checkpoint, __start__'s step, one per node
    assert steps == list(range(runs * per_run - 2, -2, -1))
    for newer, older in itertools.pairwise(history):
        assert newer["parent_checkpoint"]["checkpoint_id"] == older["checkpoint"]["checkpoint_id"]
