"""Executing runs: a dispatcher claims queued runs and drives each graph on the event loop.

Handlers never run a graph. The dispatcher claims a run when a slot of `jobs`
is free, and the run's task streams the graph (`astream` with `subgraphs=True`
and the modes asked for) into the queue's publish, then settles the run and its
thread. Cancel reaches the task through the queue: the task is cancelled, so
the graph stops at its next await, keeping every checkpoint it committed;
`rollback` then deletes the run and the checkpoints it made.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from foldgraph.errors import GraphDrained
from foldgraph.runtime import RunControl
from foldgraph.server import serde
from foldgraph.server.graphs import GraphRegistry
from foldgraph.server.protocol.execution import protocol_run
from foldgraph.server.queue.base import RunOutcome, RunQueue
from foldgraph.server.storage.base import Json, Storage, now_iso
from foldgraph.server.streaming import EventShaper, graph_modes

logger = logging.getLogger("foldgraph.server")


class RunCancelled(Exception):
    """Raised into a run's task when a client cancels it."""

    def __init__(self, action: str) -> None:
        super().__init__(action)
        self.action = action


class Executor:
    """Claims runs from `queue` and executes up to `jobs` of them at once."""

    def __init__(
        self,
        storage: Storage,
        queue: RunQueue,
        graphs: GraphRegistry,
        *,
        jobs: int = 10,
        checkpointer: Any = None,
        drain_seconds: float = 30.0,
    ) -> None:
        self.storage = storage
        self.queue = queue
        self.graphs = graphs
        self.jobs = jobs
        self.checkpointer = checkpointer
        self.drain_seconds = drain_seconds
        self.worker_id = f"{socket.gethostname()}-{os.getpid()}-{id(self):x}"
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._controls: dict[str, RunControl] = {}
        self._abandoned: set[str] = set()
        #: Runs that ended leaving no other run of their thread waiting (see `_finished`).
        self._quiet_ends: set[str] = set()
        #: Set when a run found the database or Redis unreachable: claim nothing until
        #: they answer again, or every run claimed meanwhile would fail the same way.
        self._unreachable = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None
        self._leases: Any = None
        self._stopping = False

    @property
    def leased(self) -> bool:
        """True when runs are held under leases in a database other processes share."""
        return bool(getattr(self.queue, "leased", False))

    async def start(self) -> None:
        if self.leased:
            # Other processes' runs are running too: a run whose worker died goes back to
            # the queue when its lease runs out (the sweeper), never at a neighbour's start.
            from foldgraph.server.leases import LeaseKeeper

            self._leases = LeaseKeeper(self)
            await self._leases.start()
        else:
            for run in await self.storage.release_orphans():
                await self._mark_thread_after_orphan(run)
        self._dispatcher = asyncio.create_task(self._dispatch(), name="foldgraph-dispatcher")

    async def stop(self) -> None:
        """Stop claiming; end the runs in hand.

        With leases, each run is asked to drain at its next superstep boundary
        (`RunControl`) and goes back to the queue, to be resumed from its last
        checkpoint by another worker; runs still busy after `drain_seconds` are
        abandoned, and their leases run out. In one process, runs end `interrupted`.
        """
        self._stopping = True
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._dispatcher
        stuck: list[str] = []
        if self.leased and self._tasks:
            for control in list(self._controls.values()):
                control.request_drain("shutdown")
            _done, busy = await asyncio.wait(list(self._tasks.values()), timeout=self.drain_seconds)
            stuck = [t.get_name().removeprefix("run-") for t in busy]
            for run_id in stuck:
                self.abandon(run_id, f"the worker stopped; no step ended in {self.drain_seconds}s")
        for task in list(self._tasks.values()):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        for run_id in stuck:  # stopped here mid-step: resumed elsewhere from its last checkpoint
            await self._release({"run_id": run_id})
        if self._leases is not None:
            await self._leases.stop()

    def running_ids(self) -> list[str]:
        """The runs this executor is executing now."""
        return list(self._tasks)

    def abandon(self, run_id: str, why: str) -> None:
        """Stop executing `run_id` here without settling it: its lease belongs elsewhere."""
        task = self._tasks.get(run_id)
        if task is None or run_id in self._abandoned:
            return
        logger.warning("run %s stops on this worker: %s", run_id, why)
        self._abandoned.add(run_id)
        task.cancel()

    async def _dispatch(self) -> None:
        while not self._stopping:
            if len(self._tasks) >= self.jobs:
                await self.queue.wait(None)
                continue
            if self._unreachable.is_set():
                await self._until_reachable()
            try:
                run, due = await self.queue.claim_or_due(self.worker_id)
            except Exception:  # a database hiccup must not stop the server
                logger.exception("claiming a run failed")
                await asyncio.sleep(0.5)
                continue
            if run is None:
                timeout = None if due is None else max(due - time.time(), 0.0) + 0.001
                await self.queue.wait(min(timeout, 5.0) if timeout is not None else 5.0)
                continue
            task = asyncio.create_task(self._execute(run), name=f"run-{run['run_id']}")
            self._tasks[run["run_id"]] = task
            task.add_done_callback(lambda _t, rid=run["run_id"]: self._finished(rid))

    async def _until_reachable(self) -> None:
        """Wait until the queue reaches the database (and Redis) again."""
        while True:
            try:
                await self.queue.probe()
            except Exception as err:
                logger.info("waiting for the database and Redis before claiming: %s", err)
                await asyncio.sleep(0.5)
                continue
            self._unreachable.clear()
            return

    async def _resume_point(self, run: Json, config: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """The run's input and config, or `(None, latest)` when an earlier attempt committed.

        A run claimed again (its worker died or drained) continues from the newest
        checkpoint it made on its thread, so no committed superstep runs twice and no
        branch is made; one that committed nothing starts over with its input.
        """
        if run.get("attempt", 1) <= 1 or self.checkpointer is None:
            return run_input(run["kwargs"]), config
        latest = await self.checkpointer.aget_tuple(
            {"configurable": {"thread_id": run["thread_id"], "checkpoint_ns": ""}}
        )
        if latest is None or (latest.metadata or {}).get("run_id") != run["run_id"]:
            return run_input(run["kwargs"]), config
        return None, _latest(config)

    async def _taken_over(self, run: Json, err: BaseException) -> bool:
        """True when `err` is the saver refusing a step because another worker now holds
        the run (a conflict with any other writer on the thread stays the run's error)."""
        from foldgraph.errors import CheckpointConflictError

        if not isinstance(err, CheckpointConflictError):
            return False
        try:
            owners = await self.queue.owners([run["run_id"]])
        except Exception:
            return True  # the database is away too: the lease decides
        return owners.get(run["run_id"]) != ("running", self.worker_id)

    async def _connection_failure(self, run: Json) -> str:
        """What to do with a run that failed on a database or Redis connection error.

        A graph whose own code talks to a database or Redis raises the same errors as
        losing ours, so the worker asks its own database (and Redis) at once. When they
        do not answer it is an `"outage"`: the run waits for them, and the attempt does
        not count. When they answer, the failure counts as a lost attempt: `"retry"`,
        or `"fail"` (the run ends `error` with the graph's exception) on its last one.
        """
        try:
            await asyncio.wait_for(self.queue.probe(), 5.0)
        except Exception:
            return "outage"
        lost = run.get("attempt", 1) - run.get("drains", 0)
        return "fail" if lost >= self.queue.max_attempts else "retry"

    async def _release(self, run: Json, *, delay: float = 0.0, counted: bool = False) -> None:
        """Give the run back to the queue (`counted`: as a lost attempt); if the database
        is away, its lease runs out."""
        try:
            await self.queue.release(run["run_id"], self.worker_id, delay=delay, counted=counted)
        except Exception as err:
            logger.warning(
                "run %s could not be released (%s); its lease will expire", run["run_id"], err
            )

    def _finished(self, run_id: str) -> None:
        self._tasks.pop(run_id, None)
        self._controls.pop(run_id, None)
        self._abandoned.discard(run_id)
        if run_id in self._quiet_ends and not self._stopping:
            # A slot is free here, and the run's end made nothing else claimable.
            self._quiet_ends.discard(run_id)
            self.queue.wake_local()
            return
        self._quiet_ends.discard(run_id)
        # A slot is free and the thread may have a queued run: claim again (any worker).
        asyncio.get_running_loop().create_task(self.queue.notify())

    async def _mark_thread_after_orphan(self, run: Json) -> None:
        """A run the previous process was executing when it died: its thread is idle again."""
        with contextlib.suppress(Exception):
            await self.storage.patch_thread(run["thread_id"], {"status": "idle"})
            await self.queue.close(run["run_id"], RunOutcome("interrupted", b"null"))

    # -- one run -----------------------------------------------------------------------

    async def _execute(self, run: Json) -> None:
        run_id = run["run_id"]
        kwargs = run["kwargs"]
        task = asyncio.current_task()
        assert task is not None
        cancel_action: list[str] = []

        def cancel(action: str) -> None:
            if cancel_action:  # signalled twice (a notification and a heartbeat): once is enough
                return
            cancel_action.append(action)
            task.cancel()

        unregister = self.queue.on_cancel(run_id, cancel)
        control = self._controls[run_id] = RunControl()
        shaper = EventShaper(kwargs.get("stream_mode") or ["values"], bool(kwargs.get("subgraphs")))
        output: Any = None
        assistant: Json | None = None
        graph = None
        config: dict[str, Any] = {}
        # A protocol run's closing events, logged after its status is stored (or, when
        # the run goes on elsewhere, as it stops here).
        ending: list[Callable[[], Awaitable[None]]] = []
        try:
            lost = run.get("attempt", 1) - run.get("drains", 0)
            if self.leased and lost > self.queue.max_attempts:
                from foldgraph.server.leases import fail_run

                await fail_run(self.storage, self.queue, run)
                return
            await self.queue.publish(
                run_id,
                "metadata",
                serde.dumps({"run_id": run_id, "attempt": run.get("attempt", 1)}),
            )
            assistant = await self.storage.get_assistant(run["assistant_id"])
            if assistant is None:
                raise LookupError(f"assistant {run['assistant_id']} was deleted")
            config = run_config(run, assistant)
            async with self.graphs.open(assistant["graph_id"], config) as graph:
                if run.get("cancel_action"):  # cancelled while queued, or before a worker died
                    cancel(run["cancel_action"])
                    await asyncio.sleep(0)
                given, config = await self._resume_point(run, config)
                options = {
                    "context": {**(assistant.get("context") or {}), **(kwargs.get("context") or {})}
                    or None,
                    "stream_mode": graph_modes(shaper.modes),
                    "subgraphs": True,
                    "interrupt_before": kwargs.get("interrupt_before"),
                    "interrupt_after": kwargs.get("interrupt_after"),
                    "durability": kwargs.get("durability") or "async",
                    "control": control,
                }
                if kwargs.get("protocol"):  # started with the thread event protocol (v3)
                    stream = protocol_run(self.queue, run, graph, given, config, options, ending)
                elif "events" in shaper.modes:
                    stream = self._with_events(graph, run_id, given, config, options)
                else:
                    stream = graph.astream(given, config, **options)
                async for ns, mode, chunk in stream:
                    if mode == "values" and not ns:
                        output = chunk
                    for event, data in shaper.shape(ns, mode, chunk, config):
                        await self.queue.publish(run_id, event, data)
                await self._settle(run, graph, config, "success", None, output, ending)
        except GraphDrained:
            # The worker is stopping: the run's last step is saved; another worker goes on.
            await asyncio.shield(_log_ending(ending))
            await asyncio.shield(self._release(run))
        except asyncio.CancelledError:
            if run_id in self._abandoned:
                raise  # its lease is someone else's now: say nothing to the database
            # A client's cancel, or the server stopping: the run ends `interrupted` either way
            # (its committed steps are kept; the thread resumes from its last checkpoint).
            action = cancel_action[0] if cancel_action else "interrupt"
            await asyncio.shield(self._cancelled(run, graph, config, action))
            if not cancel_action:
                raise
        except Exception as err:  # the graph failed: the run ends `error`, the server goes on
            if self.leased and await self._taken_over(run, err):
                # Another worker resumed the run (this one was cut off past its lease): the
                # saver refused this attempt's step, and the run goes on there.
                logger.warning("run %s continues on another worker; dropped here", run_id)
                await _log_ending(ending)
                return
            verdict = (
                await self._connection_failure(run)
                if self.leased and database_unreachable(err)
                else "fail"
            )
            if verdict != "fail":
                # The database or Redis went away under the run, or the graph's own
                # connection failed (see `_connection_failure`). The run goes back to the
                # queue (or its lease runs out) and resumes from its last checkpoint.
                await asyncio.shield(_log_ending(ending))
                delay = self.queue.retry_delay(run.get("attempt", 1))
                if verdict == "retry":
                    logger.warning("run %s failed (%s); it will be tried again", run_id, err)
                    await asyncio.shield(self._release(run, delay=delay, counted=True))
                    return
                # An outage is not the run's: the attempt does not count, and this worker
                # claims nothing more until the database and Redis answer.
                logger.warning("run %s lost the database (%s); it will be resumed", run_id, err)
                self._unreachable.set()
                await asyncio.shield(self._release(run, delay=delay))
                return
            logger.info("run %s failed: %s: %s", run_id, type(err).__name__, err)
            await self.queue.publish(run_id, "error", serde.dumps(serde.error_json(err)))
            await self._settle(run, graph, config, "error", err, output, ending)
        finally:
            unregister()

    async def _with_events(
        self, graph: Any, run_id: str, input: Any, config: Any, options: dict[str, Any]
    ) -> Any:
        """The `events` mode: publish every callback event of `astream_events(version="v2")`,
        and pass on the root graph's own stream chunks (its `on_chain_stream` events)."""
        async for event in graph.astream_events(input, config, version="v2", **options):
            await self.queue.publish(run_id, "events", serde.dumps(event))
            if event["event"] == "on_chain_stream" and not event.get("parent_ids"):
                chunk = event["data"].get("chunk")
                if isinstance(chunk, tuple) and len(chunk) == 3:
                    yield chunk

    async def _settle(
        self,
        run: Json,
        graph: Any,
        config: Mapping[str, Any],
        status: str,
        error: BaseException | None,
        output: Any,
        ending: list[Callable[[], Awaitable[None]]] | None = None,
    ) -> None:
        """Store how the run ended, update its thread, log the run's end, and answer
        `wait` / `join`."""
        run_id, thread_id = run["run_id"], run["thread_id"]
        kwargs = run["kwargs"]
        thread_changes: dict[str, Any] = {"status": "idle"}
        if graph is not None:
            try:
                state = await graph.aget_state(_latest(config))
                values = serde.to_plain(state.values)
                interrupts = {
                    t.id: [serde.to_plain(serde.interrupt_json(i)) for i in t.interrupts]
                    for t in state.tasks
                    if t.interrupts
                }
                thread_changes.update(
                    state_values=values,
                    interrupts=interrupts,
                    error=serde.error_json(error) if error is not None else None,
                    has_state=1,
                    state_updated_at=now_iso(),
                )
                if error is not None:
                    thread_changes["status"] = "error"
                elif state.next:
                    thread_changes["status"] = "interrupted"
            except Exception:
                logger.exception("reading the state after run %s failed", run_id)
                if error is not None:
                    thread_changes["status"] = "error"
        if error is not None:
            answer = serde.dumps({"__error__": serde.error_json(error)})
        else:
            answer = serde.dumps(output)
        await self.storage.set_run_status(run_id, status)
        temporary = kwargs.get("temporary")
        if temporary:
            await self._delete_thread(thread_id)
        elif not await self._patch_thread_if_idle(thread_id, thread_changes):
            # No other run of the thread waits: this slot's next claim is this worker's
            # business only, and other workers need no wake-up.
            self._quiet_ends.add(run_id)
        if ending:
            await _log_ending(ending)
        # The `end` event the SDK documents: it tells a client the run is over, so the SDK
        # does not ask for the run's status before it stops reading.
        end = serde.dumps({"run_id": run_id, "status": status})
        await self.queue.finish(run_id, end, RunOutcome(status, answer))
        webhook = kwargs.get("webhook")
        if webhook:
            record = {**run, "status": status, "updated_at": now_iso()}
            record.pop("attempt", None)
            asyncio.get_running_loop().create_task(_call_webhook(webhook, record))

    async def _patch_thread_if_idle(self, thread_id: str, changes: dict[str, Any]) -> bool:
        """Store the run's end on its thread; True when another run of it waits.

        Another run queued on the thread keeps it busy, and so does one running: once
        this run's status is stored, another worker may claim the thread's next run
        before this one gets here."""
        return await self.storage.settle_thread(thread_id, changes)

    async def _cancelled(
        self, run: Json, graph: Any, config: Mapping[str, Any], action: str
    ) -> None:
        run_id = run["run_id"]
        if action == "rollback":
            await self.rollback(run, graph)
            await self.queue.publish(
                run_id, "end", serde.dumps({"run_id": run_id, "status": "interrupted"})
            )
            await self.queue.close(run_id, RunOutcome("interrupted", b"null"))
            return
        await self._settle(run, graph, config, "interrupted", None, None)

    async def rollback(self, run: Json, graph: Any = None) -> None:
        """Delete `run`; its thread's latest state becomes the one from before the run.

        The checkpoints the run made stay in history as a branch (history is never
        rewritten); a copy of the checkpoint the run started from becomes the newest.
        """
        run_id, thread_id = run["run_id"], run["thread_id"]
        saver = self.checkpointer
        if saver is not None:
            made = [
                t
                async for t in saver.alist(
                    {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}},
                    filter={"run_id": run_id},
                )
            ]
            if made:
                before = made[-1].parent_config
                if before is None:
                    await saver.adelete_thread(thread_id)
                elif graph is not None:
                    await graph.aupdate_state(before, None, as_node="__copy__")
        # Only now may the thread's next run be claimed: it starts from the restored state.
        await self.storage.delete_run(run_id)
        changes: dict[str, Any] = {"status": "idle"}
        if graph is not None:
            state = await graph.aget_state(
                {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
            )
            changes.update(state_values=serde.to_plain(state.values) if state.config else None)
        await self._patch_thread_if_idle(thread_id, changes)

    async def _delete_thread(self, thread_id: str) -> None:
        await self.storage.delete_thread(thread_id)
        if self.checkpointer is not None:
            with contextlib.suppress(Exception):
                await self.checkpointer.adelete_thread(thread_id)


async def _log_ending(ending: list[Callable[[], Awaitable[None]]]) -> None:
    """Log a protocol run's closing events once, whichever path ends the run here."""
    while ending:
        await ending.pop(0)()


def database_unreachable(err: BaseException) -> bool:
    """True when `err` (or what caused it) says the database or Redis could not be reached."""
    kinds: list[type[BaseException]] = []
    with contextlib.suppress(ImportError):
        import psycopg
        import psycopg_pool

        kinds += [psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout]
    with contextlib.suppress(ImportError):
        import redis.exceptions

        kinds += [redis.exceptions.ConnectionError, redis.exceptions.TimeoutError]
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, tuple(kinds)):
            return True
        current = current.__cause__ or current.__context__
    return False


def _latest(config: Mapping[str, Any]) -> dict[str, Any]:
    conf = {
        k: v
        for k, v in config.get("configurable", {}).items()
        if k not in ("checkpoint_id", "checkpoint_ns", "checkpoint_map")
    }
    return {**config, "configurable": conf}


def run_config(run: Json, assistant: Json) -> dict[str, Any]:
    """The `RunnableConfig` a run executes with: the assistant's config under the run's."""
    kwargs = run["kwargs"]
    base = assistant.get("config") or {}
    given = kwargs.get("config") or {}
    config: dict[str, Any] = {**base, **{k: v for k, v in given.items() if k != "configurable"}}
    configurable = {**(base.get("configurable") or {}), **(given.get("configurable") or {})}
    configurable.update(
        thread_id=run["thread_id"],
        run_id=run["run_id"],
        graph_id=assistant["graph_id"],
        assistant_id=assistant["assistant_id"],
    )
    checkpoint = kwargs.get("checkpoint") or {}
    if kwargs.get("checkpoint_id"):
        configurable["checkpoint_id"] = kwargs["checkpoint_id"]
    for key in ("checkpoint_id", "checkpoint_ns", "checkpoint_map"):
        if checkpoint.get(key):
            configurable[key] = checkpoint[key]
    config["configurable"] = configurable
    config["metadata"] = {
        **(base.get("metadata") or {}),
        **(given.get("metadata") or {}),
        **(run.get("metadata") or {}),
        "graph_id": assistant["graph_id"],
        "assistant_id": assistant["assistant_id"],
        "thread_id": run["thread_id"],
        "run_id": run["run_id"],
        "run_attempt": run.get("attempt", 1),
    }
    return config


def run_input(kwargs: Mapping[str, Any]) -> Any:
    """The run's input: the JSON input, or a `Command` built from `command`."""
    command = kwargs.get("command")
    if not command:
        return kwargs.get("input")
    from foldgraph.types import Command, Send

    goto = command.get("goto")
    if goto is not None:
        goto = [
            Send(g["node"], g.get("input")) if isinstance(g, dict) else g
            for g in (goto if isinstance(goto, list) else [goto])
        ]
    update = command.get("update")
    if isinstance(update, list):
        update = [tuple(u) for u in update]
    return Command(
        update=update,
        resume=command.get("resume"),
        goto=goto if goto is not None else (),
    )


async def _call_webhook(url: str, run: Json) -> None:
    """POST the ended run's record to `url`; a failing webhook is logged, never raised."""
    try:
        import httpx

        async with httpx.AsyncClient(timeout=10) as client:
            await client.post(
                url, content=serde.dumps(run), headers={"Content-Type": "application/json"}
            )
    except Exception:
        logger.warning("webhook %s for run %s failed", url, run["run_id"])
