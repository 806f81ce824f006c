"""deploy/: what can be checked without a container engine.

The compose file's commands must be ones `foldgraph serve` accepts (parsed by the real
command line, and checked by its option rules), agree on one database and one Redis,
give each role its part, and the Dockerfile must copy files that exist and start a
command the CLI accepts. (`docker compose config` and a build need an engine or the
compose plugin, which CI does not have.)
"""

from __future__ import annotations

import pathlib
import shlex

import yaml

from foldgraph.cli import build_parser
from foldgraph.cli._serving import _scale_options

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def serve_args(service: dict):
    args = build_parser().parse_args(service["command"])
    assert args.command == "serve"
    return args


def test_every_role_is_a_serve_command_the_cli_accepts() -> None:
    services = compose()["services"]
    api, worker = serve_args(services["api"]), serve_args(services["worker"])
    assert (api.role, worker.role) == ("api", "worker")
    for args in (api, worker):
        options = _scale_options(args)  # raises CommandError on a bad combination
        assert options["redis_url"] == "redis://redis:6379/0"
        assert args.database_url == "postgresql://foldgraph:foldgraph@postgres:5432/foldgraph"
        assert (args.host, args.port, args.config) == ("0.0.0.0", 8123, "/project/langgraph.json")
    assert worker.drain_seconds < int(services["worker"]["stop_grace_period"].rstrip("s"))
    assert services["api"]["deploy"]["replicas"] >= 2
    assert services["worker"]["deploy"]["replicas"] >= 2


def test_the_balancer_fronts_the_api_instances() -> None:
    services = compose()["services"]
    assert services["balancer"]["ports"] == ["127.0.0.1:8123:8123"]
    conf = (DEPLOY / "nginx.conf").read_text()
    assert "set $foldgraph_api http://api:8123;" in conf
    assert "proxy_buffering off;" in conf  # server-sent events pass at once
    mounted = {v.split(":")[0] for v in services["balancer"]["volumes"]}
    assert mounted == {"./nginx.conf"}


def test_the_image_copies_what_exists_and_starts_serve() -> None:
    lines = (DEPLOY / "Dockerfile").read_text().splitlines()
    copies = [shlex.split(line)[1:-1] for line in lines if line.startswith("COPY ")]
    assert copies, "the Dockerfile copies nothing"
    for sources in copies:
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
    entry = next(line for line in lines if line.startswith("ENTRYPOINT"))
    cmd = next(line for line in lines if line.startswith("CMD"))
    assert yaml.safe_load(entry.split(" ", 1)[1]) == ["foldgraph"]
    args = build_parser().parse_args(yaml.safe_load(cmd.split(" ", 1)[1]))
    assert (args.command, args.role, args.port) == ("serve", "both", 8123)
    project = compose()["x-foldgraph"]["volumes"][0].split(":")[0]
    assert (DEPLOY / project / "langgraph.json").is_file()


def test_the_example_project_loads() -> None:
    from foldgraph.server.config import load_config
    from foldgraph.server.graphs import load_graphs

    config = load_config(str(DEPLOY / "project" / "langgraph.json"))
    assert list(load_graphs(config)) == ["agent"]
