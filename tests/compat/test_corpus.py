"""Real LangGraph programs run unchanged on foldgraph and show what LangGraph shows.

Every program under ``programs/`` is run here with the import root ``langgraph``
served by foldgraph, and its record is compared with ``golden/<name>.json``, the
record LangGraph produced (``python -m tools.compat --record``). LangGraph is never
needed here.

A program that does not run or does not match yet is listed in KNOWN_GAPS with what
fails and which open area closes it. Those are strict xfails: the day a gap closes,
its test turns red until the entry is removed, so the list stays honest.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
compat: Any = importlib.import_module("tools.compat")

# program -> what fails today, and which open area closes it.
KNOWN_GAPS: dict[str, str] = {}

PROGRAM_TIMEOUT_S = 60


def _param(name: str) -> Any:
    if name in KNOWN_GAPS:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[name]))
    return name


# The programs keep their deprecated spellings (config_schema=, create_react_agent):
# the warnings they raise are expected, as on LangGraph.
@pytest.mark.foldgraph_only("runs each program on foldgraph; the goldens are LangGraph's records")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.timeout(PROGRAM_TIMEOUT_S)
@pytest.mark.parametrize("name", [_param(n) for n in compat.program_names()])
def test_program_matches_langgraph(name: str) -> None:
    expected = compat.load_golden(name)
    actual = compat.run_on_foldgraph(name)
    assert actual == expected, compat.first_difference(expected, actual)


def test_every_program_has_a_golden_record() -> None:
    names = compat.program_names()
    missing = [n for n in names if not (compat.GOLDEN / f"{n}.json").exists()]
    assert missing == []
    stale = sorted(p.stem for p in compat.GOLDEN.glob("*.json") if p.stem not in names)
    assert stale == []


def test_known_gaps_name_real_programs() -> None:
    assert sorted(set(KNOWN_GAPS) - set(compat.program_names())) == []


def test_the_corpus_is_large_enough_to_measure() -> None:
    assert len(compat.program_names()) >= 15


def test_normalise_numbers_ids_by_first_appearance_and_keeps_identity() -> None:
    a = "1f0b7c1e-3c4d-6e5f-8a9b-0c1d2e3f4a5b"
    b = "00112233445566778899aabbccddeeff"
    record = {"x": [a, f"lc_run--{a}", b], "y": {b: "t 2025-01-02T03:04:05.123456+00:00"}}
    assert compat.normalise(record) == {
        "x": ["<id:1>", "lc_run--<id:1>", "<id:2>"],
        "y": {"<id:2>": "t <time>"},
    }


def test_records_of_messages_and_records_are_plain_json() -> None:
    from langchain_core.messages import AIMessage, ToolMessage

    ai = AIMessage("", id="m1", tool_calls=[{"name": "f", "args": {"a": 1}, "id": "c1"}])
    tool = ToolMessage("done", tool_call_id="c1", name="f")
    assert compat.to_jsonable({"m": (ai, tool), "s": {2, 1}}) == {
        "m": [
            {
                "type": "ai",
                "content": "",
                "id": "m1",
                "tool_calls": [{"name": "f", "args": {"a": 1}, "id": "c1"}],
            },
            {"type": "tool", "content": "done", "name": "f", "tool_call_id": "c1"},
        ],
        "s": [1, 2],
    }


@pytest.mark.foldgraph_only("the langgraph -> foldgraph import alias of tools.compat")
def test_langgraph_imports_are_served_by_foldgraph_only_inside_the_block() -> None:
    import foldgraph.graph

    with compat.langgraph_is_foldgraph():
        module = importlib.import_module("langgraph.graph")
        assert module is foldgraph.graph
        with pytest.raises(ModuleNotFoundError, match=r"foldgraph\.no_such_module"):
            importlib.import_module("langgraph.no_such_module")
    assert "langgraph.graph" not in sys.modules or sys.modules["langgraph.graph"] is not module
