"""`RemoteGraph`: a graph served over the LangGraph Server API, used like a local one.

It speaks to a server (`foldgraph dev`/`serve`, or LangGraph's) through the
official `langgraph-sdk` client: `invoke`/`stream` create runs, the state methods
read and update the remote thread. It is a langchain-core `Runnable`, so it can
be a node of a local graph; the node's `thread_id` (if any) becomes the remote
thread, created on first use.

>>> remote = RemoteGraph("agent", url="http://127.0.0.1:2024")  # doctest: +SKIP
>>> remote.invoke({"messages": [("user", "hi")]})  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig

from foldgraph.errors import GraphInterrupt
from foldgraph.pregel._remote_stream import RemoteException
from foldgraph.types import Command, Interrupt, PregelTask, StateSnapshot

try:
    from langgraph_sdk import get_client, get_sync_client
except ImportError as err:  # pragma: no cover - the server extra brings it
    raise ImportError(
        "foldgraph.pregel.remote needs langgraph-sdk: pip install 'foldgraph[server]'"
    ) from err

__all__ = ["RemoteException", "RemoteGraph"]

# Config keys a run's own machinery sets; a remote run makes its own.
_LOCAL_KEYS = frozenset(
    {"checkpoint_id", "checkpoint_ns", "checkpoint_map", "task_id", "thread_ts", "run_id"}
)


class RemoteGraph(Runnable):
    """A graph on a LangGraph API server, addressed by assistant id or graph name."""

    def __init__(
        self,
        assistant_id: str,
        /,
        *,
        url: str | None = None,
        api_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        client: Any = None,
        sync_client: Any = None,
        config: RunnableConfig | None = None,
        name: str | None = None,
        distributed_tracing: bool = False,
    ) -> None:
        self.assistant_id = assistant_id
        self.distributed_tracing = distributed_tracing
        self.name = name or assistant_id
        self.config = config
        self.url, self.api_key, self.headers = url, api_key, dict(headers or {})
        if client is None and url is not None:
            client = get_client(url=url, api_key=api_key, headers=headers)
        if sync_client is None and url is not None:
            sync_client = get_sync_client(url=url, api_key=api_key, headers=headers)
        self.client = client
        self.sync_client = sync_client

    # -- plumbing ---------------------------------------------------------------------

    def _sync(self) -> Any:
        if self.sync_client is None:
            raise ValueError("RemoteGraph needs `url` or `sync_client` for synchronous calls")
        return self.sync_client

    def _async(self) -> Any:
        if self.client is None:
            raise ValueError("RemoteGraph needs `url` or `client` for async calls")
        return self.client

    def copy(self, update: Mapping[str, Any]) -> RemoteGraph:
        clone = RemoteGraph.__new__(RemoteGraph)
        clone.__dict__.update(self.__dict__)
        clone.__dict__.update(update or {})
        return clone

    def with_config(self, config: RunnableConfig | None = None, **kwargs: Any) -> RemoteGraph:
        merged = _merge(self.config or {}, {**(config or {}), **kwargs})
        return self.copy({"config": merged})

    def _request(self, config: RunnableConfig | None) -> tuple[str | None, dict[str, Any]]:
        """The remote thread and the JSON-safe part of the config to send."""
        merged = _merge(self.config or {}, config or {})
        out: dict[str, Any] = {}
        if "recursion_limit" in merged:
            out["recursion_limit"] = merged["recursion_limit"]
        if merged.get("tags"):
            out["tags"] = [t for t in merged["tags"] if isinstance(t, str)]
        if merged.get("metadata"):
            out["metadata"] = {k: v for k, v in merged["metadata"].items() if _plain(v)}
        conf = {
            k: v
            for k, v in (merged.get("configurable") or {}).items()
            if isinstance(k, str) and not k.startswith("__") and k not in _LOCAL_KEYS and _plain(v)
        }
        thread_id = conf.pop("thread_id", None)
        if conf:
            out["configurable"] = conf
        return (str(thread_id) if thread_id is not None else None), out

    def _run_kwargs(
        self, input: Any, config: RunnableConfig | None, stream_mode: Any, **kwargs: Any
    ) -> dict[str, Any]:
        thread_id, sent = self._request(config)
        command = None
        if isinstance(input, Command):
            command = {
                k: v
                for k, v in dataclasses.asdict(input).items()
                if v not in (None, ()) and k != "graph"
            }
            input = None
        modes = [stream_mode] if isinstance(stream_mode, str) else list(stream_mode)
        sdk_modes = ["messages-tuple" if m == "messages" else m for m in modes]
        if "updates" not in sdk_modes:
            sdk_modes.append("updates")  # to see interrupts
        return {
            "thread_id": thread_id,
            "assistant_id": self.assistant_id,
            "input": input,
            "command": command,
            "config": sent,
            "stream_mode": sdk_modes,
            "if_not_exists": "create" if thread_id is not None else None,
            **{k: v for k, v in kwargs.items() if v is not None},
        }

    @staticmethod
    def _inside_a_node(config: RunnableConfig | None) -> bool:
        return bool((config or {}).get("configurable", {}).get("checkpoint_ns"))

    def _shape(
        self, part: Any, modes: Sequence[str], subgraphs: bool, in_node: bool, version: str
    ) -> list:
        event, data = part.event, part.data
        if event == "metadata" or event == "end":
            return []
        mode, _, rest = event.partition("|")
        ns = tuple(rest.split("|")) if rest else ()
        if mode == "error":
            raise RemoteException(data)
        if mode == "updates" and isinstance(data, dict) and "__interrupt__" in data and in_node:
            raise GraphInterrupt([Interrupt(**i) for i in data["__interrupt__"]])
        if mode == "messages-tuple":
            mode = "messages"
        if mode not in modes or (ns and not subgraphs):
            return []
        if mode == "messages":
            data = tuple(data)
        if version == "v2":
            interrupts: tuple = ()
            if mode == "values" and isinstance(data, dict) and "__interrupt__" in data:
                data = dict(data)
                interrupts = tuple(Interrupt(**i) for i in data.pop("__interrupt__"))
            return [{"type": mode, "ns": ns, "data": data, "interrupts": interrupts}]
        if subgraphs:
            return [(ns, mode, data) if len(modes) > 1 else (ns, data)]
        return [(mode, data) if len(modes) > 1 else data]

    # -- running --------------------------------------------------------------------------

    def _begin(
        self,
        input: Any,
        config: RunnableConfig | None,
        stream_mode: Any,
        subgraphs: bool,
        options: dict[str, Any],
    ) -> tuple[list[str], dict[str, Any], bool]:
        modes = (
            [stream_mode or "updates"]
            if not isinstance(stream_mode, list | tuple)
            else list(stream_mode)
        )
        request = self._run_kwargs(
            input, config, modes, stream_subgraphs=subgraphs or None, **options
        )
        return modes, request, self._inside_a_node(config)

    def stream(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Mapping[str, Any] | None = None,
        stream_mode: str | Sequence[str] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        subgraphs: bool = False,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Iterator[Any]:
        """Stream a remote run's chunks as a local graph's `stream` would."""
        options = dict(
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            headers=headers,
            params=params,
            **kwargs,
        )
        modes, request, in_node = self._begin(input, config, stream_mode, subgraphs, options)
        for part in self._sync().runs.stream(**request):
            yield from self._shape(part, modes, subgraphs, in_node, version)

    async def astream(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Mapping[str, Any] | None = None,
        stream_mode: str | Sequence[str] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        subgraphs: bool = False,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        """Async twin of `stream`."""
        options = dict(
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            headers=headers,
            params=params,
            **kwargs,
        )
        modes, request, in_node = self._begin(input, config, stream_mode, subgraphs, options)
        async for part in self._async().runs.stream(**request):
            for chunk in self._shape(part, modes, subgraphs, in_node, version):
                yield chunk

    def stream_events(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        version: str = "v2",
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        control: Any = None,
        transformers: Any = None,
        headers: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> Any:
        """With `version="v3"`, the remote run as a run stream (use it in a `with` block):
        its projections (`values`, `messages`, `subgraphs`, `tool_calls`, `extensions`),
        `output`, `interrupted`, raw events by iterating. Other versions are
        langchain-core's callback events of `invoke`.
        """
        if version != "v3":
            return super().stream_events(input, config, version=version, **kwargs)  # type: ignore[call-overload]
        from foldgraph.pregel._remote_stream import RemoteRunStream, check_v3_options

        check_v3_options(
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            control=control,
            transformers=transformers,
            extra=kwargs,
        )
        client = self._sync()
        thread_id, sent = self._request(config)
        sdk = client.threads.stream(thread_id, assistant_id=self.assistant_id, headers=headers)
        return RemoteRunStream(client, sdk, input, sent, kwargs.get("metadata"))

    async def astream_events(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        version: str = "v2",
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        control: Any = None,
        transformers: Any = None,
        headers: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Async `stream_events`: `async with await graph.astream_events(..., version="v3")`.

        Only `version="v3"` is served (v1/v2 callback events: use `astream`).
        """
        if version != "v3":
            raise NotImplementedError(
                f"RemoteGraph.astream_events(version={version!r}) is not supported; "
                "use astream() or version='v3'"
            )
        from foldgraph.pregel._remote_stream import AsyncRemoteRunStream, check_v3_options

        check_v3_options(
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            control=control,
            transformers=transformers,
            extra=kwargs,
        )
        client = self._async()
        thread_id, sent = self._request(config)
        sdk = client.threads.stream(thread_id, assistant_id=self.assistant_id, headers=headers)
        return AsyncRemoteRunStream(client, sdk, input, sent, kwargs.get("metadata"))

    def invoke(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Mapping[str, Any] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Any:
        """Run remotely to the end and return the final values."""
        last = None
        for chunk in self.stream(
            input,
            config,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            headers=headers,
            params=params,
            stream_mode="values",
            version=version,
            **kwargs,
        ):
            last = chunk
        return _output(last, version)

    async def ainvoke(  # type: ignore[override]
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        context: Mapping[str, Any] | None = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        version: str = "v1",
        **kwargs: Any,
    ) -> Any:
        """Async twin of `invoke`."""
        last = None
        async for chunk in self.astream(
            input,
            config,
            context=context,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            headers=headers,
            params=params,
            stream_mode="values",
            version=version,
            **kwargs,
        ):
            last = chunk
        return _output(last, version)

    # -- state ----------------------------------------------------------------------------

    def _thread(self, config: RunnableConfig) -> tuple[str, dict[str, Any] | None]:
        conf = (config or {}).get("configurable", {})
        if "thread_id" not in conf:
            raise ValueError("RemoteGraph state methods need config['configurable']['thread_id']")
        checkpoint = None
        if conf.get("checkpoint_id"):
            checkpoint = {
                "thread_id": str(conf["thread_id"]),
                "checkpoint_ns": conf.get("checkpoint_ns", ""),
                "checkpoint_id": conf["checkpoint_id"],
            }
        return str(conf["thread_id"]), checkpoint

    def get_state(
        self,
        config: RunnableConfig,
        *,
        subgraphs: bool = False,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> StateSnapshot:
        thread_id, checkpoint = self._thread(config)
        state = self._sync().threads.get_state(
            thread_id, checkpoint=checkpoint, subgraphs=subgraphs, headers=headers, params=params
        )
        return snapshot(state)

    async def aget_state(
        self,
        config: RunnableConfig,
        *,
        subgraphs: bool = False,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> StateSnapshot:
        thread_id, checkpoint = self._thread(config)
        state = await self._async().threads.get_state(
            thread_id, checkpoint=checkpoint, subgraphs=subgraphs, headers=headers, params=params
        )
        return snapshot(state)

    def get_state_history(
        self,
        config: RunnableConfig,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Iterator[StateSnapshot]:
        thread_id, checkpoint = self._thread(config)
        states = self._sync().threads.get_history(
            thread_id,
            limit=limit or 10,
            before=before,
            metadata=filter,
            checkpoint=checkpoint,
            headers=headers,
            params=params,
        )
        for state in states:
            yield snapshot(state)

    async def aget_state_history(
        self,
        config: RunnableConfig,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[StateSnapshot]:
        thread_id, checkpoint = self._thread(config)
        states = await self._async().threads.get_history(
            thread_id,
            limit=limit or 10,
            before=before,
            metadata=filter,
            checkpoint=checkpoint,
            headers=headers,
            params=params,
        )
        for state in states:
            yield snapshot(state)

    def update_state(
        self,
        config: RunnableConfig,
        values: Any,
        as_node: str | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> RunnableConfig:
        thread_id, checkpoint = self._thread(config)
        answer = self._sync().threads.update_state(
            thread_id,
            values,
            as_node=as_node,
            checkpoint=checkpoint,
            headers=headers,
            params=params,
        )
        return {"configurable": answer["configurable"]}

    async def aupdate_state(
        self,
        config: RunnableConfig,
        values: Any,
        as_node: str | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> RunnableConfig:
        thread_id, checkpoint = self._thread(config)
        answer = await self._async().threads.update_state(
            thread_id,
            values,
            as_node=as_node,
            checkpoint=checkpoint,
            headers=headers,
            params=params,
        )
        return {"configurable": answer["configurable"]}

    def bulk_update_state(self, config: RunnableConfig, updates: Any) -> RunnableConfig:
        """Apply each superstep's updates in order (one `update_state` per update)."""
        result = config
        for step in updates:
            for update in step:
                result = self.update_state(
                    {
                        **config,
                        "configurable": {
                            **config.get("configurable", {}),
                            **result.get("configurable", {}),
                        },
                    },
                    update.values,
                    update.as_node,
                )
        return result

    async def abulk_update_state(self, config: RunnableConfig, updates: Any) -> RunnableConfig:
        result = config
        for step in updates:
            for update in step:
                result = await self.aupdate_state(
                    {
                        **config,
                        "configurable": {
                            **config.get("configurable", {}),
                            **result.get("configurable", {}),
                        },
                    },
                    update.values,
                    update.as_node,
                )
        return result

    def get_graph(
        self,
        config: RunnableConfig | None = None,
        *,
        xray: int | bool = False,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        """The remote graph's drawing, as a langchain-core `Graph`."""
        drawn = self._sync().assistants.get_graph(
            self.assistant_id, xray=xray, headers=headers, params=params
        )
        return _drawing(drawn)

    async def aget_graph(
        self,
        config: RunnableConfig | None = None,
        *,
        xray: int | bool = False,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        drawn = await self._async().assistants.get_graph(
            self.assistant_id, xray=xray, headers=headers, params=params
        )
        return _drawing(drawn)


def _output(last: Any, version: str) -> Any:
    if version != "v2":
        return last
    from foldgraph.types import GraphOutput

    if last is None:
        return GraphOutput(value=None, interrupts=())
    return GraphOutput(value=last["data"], interrupts=tuple(last.get("interrupts", ())))


def snapshot(state: Mapping[str, Any]) -> StateSnapshot:
    """A server's `ThreadState` as a `StateSnapshot`."""

    def config_of(checkpoint: Mapping[str, Any] | None) -> dict[str, Any] | None:
        if not checkpoint:
            return None
        return {"configurable": {k: v for k, v in checkpoint.items() if v is not None}}

    tasks = tuple(
        PregelTask(
            id=t["id"],
            name=t["name"],
            path=tuple(t.get("path") or ()),
            error=Exception(t["error"]) if t.get("error") else None,
            interrupts=tuple(Interrupt(i["value"], i["id"]) for i in t.get("interrupts") or ()),
            state=snapshot(t["state"]) if t.get("state") else config_of(t.get("checkpoint")),
            result=t.get("result"),
        )
        for t in state.get("tasks") or ()
    )
    return StateSnapshot(
        values=state.get("values"),
        next=tuple(state.get("next") or ()),
        config=config_of(state.get("checkpoint")) or {},
        metadata=state.get("metadata"),
        created_at=state.get("created_at"),
        parent_config=config_of(state.get("parent_checkpoint")),
        tasks=tasks,
        interrupts=tuple(Interrupt(i["value"], i["id"]) for i in state.get("interrupts") or ()),
    )


def _drawing(data: Mapping[str, Any]) -> Any:
    from langchain_core.runnables.graph import Edge, Graph, Node

    nodes = {
        n["id"]: Node(
            id=n["id"],
            name=(n.get("data") or {}).get("name", n["id"]),
            data=None,
            metadata=n.get("metadata"),
        )
        for n in data.get("nodes", [])
    }
    edges = [
        Edge(e["source"], e["target"], e.get("data"), e.get("conditional", False))
        for e in data.get("edges", [])
    ]
    return Graph(nodes=nodes, edges=edges)


def _plain(value: Any) -> bool:
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list | tuple):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def _merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if key in ("configurable", "metadata") and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        elif key == "tags" and out.get(key):
            out[key] = [*out[key], *value]
        else:
            out[key] = value
    return out
