"""`foldgraph check-reducer` and `bench.check_reducer`: laws, counterexamples, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from foldgraph.bench import NoStrategy, check_reducer, resolve
from foldgraph.cli import main

pytestmark = pytest.mark.foldgraph_only("foldgraph check-reducer, foldgraph's own command")

EXAMPLES = ["--examples", "30"]


def test_a_lawful_reducer_holds_every_law_and_exits_0(user_dir: Path, capsys) -> None:
    assert main(["check-reducer", "user_reducers:merge_scores", *EXAMPLES]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "check-reducer user_reducers:merge_scores: 30 examples per law, "
        "values drawn from dict[str, int]"
    )
    for law in ("left identity", "right identity", "associativity", "batch fold"):
        assert [line.split() for line in out.splitlines() if line.strip().startswith(law)] == [
            [*law.split(), "holds"]
        ]
    # Commutativity is only reported (it decides no exit code): not asserted here, since
    # a search this small may or may not meet two dicts that disagree on a key.
    assert out.rstrip().endswith("lawful: every required law holds")


def test_a_non_associative_reducer_is_caught_with_a_minimal_counterexample(
    user_dir: Path, capsys
) -> None:
    assert main(["check-reducer", "user_reducers:minus", *EXAMPLES]) == 1
    out = capsys.readouterr().out
    assert "  associativity   FAILS\n" in out
    assert (
        "The associativity law does not hold for reducer 'minus': "
        "reducer(reducer(a, b), c) == reducer(a, reducer(b, c))" in out
    )
    # hypothesis shrinks to the smallest values that show it: a - b - c != a - (b - c)
    # first differs when c is +-1 and the rest are 0.
    block = out.split("The associativity law")[1].split("batch fold")[0]
    assert "a = 0" in block and "b = 0" in block and ("c = 1" in block or "c = -1" in block)
    assert out.rstrip().endswith(
        "NOT lawful: left identity, associativity failed (counterexamples above, "
        "shrunk by hypothesis)"
    )


def test_a_reducer_without_an_identity_is_caught(user_dir: Path, capsys) -> None:
    assert main(["check-reducer", "user_reducers:plus_one", *EXAMPLES]) == 1
    out = capsys.readouterr().out
    assert "  left identity   FAILS\n" in out and "  right identity  FAILS\n" in out
    assert (
        "The left identity law does not hold for reducer 'plus_one': "
        "reducer(empty, a) == a\n        a = 0\n        left side:  1\n"
        "        right side: 0" in out
    )
    assert "  associativity   holds\n" in out


def test_an_import_path_that_does_not_resolve_exits_2(user_dir: Path, capsys) -> None:
    assert main(["check-reducer", "no_such_module:merge"]) == 2
    assert capsys.readouterr().err == (
        "foldgraph check-reducer: error: cannot import module 'no_such_module': "
        "No module named 'no_such_module'\n"
    )
    assert main(["check-reducer", "user_reducers:nope"]) == 2
    assert "module 'user_reducers' has no attribute 'nope'" in capsys.readouterr().err
    assert main(["check-reducer", "user_reducers"]) == 2
    assert "is not an import path: write it as module:attr" in capsys.readouterr().err
    assert main(["check-reducer", "user_reducers:not_a_reducer"]) == 2
    assert "is a int, not a reducer" in capsys.readouterr().err


def test_a_reducer_without_type_hints_needs_a_strategy(user_dir: Path, capsys) -> None:
    assert main(["check-reducer", "user_reducers:untyped"]) == 2
    err = capsys.readouterr().err
    assert "cannot draw values for user_reducers:untyped" in err
    assert "pass --strategy module:attr" in err
    args = ["check-reducer", "user_reducers:untyped", "--strategy", "user_reducers:small_ints"]
    assert main([*args, *EXAMPLES]) == 0
    out = capsys.readouterr().out
    assert "values drawn from user_reducers:small_ints" in out
    # No type hint, so no empty value: the identity laws do not apply.
    assert "left identity   n/a (no empty value for type None" in out


def test_the_api_reports_each_law() -> None:
    with pytest.raises(NoStrategy):
        check_reducer(lambda a, b: a, examples=5)
    report = check_reducer(resolve("operator:add"), typ=list, values=_lists(), examples=30)
    assert report.lawful
    assert [r.law for r in report.results] == [
        "identity",
        "left identity",
        "right identity",
        "associativity",
        "agreement",
        "batch fold",
        "batch split",
        "commutativity",
    ]
    assert [r.holds for r in report.results][-1] is False  # appending does not commute


def test_add_messages_is_lawful_on_messages_with_ids() -> None:
    from foldgraph.graph.message import add_messages

    report = check_reducer(add_messages, examples=30)
    assert report.values == "lists of chat messages (ids distinct within a list)"
    assert report.lawful, [r.counterexample for r in report.failures]


def _lists():
    from hypothesis import strategies as st

    return st.lists(st.integers(), max_size=4)


def test_a_reducer_is_named_by_its_file_as_graph_paths_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    # `--graph` takes path/to/file.py:attr; the reducer commands take the same spelling,
    # so a reducer in a script that is not an importable module name can be checked.
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "07_scores.py").write_text(
        "def best(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:\n"
        "    return {**a, **{k: max(v, a.get(k, v)) for k, v in b.items()}}\n"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check-reducer", "scripts/07_scores.py:best", *EXAMPLES]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "check-reducer scripts/07_scores.py:best: 30 examples per law, "
        "values drawn from dict[str, int]"
    )
    assert resolve(str(folder / "07_scores.py") + ":best")({"a": 1}, {"a": 3}) == {"a": 3}
    assert main(["check-reducer", "scripts/missing.py:best"]) == 2
    assert capsys.readouterr().err == (
        "foldgraph check-reducer: error: cannot import module 'scripts/missing.py': "
        "no file scripts/missing.py\n"
    )
