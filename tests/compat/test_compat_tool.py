"""`python -m tools.compat`: a difference fails the command, and goldens come from LangGraph.

The comparisons here run on temporary copies of golden files; the committed ones are
never touched.
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
compat: Any = importlib.import_module("tools.compat")

pytestmark = pytest.mark.foldgraph_only(
    "tools.compat runs the corpus on foldgraph through a langgraph -> foldgraph alias"
)

PROGRAM = "async_graph"


def _copy_golden(tmp_path: Path) -> Path:
    golden = tmp_path / "golden"
    golden.mkdir()
    shutil.copy(compat.GOLDEN / f"{PROGRAM}.json", golden)
    return golden / f"{PROGRAM}.json"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_match_exits_0_and_an_edited_golden_exits_1(tmp_path: Path, capsys: Any) -> None:
    path = _copy_golden(tmp_path)
    assert compat.main([PROGRAM, "--golden", str(path.parent)]) == 0
    out = capsys.readouterr().out
    assert f"{PROGRAM}  match" in out
    assert "golden files recorded with LangGraph 1.2.22" in out

    data = json.loads(path.read_text())
    data["record"]["counted"]["count"] += 1
    path.write_text(json.dumps(data))
    assert compat.main([PROGRAM, "--golden", str(path.parent)]) == 1
    out = capsys.readouterr().out
    assert f"{PROGRAM}  differs   $.counted.count: expected 41, got 40" in out
    assert "0 of 1 programs match LangGraph (0%)" in out


def test_a_golden_without_its_langgraph_version_exits_1(tmp_path: Path, capsys: Any) -> None:
    path = _copy_golden(tmp_path)
    path.write_text(compat.dumps(json.loads(path.read_text())["record"]))
    assert compat.main([PROGRAM, "--golden", str(path.parent)]) == 1
    assert f"{PROGRAM}  unstamped" in capsys.readouterr().out


def test_a_missing_golden_exits_1(tmp_path: Path, capsys: Any) -> None:
    assert compat.main([PROGRAM, "--golden", str(tmp_path)]) == 1
    assert f"{PROGRAM}  no golden" in capsys.readouterr().out


def test_foldgraph_served_as_langgraph_is_refused_as_the_reference() -> None:
    with compat.langgraph_is_foldgraph(), pytest.raises(compat.NotRealLangGraph) as info:
        compat.real_langgraph_version()
    assert "langgraph is served by foldgraph through an import alias" in str(info.value)


def test_record_refuses_an_interpreter_whose_langgraph_is_foldgraph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # FOLDGRAPH_AS_LANGGRAPH=1 makes every interpreter start serve langgraph from
    # foldgraph (foldgraph.alias, through its .pth file): recording with it writes nothing.
    monkeypatch.setenv("FOLDGRAPH_AS_LANGGRAPH", "1")
    golden = tmp_path / "golden"
    assert compat.record_golden([PROGRAM], sys.executable, golden) == 2
    err = capsys.readouterr().err
    assert err.startswith("refusing to record: ")
    assert "through an import alias" in err
    assert not golden.exists()


def test_every_golden_says_which_langgraph_recorded_it() -> None:
    versions = {compat.read_golden(name)[0] for name in compat.program_names()}
    assert versions == {"1.2.22"}
