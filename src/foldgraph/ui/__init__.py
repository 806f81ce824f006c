"""The viewer and the read model behind it and the command line.

`open_source(path_or_url)` reads threads, history pages, checkpoints and
diffs from foldgraph's and LangGraph's checkpoint databases or a running
server (`foldgraph.ui.source`); `create_app(...)` is the viewer's ASGI app
(`foldgraph.ui.app`). Nothing below the app layer imports this package.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "open_source"]


def open_source(target: Any, **kwargs: Any) -> Any:
    """See `foldgraph.ui.source.open_source`."""
    from foldgraph.ui.source import open_source as _open

    return _open(target, **kwargs)


def create_app(*args: Any, **kwargs: Any) -> Any:
    """See `foldgraph.ui.app.create_app`."""
    from foldgraph.ui.app import create_app as _create

    return _create(*args, **kwargs)
