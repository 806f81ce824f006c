"""foldgraph demo: example 1's research -> draft -> review pipeline, its timeline, a fork, a diff.

Run it with `make demo`. Threads are kept in an SQLite file (the embedded default saver:
`demo-threads.sqlite`, or $FOLDGRAPH_DEMO_DB), so a second run first reads the previous
run's thread back from disk. At the end it prints the commands that open the same thread
in the viewer and on the command line.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from pathlib import Path

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.history import diff

HERE = Path(__file__).resolve().parent


# Example 1 is a module beside this file; its name starts with a digit, so it is
# imported by name rather than with an import statement. It must be a real entry of
# sys.modules: its state schema's annotations are resolved from its module.
sys.path.insert(0, str(HERE))
pipeline = importlib.import_module("01_pipeline")


def command_name() -> str:
    """How to call the `foldgraph` script from here: the bare name when it is on PATH."""
    beside = Path(sys.executable).parent / "foldgraph"
    found = shutil.which("foldgraph")
    if found or not beside.exists():
        return "foldgraph"
    try:
        return os.path.relpath(beside)
    except ValueError:  # another drive
        return str(beside)


def main() -> None:
    path = os.environ.get("FOLDGRAPH_DEMO_DB", "demo-threads.sqlite")
    with SqliteSaver.from_conn_string(path) as saver:
        run_demo(pipeline.build(saver), saver, path)


def run_demo(app, saver: SqliteSaver, path: str) -> None:
    earlier = saver.list_threads()  # most recently written first
    if earlier:
        kept = list(app.get_state_history({"configurable": {"thread_id": earlier[0]}}))
        print(f"0. {path} already holds {len(earlier)} thread(s); the newest, read from disk:")
        reviews = kept[0].values["reviews"]
        print(f"   thread {earlier[0]!r}: {len(kept)} checkpoints, reviews {reviews}")
    thread = f"pipeline-{len(earlier) + 1}"
    config = {"configurable": {"thread_id": thread}}

    print(f"1. Run thread {thread!r}: research, draft, review until the reviewer approves:")
    final = app.invoke({"topic": "persistent maps"}, config)
    print(f"   draft:   {final['draft']}")
    print(f"   reviews: {final['reviews']}")

    print("2. The timeline, oldest first (every step is a checkpoint in SQLite):")
    history = pipeline.timeline(app, config)

    first_draft = next(s for s in reversed(history) if s.next == ("review",))
    step = first_draft.metadata["step"]
    print(f"3. Fork from step {step} (the first draft, before its review) with our own draft:")
    ours = "Each version of a persistent map costs O(log n) new nodes."
    fork = app.update_state(first_draft.config, {"draft": ours})
    forked = app.invoke(None, fork)
    print(f"   reviews on the fork: {forked['reviews']}")

    print("4. The diff from the original end to the fork's end:")
    ends = list(app.get_state_history(config))
    original_end, fork_end = history[0], ends[0]
    change = diff(original_end, fork_end)
    for key, (old, new) in sorted(change.changed.items()):
        print(f"   ~ {key}: {old!r} -> {new!r}")
    print(f"   both branches are kept: the thread holds {len(ends)} checkpoints")

    report = app.verify_replay(config)
    print(f"5. verify_replay over both branches: {report}")

    cli = command_name()
    a = original_end.config["configurable"]["checkpoint_id"]
    b = fork_end.config["configurable"]["checkpoint_id"]
    print("Open the same thread in the viewer (a browser page on 127.0.0.1):")
    print(f"   {cli} ui {path} --graph examples/01_pipeline.py:graph")
    print("or on the command line:")
    print(f"   {cli} history {path} {thread}")
    print(f"   {cli} diff {path} {thread} {a} {b}")
    print("Eight runnable examples, one per use: examples/README.md")


if __name__ == "__main__":
    main()
