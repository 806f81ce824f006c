"""The read and write commands, run as the console script in a subprocess, over databases
written by foldgraph and by real LangGraph: `--json` field by field, and the errors."""

from __future__ import annotations

import hashlib
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

GRAPH = str(pathlib.Path(__file__).parents[1] / "ui" / "threads_graph.py") + ":graph"


def foldgraph(*args: str, cwd: pathlib.Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "foldgraph.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def read_json(*args: str):
    done = foldgraph(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_threads_json(db, expected) -> None:
    rows = read_json("threads", db)
    assert [r["thread_id"] for r in rows] == ["t-fail", "t-fork", "t-done"]
    for row in rows:
        assert set(row) == {
            "thread_id",
            "checkpoints",
            "last_step",
            "status",
            "updated_at",
            "metadata",
            "checkpoint_id",
        }
        newest = expected[row["thread_id"]][0]
        assert row["last_step"] == newest["step"]
        assert row["checkpoint_id"] == newest["checkpoint_id"]
    assert [r["status"] for r in rows] == ["failed", "interrupted", "done"]
    assert [r["checkpoints"] for r in rows] == [2, 14, 9]
    assert [r["thread_id"] for r in read_json("threads", db, "--status", "done")] == ["t-done"]


def test_history_json_newest_first(db, expected) -> None:
    rows = read_json("history", db, "t-done", "--ns", "")
    assert [r["checkpoint_id"] for r in rows] == [s["checkpoint_id"] for s in expected["t-done"]]
    first = rows[0]
    assert set(first) == {
        "checkpoint_id",
        "parent_checkpoint_id",
        "checkpoint_ns",
        "step",
        "source",
        "next",
        "writes",
        "created_at",
        "parents",
    }
    assert (first["step"], first["source"], first["next"], first["checkpoint_ns"]) == (
        4,
        "loop",
        [],
        "",
    )
    assert first["writes"] == {"review": ["draft"]}
    assert first["parent_checkpoint_id"] == expected["t-done"][1]["checkpoint_id"]
    page = read_json("history", db, "t-done", "--limit", "2", "--before", rows[1]["checkpoint_id"])
    assert [r["checkpoint_ns"].split(":")[0] for r in page] == ["research", "research"]
    everything = read_json("history", db, "t-done")
    assert len(everything) == 9


def test_show_json(db, expected) -> None:
    view = read_json("show", db, "t-fork")
    newest = expected["t-fork"][0]
    assert view["checkpoint_id"] == newest["checkpoint_id"]
    assert view["next"] == ["review"]
    assert view["values"] == newest["values"]
    assert view["interrupts"] == newest["interrupts"]
    assert [t["name"] for t in view["tasks"]] == ["review"]
    older = read_json("show", db, "t-fork", expected["t-fork"][-2]["checkpoint_id"])
    assert older["next"] == ["agent"]
    assert older["values"]["messages"] == [{"type": "human", "content": "weather?", "id": "h-1"}]


def test_diff_json(db, expected) -> None:
    fork = expected["t-fork"]
    result = read_json("diff", db, "t-fork", fork[-1]["checkpoint_id"], fork[0]["checkpoint_id"])
    assert result["from"] == fork[-1]["checkpoint_id"]
    assert result["to"] == fork[0]["checkpoint_id"]
    assert result["removed"] == {}
    assert result["changed"] == {}
    assert result["added"]["draft"] == "edited"
    assert result["added"]["notes"] == fork[0]["values"]["notes"] == ["searched", "searched", "sub"]
    assert [m["id"] for m in result["added"]["messages"]] == ["h-1", "ai-1", "tool-1"]
    across = read_json(
        "diff",
        db,
        "t-fork",
        fork[0]["checkpoint_id"],
        expected["t-done"][0]["checkpoint_id"],
        "--other-thread",
        "t-done",
    )
    assert across["other_thread_id"] == "t-done"
    assert across["changed"] == {"draft": {"old": "edited", "new": "v1:yes"}}


def test_export_is_json_lines_oldest_first(db) -> None:
    done = foldgraph("export", db, "t-done", "--ns", "")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["step"] for line in lines] == [-1, 0, 1, 2, 3, 4]
    assert lines[-1]["values"]["draft"] == "v1:yes"


def test_human_output_renders(db) -> None:
    done = foldgraph("show", db, "t-done")
    assert done.returncode == 0, done.stderr
    assert "ai: let me look" in done.stdout
    assert "-> search" in done.stdout
    assert "next: (nothing: done)" in done.stdout
    assert foldgraph("threads", db).returncode == 0
    assert foldgraph("history", db, "t-fork").returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("threads", "{tmp}/missing.sqlite"), "does not exist"),
        (("threads", "{tmp}/notes.txt"), "is not a SQLite database"),
        (("history", "{db}", "nope"), "no thread 'nope'"),
        (("show", "{db}", "t-done", "not-a-checkpoint"), "no checkpoint 'not-a-checkpoint'"),
        (("diff", "{db}", "t-done", "x", "y"), "no checkpoint 'x'"),
        (("graph", "no_such_module_here:graph"), "cannot import 'no_such_module_here'"),
        (("graph", "json:nothing"), "has no attribute 'nothing'"),
        (("graph", "json"), "expected module:attr"),
        (("threads",), "no store given"),
    ],
)
def test_errors_exit_2_without_a_traceback(db, tmp_path, args, message) -> None:
    (tmp_path / "notes.txt").write_text("plain text, not a database\n" * 20)
    before = sorted(p.name for p in tmp_path.iterdir())
    done = foldgraph(*[a.format(tmp=tmp_path, db=db) for a in args])
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing created


def test_read_commands_change_no_byte(thread_dbs, kind, tmp_path) -> None:
    db = tmp_path / "copy.sqlite"
    shutil.copy(thread_dbs[kind][0], db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    for args in (("threads", db), ("history", db, "t-fork"), ("show", db, "t-done")):
        assert foldgraph(*args, "--json").returncode == 0
    assert foldgraph("export", db, "t-fork").returncode == 0
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite"]


def test_graph_formats(tmp_path) -> None:
    mermaid = foldgraph("graph", GRAPH, "--format", "mermaid")
    assert mermaid.returncode == 0, mermaid.stderr
    assert "agent --> tools;" in mermaid.stdout
    ascii_art = foldgraph("graph", GRAPH)
    assert ascii_art.returncode == 0 and "research" in ascii_art.stdout
    svg = foldgraph("graph", GRAPH, "--format", "svg", "-o", tmp_path / "g.svg")
    assert svg.returncode == 0, svg.stderr
    text = (tmp_path / "g.svg").read_text()
    assert text.startswith("<svg") and 'data-node="review"' in text
    assert 'data-edge="tools->research"' in text
    if shutil.which("dot") is None:
        done = foldgraph("graph", GRAPH, "--format", "png")
        assert done.returncode == 2 and "graphviz" in done.stderr
    else:
        done = foldgraph("graph", GRAPH, "--format", "png", "-o", tmp_path / "g.png")
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")


def test_fork_replay_and_resume(thread_dbs, expected, tmp_path) -> None:
    db = tmp_path / "work.sqlite"
    shutil.copy(thread_dbs["foldgraph"][0], db)
    at_tools = next(s for s in thread_dbs["foldgraph"][1]["t-done"] if s["next"] == ["tools"])
    made = read_json(
        "fork",
        db,
        "t-done",
        at_tools["checkpoint_id"],
        "--graph",
        GRAPH,
        "--values",
        '{"draft": "v2"}',
    )
    assert made["parent_checkpoint_id"] == at_tools["checkpoint_id"]
    forked = read_json("show", db, "t-done", made["checkpoint_id"])
    assert (forked["values"]["draft"], forked["next"], forked["source"]) == (
        "v2",
        ["tools"],
        "update",
    )
    ran = read_json("replay", db, "t-done", made["checkpoint_id"], "--graph", GRAPH)
    assert [list(step) for step in ran["steps"]] == [["tools"], ["research"], ["__interrupt__"]]
    assert read_json("show", db, "t-done")["interrupts"][0]["value"] == {
        "question": "publish?",
        "draft": "v2",
    }
    answered = read_json("resume", db, "t-done", "--graph", GRAPH, "--value", '"ok"')
    assert answered["steps"] == [{"review": {"draft": "v2:ok"}}]
    final = read_json("show", db, "t-done")
    assert (final["values"]["draft"], final["next"]) == ("v2:ok", [])
    again = foldgraph("resume", db, "t-done", "--graph", GRAPH)
    assert again.returncode == 2 and "nothing to resume" in again.stderr


def test_writes_refuse_a_langgraph_database(thread_dbs, tmp_path) -> None:
    db = tmp_path / "lg.sqlite"
    shutil.copy(thread_dbs["langgraph"][0], db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    done = foldgraph("resume", db, "t-fork", "--graph", GRAPH, "--value", '"x"')
    assert done.returncode == 2
    assert "langgraph-sqlite database: foreign databases are opened read-only" in done.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def test_values_of_the_graphs_own_types_read_with_the_graph(tmp_path) -> None:
    typed = str(pathlib.Path(__file__).parents[1] / "ui" / "typed_graph.py")
    db = tmp_path / "typed.sqlite"
    program = (
        "import sys; sys.path.insert(0, sys.argv[2])\n"
        "from typed_graph import Point, graph\n"
        "from foldgraph.checkpoint.sqlite import SqliteSaver\n"
        "with SqliteSaver.from_conn_string(sys.argv[1]) as saver:\n"
        "    g = graph.copy(update={'checkpointer': saver})\n"
        "    g.invoke({'where': Point(1, 2)}, {'configurable': {'thread_id': 'p'}})\n"
    )
    subprocess.run(
        [sys.executable, "-c", program, str(db), str(pathlib.Path(typed).parent)],
        check=True,
        timeout=120,
    )
    blind = foldgraph("show", db, "p", "--json")
    assert blind.returncode == 2
    assert "give the graph (--graph module:attr)" in blind.stderr
    assert "Traceback" not in blind.stderr
    seen = read_json("show", db, "p", "--graph", typed + ":graph")
    assert seen["values"] == {"where": {"$type": "Point", "x": 2, "y": 2}}


def test_human_tables_keep_whole_ids_on_a_narrow_terminal(db) -> None:
    # The ids in `threads` and `history` are what `show`, `diff`, `fork` and `replay` take:
    # on an 80-column terminal they are printed whole, never cut with an ellipsis.
    import os

    narrow = {**os.environ, "COLUMNS": "80"}

    def human(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "foldgraph.cli", *args],
            capture_output=True,
            text=True,
            timeout=120,
            env=narrow,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    ids = [row["checkpoint_id"] for row in read_json("history", db, "t-fork")]
    table = human("history", db, "t-fork")
    assert [i for i in ids if i not in table] == []
    threads = human("threads", db)
    assert [t["thread_id"] for t in read_json("threads", db) if t["thread_id"] not in threads] == []
