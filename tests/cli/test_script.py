"""The `foldgraph` console script: subcommands are found, errors exit 2 without a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from foldgraph.cli import CommandError, main

pytestmark = pytest.mark.foldgraph_only(
    "the foldgraph console script; LangGraph's CLI is another package"
)


def test_version_prints_the_package_version(capsys) -> None:
    from foldgraph import __version__

    assert main(["version"]) == 0
    assert capsys.readouterr().out == f"foldgraph {__version__}\n"


def test_no_command_prints_help_and_exits_2(capsys) -> None:
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


def test_a_command_error_exits_2_with_its_message(monkeypatch, capsys) -> None:
    import foldgraph.cli.cmd_version as cmd

    def broken(args):
        raise CommandError("no such thread 't1'")

    monkeypatch.setattr(cmd, "_run", broken)
    assert main(["version"]) == 2
    err = capsys.readouterr().err
    assert err == "foldgraph version: error: no such thread 't1'\n"


def test_the_module_runs_as_a_script() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "foldgraph.cli", "version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.startswith("foldgraph ")
