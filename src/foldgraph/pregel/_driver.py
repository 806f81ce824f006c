"""The drivers: pump a run's generator and execute the tasks it asks for.

`drive` runs a step's tasks on threads, `adrive` on asyncio; both only execute,
the run generator owns the fold, persistence and stream chunks.

The thread executor cannot deadlock, whatever the nesting: a thread that waits
for a step never waits on work that sits in the pool's queue. The caller runs
tasks itself until none is left to start; a helper job that has not started by
then is cancelled (it has nothing left to do), so the caller only ever waits for
tasks that are running, and a running task (a nested graph included) makes
progress on its own thread. A step with a single task runs inline.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextvars
import os
import queue
import threading
import time
from collections.abc import AsyncIterator, Generator, Iterator, Sequence
from typing import Any

from foldgraph._kernel.names import ERROR
from foldgraph._kernel.snapshot import Task
from foldgraph.constants import START
from foldgraph.errors import is_invalid_resume
from foldgraph.pregel._async_saver import Await, async_overrides, settle
from foldgraph.pregel._pending import error_repr
from foldgraph.pregel._prepare import LiveQueue
from foldgraph.pregel._protocol import Emit, Execute, Results, TaskResult
from foldgraph.pregel._run import Run
from foldgraph.pregel._task import arun_task, run_task

__all__ = ["adrive", "drive"]

_POOL_SIZE = min(32, (os.cpu_count() or 1) + 4)
_POOLS: dict[int, concurrent.futures.ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()
_POLL = 0.01
"""Seconds between looks at the live queue while tasks run (custom / messages modes)."""


def drive(run: Run, live: queue.SimpleQueue[Any] | None) -> Iterator[Emit]:
    """Pump `run` on this thread; chunks written live by nodes come out as they arrive."""
    gen = run.steps()
    send: Results | None = None
    max_workers = run.config.get("max_concurrency")
    # One task runs here, no pool round trip, unless a step timeout or live chunks need the pool.
    inline = live is None and getattr(run.graph, "step_timeout", None) is None
    try:
        while True:
            try:
                item = gen.send(send)
            except StopIteration:
                break
            if isinstance(item, Emit):
                send = None
                yield item
                continue
            tasks = item.tasks
            if inline and len(tasks) == 1:
                # One task: run it here, no pool round trip.
                send = {tasks[0].path: run_task(run, tasks[0], item.step)}
            else:
                send = yield from _execute(run, item, max_workers, live)
            while run.child_sink:
                yield run.child_sink.pop(0)
    finally:
        gen.close()


async def adrive(run: Run, live: queue.SimpleQueue[Any] | None) -> AsyncIterator[Emit]:
    """Async twin of `drive`: a step's tasks run concurrently on the event loop; a saver
    whose class defines its own async methods has them awaited (see `_async_saver`)."""
    if run.checkpointer is not None:
        run._async_saver = async_overrides(run.checkpointer)
    gen = run.steps()
    send: Any = None
    thrown: BaseException | None = None
    limit = run.config.get("max_concurrency")
    semaphore = asyncio.Semaphore(limit) if limit else None

    async def limited(task: Task, step: int) -> TaskResult:
        if semaphore is None:
            return await arun_task(run, task, step)
        async with semaphore:
            return await arun_task(run, task, step)

    async def one(task: Task, step: int, ended: _Step) -> TaskResult:
        """Run `task` (and, when it fails, its node's error handler, at once while its
        siblings still run, as LangGraph starts it); a failure nothing handles cancels
        the siblings still running, as LangGraph's async runner does."""
        if semaphore is None:  # (not through `limited`: one coroutine less per task)
            result = await arun_task(run, task, step)
        else:
            async with semaphore:
                result = await arun_task(run, task, step)
        ended.results[task.path] = result
        if ended.live is not None:
            ended.show()
        if result.error is None:
            return result
        handler = run.early_handler(result, step)
        if handler is None:
            if not is_invalid_resume(result.error):
                # (a bad answer to an interrupt lets the other answered tasks finish)
                ended.fail()
            return result
        try:
            outcome = ended.results[handler.path] = await limited(handler, step)
        except asyncio.CancelledError:
            ended.results[handler.path] = ended.cancelled(handler)
            raise
        if outcome.error is not None:
            ended.fail()
        return result

    stopped = False  # a step cut short was saved as it stood (see `_stop_step`)
    current: list[_Step | None] = [None]  # the step running, woken by the live queue
    waker = None
    if isinstance(live, LiveQueue):
        loop, thread = asyncio.get_running_loop(), threading.get_ident()

        def waker() -> None:
            step = current[0]
            if step is None:
                return
            if threading.get_ident() == thread:
                step.wake()
            else:
                try:
                    loop.call_soon_threadsafe(step.wake)
                except RuntimeError:
                    pass  # the loop closed: a thread the run left behind is still writing

        live.waker = waker
    try:
        while True:
            try:
                if thrown is not None:
                    error, thrown = thrown, None
                    item = gen.throw(error)
                else:
                    item = gen.send(send)
            except StopIteration:
                break
            if isinstance(item, Emit):
                send = None
                yield item
                continue
            if type(item) is Await:
                send = None
                try:
                    send = await item.fn(*item.args)
                except Exception as exc:
                    thrown = exc
                continue
            step_timeout = getattr(run.graph, "step_timeout", None)
            if len(item.tasks) == 1 and live is None and step_timeout is None:
                try:
                    result = await arun_task(run, item.tasks[0], item.step)
                except asyncio.CancelledError:
                    stopped = True
                    await _stop_step(run, item.tasks, {})
                    raise
                send = {result.task.path: result}
                while run.child_sink:
                    yield run.child_sink.pop(0)
                continue
            ended = _Step(run, item.tasks, waker is not None)
            current[0] = ended
            futures = [asyncio.ensure_future(one(t, item.step, ended)) for t in item.tasks]
            ended.futures = futures
            gathered = asyncio.gather(*futures, return_exceptions=True)
            loop = asyncio.get_running_loop()
            deadline = None if step_timeout is None else loop.time() + step_timeout
            try:
                while not gathered.done():
                    wait = _POLL if live is not None else None
                    if deadline is not None:
                        remaining = deadline - loop.time()
                        if remaining <= 0:
                            stopped = True
                            await _cancel_step(gathered, futures)
                            await _stop_step(run, item.tasks, ended.results)
                            raise TimeoutError  # bare, as asyncio (and LangGraph) raise it
                        wait = remaining if wait is None else min(wait, remaining)
                    await asyncio.wait(
                        {gathered} if ended.woken is None else {gathered, ended.woken},
                        timeout=wait,
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                    ended.rearm()
                    if live is not None:
                        for emit in _drain(live, run):
                            yield emit
                    if ended.live:
                        for emit in ended.take():
                            yield emit
            except (asyncio.CancelledError, GeneratorExit):
                # The run is cancelled, or its stream closed: the tasks still running are
                # cancelled; what finished siblings wrote is kept, so a resumed thread
                # does not run them again.
                stopped = True
                await _cancel_step(gathered, futures)
                await _stop_step(run, item.tasks, ended.results)
                raise
            for task, outcome in zip(item.tasks, gathered.result(), strict=True):
                if isinstance(outcome, asyncio.CancelledError) and ended.failed:
                    ended.results.setdefault(task.path, ended.cancelled(task))
                elif isinstance(outcome, BaseException):
                    raise outcome  # (a failure of the runner itself)
            if live is not None:
                for emit in _drain(live, run):
                    yield emit
            if ended.live:
                for emit in ended.take():
                    yield emit
            send = ended.results  # in the order they ended: the first failure first
            while run.child_sink:
                yield run.child_sink.pop(0)
    except (asyncio.CancelledError, GeneratorExit):
        if not stopped:  # stopped between steps: with durability "exit", save where it is
            run._flush_exit(())
            await settle(run)
        raise
    finally:
        if waker is not None:
            live.waker = None  # type: ignore[union-attr]
        gen.close()


async def _cancel_step(
    gathered: asyncio.Future[Any], futures: Sequence[asyncio.Future[Any]]
) -> None:
    """Cancel a step's running tasks and wait until each has ended (its own clean-up run)."""
    gathered.cancel()
    gathered.add_done_callback(_retrieve)
    if any(not f.done() for f in futures):
        await asyncio.wait(futures)


async def _stop_step(run: Run, tasks: Sequence[Task], results: Results) -> None:
    """Save a step that cannot end (cancelled, its stream closed, timed out) as it stands,
    as LangGraph does: the writes of the tasks that finished, the error of each task cut
    short (`CancelledError()`, so a resume runs it again) or failed, and, with durability
    "exit", the checkpoint the step started from; a saver's own async methods are
    awaited before the run's stop goes on (see `_async_saver.settle`)."""
    run.keep_finished([r for r in results.values() if r.error is None])
    for task in tasks:
        result = results.get(task.path)
        if result is not None and result.error is None:
            continue
        error = result.error if result is not None else asyncio.CancelledError()
        writes = [(ERROR, error_repr(error))]
        if run.durability != "exit":  # (an exit save keeps only what finished)
            run._pending[task.id] = [*run._pending.get(task.id, []), *writes]
        run.save_writes(task, writes)
    run._flush_exit(tasks)
    await settle(run)


class _StepResults(dict):  # type: ignore[type-arg]
    """A step's results, with the paths of the tasks whose update already streamed."""

    __slots__ = ("streamed",)


class _Step:
    """The tasks of one async step as they end (in that order); whether one failed with
    nothing to handle it, which cancels those still running; and, when the run streams
    updates, each finished task's update, streamed as soon as every task before it (in
    task order) has finished too: the stream keeps its one order, and a consumer sees a
    fast task's update while a slow one still runs, as LangGraph streams it."""

    __slots__ = ("failed", "futures", "live", "order", "results", "run", "shown", "woken")

    def __init__(self, run: Run, tasks: Sequence[Task], queued: bool = False) -> None:
        self.run = run
        self.results = _StepResults()
        self.results.streamed = set()
        self.futures: list[asyncio.Future[TaskResult]] = []
        self.failed = False
        self.live: list[Emit] | None = None
        self.woken: asyncio.Future[None] | None = None
        if queued:  # woken as chunks reach the run's live queue (see `LiveQueue`)
            self.woken = asyncio.get_running_loop().create_future()
        modes = run.modes
        if "updates" in modes and not run.subgraphs and modes.isdisjoint(("tasks", "debug")):
            # (with tasks chunks or subgraph chunks, the step keeps them all in its order)
            self.live = []
            if self.woken is None:
                self.woken = asyncio.get_running_loop().create_future()
            self.order = [t.path for t in tasks]
            self.shown = 0  # how many of `order` were looked at

    def show(self) -> None:
        """A task finished: stream the updates of the tasks now finished in order."""
        assert self.live is not None and self.woken is not None
        results, order, before = self.results, self.order, len(self.live)
        while self.shown < len(order) and (done := results.get(order[self.shown])) is not None:
            self.shown += 1
            task, output = done.task, done.output
            if done.error is not None or output is None or done.interrupts or done.calls:
                continue  # (the step shows these itself)
            if task.name == START:
                continue
            chunk = {task.name: output.update_chunk()}
            if output.cached:
                chunk["__metadata__"] = {"cached": True}
            self.live.append(Emit(self.run.ns, "updates", chunk))
            results.streamed.add(task.path)
        if len(self.live) > before:
            self.wake()

    def wake(self) -> None:
        """Chunks are waiting: the driver's wait ends (on the event loop's thread)."""
        if self.woken is not None and not self.woken.done():
            self.woken.set_result(None)

    def rearm(self) -> None:
        """After a look at the chunks: the next ones wake the driver again."""
        if self.woken is not None and self.woken.done():
            self.woken = asyncio.get_running_loop().create_future()

    def take(self) -> list[Emit]:
        """The updates to stream since the last look."""
        assert self.live is not None
        taken, self.live = self.live, []
        return taken

    def fail(self) -> None:
        if self.failed:
            return
        self.failed = True
        current = asyncio.current_task()
        for future in self.futures:
            if future is not current and not future.done():
                future.cancel()

    @staticmethod
    def cancelled(task: Task) -> TaskResult:
        """A task cancelled because a sibling failed: saved as LangGraph saves it, with
        its error, so a resume runs it again."""
        return TaskResult(task=task, error=asyncio.CancelledError())


def _execute(
    run: Run, item: Execute, max_workers: int | None, live: queue.SimpleQueue[Any] | None
) -> Generator[Emit, None, Results]:
    """Run one step's tasks; yields live chunks while they run, returns their results."""
    tasks, step = item.tasks, item.step
    step_timeout = getattr(run.graph, "step_timeout", None)
    if step_timeout is not None:
        return (yield from _run_timed(run, tasks, step, max_workers, live, step_timeout))
    if len(tasks) == 1 and live is None:
        return {tasks[0].path: run_task(run, tasks[0], step)}
    if live is None:
        return _run_shared(run, tasks, step, max_workers)
    return (yield from _run_streaming(run, tasks, step, max_workers, live))


def _run_shared(run: Run, tasks: Sequence[Task], step: int, max_workers: int | None) -> Results:
    """Run tasks on the pool with the calling thread taking its share (see module doc)."""
    todo = collections.deque(tasks)
    results: Results = {}

    def work() -> None:
        while True:
            try:
                task = todo.popleft()
            except IndexError:
                return
            _run_handled(run, task, step, results)

    limit = max_workers or _POOL_SIZE
    pool = _pool(max_workers)
    helpers = [
        pool.submit(contextvars.copy_context().run, work)
        for _ in range(min(len(tasks) - 1, max(limit - 1, 0)))
    ]
    contextvars.copy_context().run(work)
    _join(helpers)
    return results


def _run_streaming(
    run: Run,
    tasks: Sequence[Task],
    step: int,
    max_workers: int | None,
    live: queue.SimpleQueue[Any],
) -> Generator[Emit, None, Results]:
    """Run every task on the pool so this thread can pass live chunks on meanwhile.

    A task still queued after a poll (the pool is busy, maybe with this run's own
    parents) is taken back and run here, so the wait never depends on the queue.
    """
    pool = _pool(max_workers)
    results: Results = {}
    futures = {
        pool.submit(contextvars.copy_context().run, _run_handled, run, t, step, results): t
        for t in tasks
    }
    pending = set(futures)
    while pending:
        _, pending = concurrent.futures.wait(
            pending, timeout=_POLL, return_when=concurrent.futures.FIRST_COMPLETED
        )
        yield from _drain(live, run)
        for future in list(pending):
            if not future.running() and future.cancel():
                pending.discard(future)
                task = futures[future]
                contextvars.copy_context().run(_run_handled, run, task, step, results)
                yield from _drain(live, run)
    yield from _drain(live, run)
    for future in futures:
        if not future.cancelled():
            future.result()  # (a failure of the runner itself is raised here)
    return results


def _run_timed(
    run: Run,
    tasks: Sequence[Task],
    step: int,
    max_workers: int | None,
    live: queue.SimpleQueue[Any] | None,
    step_timeout: float,
) -> Generator[Emit, None, Results]:
    """Run a step's tasks on the pool and give up on them after `step_timeout` seconds.

    The waiting thread cannot run tasks itself (it must be free to give up), so a
    task still queued after a poll, while fewer of this step's tasks run than its
    limit allows, is taken back from the pool and started on a thread of its own:
    the pool may be full of callers waiting on this very step (nested timed graphs),
    and a wait that depends on the queue could then only end in a timeout.
    """
    pool = _pool(max_workers)
    limit = max_workers or len(tasks)
    # The running count below is a moment's look: a pool thread may start a queued task
    # just as one is taken back. The gate keeps the tasks that run at once to the limit.
    gate = threading.BoundedSemaphore(limit)
    gave_up = threading.Event()
    results: Results = {}

    def gated(task: Task) -> TaskResult | None:
        with gate:
            if gave_up.is_set():
                return None  # the step timed out before this task could start
            return _run_handled(run, task, step, results)

    futures = {pool.submit(contextvars.copy_context().run, gated, t): t for t in tasks}
    deadline = time.monotonic() + step_timeout
    pending = set(futures)
    poll = _POLL / 16  # a free pool starts a task within microseconds: look again soon
    while pending:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            gave_up.set()
            for future in pending:
                future.cancel()
            raise TimeoutError("Timed out")
        _, pending = concurrent.futures.wait(
            pending, timeout=min(poll, remaining), return_when=concurrent.futures.ALL_COMPLETED
        )
        poll = min(poll * 2, _POLL)
        running = sum(1 for f in pending if f.running())
        for future in list(pending):
            if running >= limit:
                break
            if not future.running() and future.cancel():
                task = futures.pop(future)
                pending.discard(future)
                own = _on_own_thread(gated, task)
                futures[own] = task
                pending.add(own)
                running += 1
        if live is not None:
            yield from _drain(live, run)
    for future in futures:
        future.result()  # (a failure of the runner itself is raised here)
    return results


def _run_handled(run: Run, task: Task, step: int, results: Results) -> TaskResult:
    """Run `task` and put its result in `results` (in the order tasks end: the first
    failure comes first); when it fails and its node has an error handler, run the
    handler next, on this thread while the task's siblings still run (as LangGraph
    starts it), its result going to `results` too for the step to take up."""
    result = results[task.path] = run_task(run, task, step)
    if result.error is not None and (handler := run.early_handler(result, step)):
        results[handler.path] = run_task(run, handler, step)
    return result


def _on_own_thread(fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
    """`fn(*args)` started now on a new daemon thread (in a copy of this context)."""
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    future.set_running_or_notify_cancel()
    context = contextvars.copy_context()

    def body() -> None:
        try:
            future.set_result(context.run(fn, *args))
        except BaseException as exc:
            future.set_exception(exc)

    threading.Thread(target=body, name="foldgraph-timed", daemon=True).start()
    return future


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Take a cancelled step's outcome, so asyncio does not log it as never retrieved."""
    if not future.cancelled():
        future.exception()


def _join(helpers: Sequence[concurrent.futures.Future[Any]]) -> None:
    """Wait for helpers that started; cancel those still queued (their work is done)."""
    for helper in helpers:
        helper.cancel()
    for helper in helpers:
        if not helper.cancelled():
            helper.result()


def _pool(max_workers: int | None) -> concurrent.futures.ThreadPoolExecutor:
    """A process-wide pool per size: threads are started once, not per run."""
    size = max_workers or _POOL_SIZE
    with _POOLS_LOCK:
        pool = _POOLS.get(size)
        if pool is None:
            pool = _POOLS[size] = concurrent.futures.ThreadPoolExecutor(
                max_workers=size, thread_name_prefix="foldgraph"
            )
        return pool


def _drain(live: queue.SimpleQueue[Any], run: Run) -> Iterator[Emit]:
    while True:
        try:
            item = live.get_nowait()
        except queue.Empty:
            return
        yield item if isinstance(item, Emit) else Emit(run.ns, "custom", item)
