"""Rich renderings shared by `show`, `diff` and `replay`: transcripts, trees, diffs."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["is_transcript", "print_diff", "print_transcript", "print_value"]

_ROLES = {"human": "blue", "ai": "green", "tool": "magenta", "system": "yellow"}


def is_transcript(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(m, dict) and "content" in m and "type" in m for m in value)
    )


def _content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [b.get("text", "") if isinstance(b, dict) else str(b) for b in content]
        return "\n".join(p for p in parts if p)
    return json.dumps(content, ensure_ascii=False)


def print_transcript(console: Any, messages: list[dict[str, Any]]) -> None:
    from rich.markup import escape

    for m in messages:
        role = m.get("type", "message")
        name = f" ({m['name']})" if m.get("name") else ""
        colour = _ROLES.get(role, "white")
        console.print(
            f"[bold {colour}]{escape(role)}{escape(name)}[/]: {escape(_content(m.get('content')))}"
        )
        for call in m.get("tool_calls") or ():
            args = json.dumps(call.get("args"), ensure_ascii=False)
            name, call_id = escape(str(call.get("name"))), escape(str(call.get("id")))
            console.print(f"    [magenta]-> {name}[/]({escape(args)})  [dim]{call_id}[/]")
        if role == "tool" and m.get("tool_call_id"):
            console.print(f"    [dim]answers {escape(str(m['tool_call_id']))}[/]")


def print_value(console: Any, key: str, value: Any) -> None:
    from rich.markup import escape
    from rich.pretty import Pretty

    if is_transcript(value):
        console.print(f"[bold]{escape(key)}[/] ({len(value)} messages)")
        print_transcript(console, value)
    else:
        console.print(f"[bold]{escape(key)}[/]:", Pretty(value, expand_all=False))


def print_diff(console: Any, diff: dict[str, Any]) -> None:
    from rich.markup import escape

    def show(v: Any) -> str:
        return escape(json.dumps(v, ensure_ascii=False, default=str))

    for path, value in diff["removed"].items():
        console.print(f"[red]- {escape(path)}: {show(value)}[/]")
    for path, value in diff["added"].items():
        console.print(f"[green]+ {escape(path)}: {show(value)}[/]")
    for path, change in diff["changed"].items():
        old, new = show(change["old"]), show(change["new"])
        console.print(f"[yellow]~ {escape(path)}[/]: [red]{old}[/] -> [green]{new}[/]")
    if not (diff["removed"] or diff["added"] or diff["changed"]):
        console.print("[dim]no difference[/]")
