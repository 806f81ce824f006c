"""Example 8: `foldgraph dev` serves examples/08_server on a free 127.0.0.1 port and the
example's client (the official `langgraph-sdk`, then RemoteGraph) talks to it. The server
is a subprocess stopped by its pid, even when the test fails."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.foldgraph_only("LangGraph: has no foldgraph dev or examples")

PROJECT = Path(__file__).resolve().parents[2] / "examples" / "08_server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.timeout(180)
def test_08_server_is_called_with_the_sdk_client(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "foldgraph"),
                "dev",
                "--config",
                str(PROJECT / "langgraph.json"),
                "--port",
                url.rsplit(":", 1)[1],
                "--database-url",
                str(tmp_path / "server.sqlite"),  # not the project folder's .foldgraph/
                "--no-browser",
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                if httpx.get(f"{url}/ok", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "no /ok within 60 s:\n" + log.read_text()
            time.sleep(0.1)

        client = subprocess.run(
            [sys.executable, str(PROJECT / "client.py"), url],
            capture_output=True,
            text=True,
            timeout=100,
        )
        assert client.returncode == 0, client.stderr
        out = client.stdout.splitlines()
        thread = re.fullmatch(rf"Read it back: foldgraph history --url {url} (\S+)", out[-1])
        assert thread, out
        assert out[:-1] == [
            f"1. {url} serves: ['chat']",
            "2. Stream a reply on a new thread (stream_mode='messages-tuple'):",
            "   LangGraph's API on a pure fold over persistent state.",
            out[3],
            "3. A second question on the same thread (runs.wait):",
            "   You asked what foldgraph is.",
            "   the thread holds 4 messages",
            "4. Its history: 6 checkpoints, newest next=[]",
            "5. RemoteGraph('chat').invoke(...): "
            "LangGraph's API on a pure fold over persistent state.",
        ]
        # The reply streamed as several token events, not one message.
        tokens = re.fullmatch(r"   \((\d+) token events\)", out[3])
        assert tokens and int(tokens[1]) > 5, out[3]

        # The thread is kept by the server, in its SQLite file: the printed command reads it.
        history = subprocess.run(
            [
                str(Path(sys.executable).parent / "foldgraph"),
                "history",
                "--url",
                url,
                thread[1],
                "--json",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert history.returncode == 0, history.stderr
        assert history.stdout.count('"checkpoint_id"') == 6
        # The header's `foldgraph threads --url`: a server does not count checkpoints,
        # and the table says so with a dash rather than "None".
        listed = subprocess.run(
            [str(Path(sys.executable).parent / "foldgraph"), "threads", "--url", url],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "COLUMNS": "200"},
        )
        assert listed.returncode == 0, listed.stderr
        row = next(line for line in listed.stdout.splitlines() if thread[1] in line)
        assert [cell.strip() for cell in row.split("│")[1:4]] == [thread[1], "done", "-"]
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
