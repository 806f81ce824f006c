"""Reading a project's `langgraph.json`, as LangGraph's CLI reads it.

A project written for `langgraph dev` must start unchanged under `foldgraph dev`,
so the file's keys mean what they mean there. Keys that only shape LangGraph's
Docker images are accepted and unused; keys nobody knows are reported (a typo in
`graphs` or `auth` must not pass silently), and so are known keys foldgraph does
not implement.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
from collections.abc import Mapping
from typing import Any

import attrs

DEFAULT_CONFIG = "langgraph.json"

# Keys that only describe how LangGraph builds a container image: meaningless here.
_IMAGE_KEYS = frozenset(
    {
        "python_version",
        "node_version",
        "pip_config_file",
        "pip_installer",
        "dockerfile_lines",
        "image_distro",
        "base_image",
        "api_version",
        "keep_pkg_tools",
        "$schema",
    }
)
_SERVED_KEYS = frozenset(
    {"dependencies", "graphs", "env", "store", "checkpointer", "auth", "http", "ui", "webhooks"}
)
_UNSUPPORTED_KEYS = frozenset({"encryption", "ui_config"})
_HTTP_KEYS = frozenset(
    {
        "app",
        "cors",
        "disable_assistants",
        "disable_threads",
        "disable_runs",
        "disable_store",
        "disable_meta",
        "disable_ui",
        "disable_mcp",
        "disable_a2a",
        "disable_webhooks",
        "configurable_headers",
        "logging_headers",
        "mount_prefix",
        "enable_custom_route_auth",
        "middleware_order",
    }
)
_AUTH_KEYS = frozenset({"path", "disable_studio_auth", "openapi", "cache"})
_CHECKPOINTER_KEYS = frozenset({"path", "ttl", "serde"})
_TTL_KEYS = frozenset({"strategy", "default_ttl", "sweep_interval_minutes", "sweep_limit"})
_SERDE_KEYS = frozenset({"allowed_json_modules", "allowed_msgpack_modules", "pickle_fallback"})


class ConfigError(ValueError):
    """`langgraph.json` cannot be served as written; the message says where and how to fix it."""


@attrs.frozen
class GraphSpec:
    """One entry of `graphs`: a name and where its graph is (`./file.py:attr`, `pkg.mod:attr`)."""

    graph_id: str
    path: str
    description: str | None = None


@attrs.frozen
class ServerConfig:
    """What `langgraph.json` asks of the server, with paths resolved against its folder."""

    root: pathlib.Path
    graphs: tuple[GraphSpec, ...]
    dependencies: tuple[pathlib.Path, ...] = ()
    env: Mapping[str, str] = attrs.field(factory=dict)
    store: Mapping[str, Any] = attrs.field(factory=dict)
    checkpointer: Mapping[str, Any] = attrs.field(factory=dict)
    auth: Mapping[str, Any] = attrs.field(factory=dict)
    http: Mapping[str, Any] = attrs.field(factory=dict)
    warnings: tuple[str, ...] = ()


def load_config(path: str | os.PathLike[str]) -> ServerConfig:
    """Read and check `langgraph.json` at `path`; raises `ConfigError` naming the problem."""
    file = pathlib.Path(path)
    if not file.is_file():
        raise ConfigError(
            f"no config file at {str(file)!r}: create a langgraph.json there "
            '(e.g. {"graphs": {"agent": "./agent.py:graph"}}) or pass --config PATH'
        )
    try:
        raw = json.loads(file.read_text())
    except json.JSONDecodeError as err:
        raise ConfigError(f"{file} is not valid JSON: {err}") from None
    return parse_config(raw, file.resolve().parent, source=str(file))


def parse_config(raw: Any, root: pathlib.Path, *, source: str = DEFAULT_CONFIG) -> ServerConfig:
    """A `ServerConfig` from the decoded JSON of a config file whose folder is `root`."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{source} must hold a JSON object, not {type(raw).__name__}")
    warnings: list[str] = []
    for key in raw:
        if key in _UNSUPPORTED_KEYS:
            warnings.append(f"{source}: {key!r} is not supported by foldgraph and is ignored")
        elif key not in _SERVED_KEYS and key not in _IMAGE_KEYS:
            known = ", ".join(sorted(_SERVED_KEYS))
            warnings.append(f"{source}: unknown key {key!r} is ignored (known keys: {known})")
    graphs = _graphs(raw.get("graphs"), source)
    deps = _dependencies(raw.get("dependencies", []), root, source)
    env = _env(raw.get("env", {}), root, source)
    http = _section(raw, "http", source)
    for key in http:
        if key not in _HTTP_KEYS:
            warnings.append(f"{source}: unknown key 'http.{key}' is ignored")
        elif key in {"disable_mcp", "disable_a2a", "disable_webhooks", "mount_prefix"}:
            warnings.append(f"{source}: 'http.{key}' is not supported by foldgraph and is ignored")
    auth = _section(raw, "auth", source)
    for key in auth:
        if key not in _AUTH_KEYS:
            warnings.append(f"{source}: unknown key 'auth.{key}' is ignored")
    checkpointer = _section(raw, "checkpointer", source)
    for key, value in checkpointer.items():
        if key not in _CHECKPOINTER_KEYS:
            warnings.append(f"{source}: unknown key 'checkpointer.{key}' is ignored")
        elif key == "path" and not (isinstance(value, str) and ":" in value):
            raise ConfigError(
                f"{source}: checkpointer.path must be './file.py:name' or 'module:name' naming "
                f"an async context manager that yields a checkpointer, got {value!r}"
            )
        elif key in ("ttl", "serde") and value is not None and not isinstance(value, dict):
            raise ConfigError(f"{source}: checkpointer.{key} must be an object")
    for key in checkpointer.get("ttl") or {}:
        if key not in _TTL_KEYS:
            warnings.append(f"{source}: unknown key 'checkpointer.ttl.{key}' is ignored")
    for key in checkpointer.get("serde") or {}:
        if key not in _SERDE_KEYS:
            warnings.append(f"{source}: unknown key 'checkpointer.serde.{key}' is ignored")
    store = _section(raw, "store", source)
    for key in store:
        if key not in ("index", "ttl"):
            warnings.append(f"{source}: unknown key 'store.{key}' is ignored")
    if raw.get("ui"):
        warnings.append(f"{source}: 'ui' (generative UI components) is not served by foldgraph")
    if raw.get("webhooks"):
        warnings.append(f"{source}: 'webhooks' settings are ignored; run webhooks are still called")
    return ServerConfig(
        root=root,
        graphs=graphs,
        dependencies=deps,
        env=env,
        store=_section(raw, "store", source),
        checkpointer=_section(raw, "checkpointer", source),
        auth=auth,
        http=http,
        warnings=tuple(warnings),
    )


def _section(raw: Mapping[str, Any], key: str, source: str) -> dict[str, Any]:
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"{source}: {key!r} must be an object, not {type(value).__name__}")
    return value


def _graphs(value: Any, source: str) -> tuple[GraphSpec, ...]:
    if not isinstance(value, dict) or not value:
        raise ConfigError(
            f'{source}: "graphs" must map graph names to "./file.py:attribute", '
            'e.g. {"graphs": {"agent": "./agent.py:graph"}}'
        )
    specs = []
    for graph_id, entry in value.items():
        description = None
        if isinstance(entry, dict):
            description = entry.get("description")
            entry = entry.get("path")
        if not isinstance(entry, str) or ":" not in entry:
            raise ConfigError(
                f"{source}: graph {graph_id!r} must be given as './file.py:attribute' "
                f"(a file or module, a colon, and the name of the graph in it), got {entry!r}"
            )
        specs.append(GraphSpec(graph_id, entry, description))
    return tuple(specs)


def _dependencies(value: Any, root: pathlib.Path, source: str) -> tuple[pathlib.Path, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f'{source}: "dependencies" must be a list of paths or package names')
    paths = []
    for dep in value:
        if dep.startswith((".", "/")):
            paths.append((root / dep).resolve())
        # A package name is installed by `langgraph build`; here it must already be installed.
    return tuple(paths)


def _env(value: Any, root: pathlib.Path, source: str) -> dict[str, str]:
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, str):
        file = root / value
        if not file.is_file():
            raise ConfigError(f'{source}: "env" names {value!r}, which is not a file in {root}')
        from dotenv import dotenv_values

        return {k: v for k, v in dotenv_values(file).items() if v is not None}
    raise ConfigError(f'{source}: "env" must be an object or the path of a .env file')


def apply_environment(config: ServerConfig) -> None:
    """Put `dependencies` on the import path and `env` into the environment (before graphs load).

    Variables already set in the process win, as with LangGraph's CLI.
    """
    for path in reversed(config.dependencies):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    if str(config.root) not in sys.path:
        sys.path.insert(0, str(config.root))
    for key, value in config.env.items():
        os.environ.setdefault(key, value)
