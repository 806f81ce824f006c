"""A `foldgraph` server in a subprocess on a free 127.0.0.1 port, stopped by its pid."""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import httpx

PROJECT = pathlib.Path(__file__).parent / "project"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A running `foldgraph` server process and its URL."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = args
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = b""

    def start(self, timeout: float = 30.0) -> Server:
        cmd = [sys.executable, "-m", "foldgraph.cli", *self.args, "--port", str(self.port)]
        env = {**os.environ, **(self.env or {})}
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read() if self.proc.stdout else b""
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{out.decode()}")
            try:
                if httpx.get(f"{self.url}/ok", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not answer /ok within {timeout}s:\n{self.log.decode()}")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        if self.proc.stdout:
            self.log = self.proc.stdout.read()


def dev_args(db: pathlib.Path, config: pathlib.Path = PROJECT / "langgraph.json") -> list[str]:
    return ["dev", "--config", str(config), "--database-url", str(db), "--no-browser"]
