"""What a tool returned, as `ToolNode` outputs it: content, `Command` checks, combining."""

from __future__ import annotations

import json
from copy import deepcopy
from typing import Any, cast

from langchain_core.messages import RemoveMessage, ToolCall, ToolMessage, convert_to_messages
from langchain_core.tools.base import TOOL_MESSAGE_BLOCK_TYPES

from foldgraph.graph.message import REMOVE_ALL_MESSAGES
from foldgraph.prebuilt._tool_requests import InputType
from foldgraph.types import Command, Send


def msg_content_output(output: Any) -> str | list[dict]:
    """A tool's return value as `ToolMessage` content.

    Strings and lists of content blocks pass as they are; anything else is JSON
    (non-ASCII kept as is), or `str()` when it is not JSON-encodable.
    """
    if isinstance(output, str):
        return output
    if isinstance(output, list) and all(
        isinstance(x, dict) and x.get("type") in TOOL_MESSAGE_BLOCK_TYPES for x in output
    ):
        return output
    try:
        return json.dumps(output, ensure_ascii=False)
    except Exception:
        return str(output)


class ToolOutputShaping:
    """`ToolNode`'s outputs: a tool's return checked and shaped (`ToolMessage`, `Command`,
    lists of them), and a call's outputs combined (its fields are `ToolNode`'s)."""

    __slots__ = ()

    def _normalize(self, response: Any, call: ToolCall, input_type: InputType) -> Any:
        if isinstance(response, Command):
            return self._validate_command(response, call, input_type)
        if isinstance(response, ToolMessage):
            content = msg_content_output(response.content)
            if content is not response.content:  # a str (the usual) is kept as it is
                response.content = cast("str | list", content)
            return response
        if isinstance(response, list):
            if all(isinstance(r, Command | ToolMessage) for r in response):
                return self._validate_command_list(response, call, input_type)
            raise TypeError(
                f"Tool {call['name']} returned a list with invalid element types: "
                "expected all Command or ToolMessage"
            )
        raise TypeError(f"Tool {call['name']} returned unexpected type: {type(response)}")

    def _validate_command_list(
        self, response: list[Any], call: ToolCall, input_type: InputType
    ) -> list[Any]:
        expected = call["id"]
        count = 0
        for item in response:
            if isinstance(item, ToolMessage):
                count += item.tool_call_id == expected
            elif isinstance(item, Command) and isinstance(item.update, dict):
                for msg in item.update.get(self._messages_key, []):
                    count += isinstance(msg, ToolMessage) and msg.tool_call_id == expected
        if count != 1:
            raise ValueError(
                f"Tool {call['name']} returned a list with {count} messages bound to "
                f"tool_call_id {expected!r}; expected exactly one terminating ToolMessage."
            )
        out: list[Any] = []
        for item in response:
            if isinstance(item, Command):
                out.append(self._validate_command(item, call, input_type, require_terminator=False))
            else:
                item.content = cast("str | list", msg_content_output(item.content))
                out.append(item)
        return out

    def _validate_command(
        self,
        command: Command,
        call: ToolCall,
        input_type: InputType,
        *,
        require_terminator: bool = True,
    ) -> Command:
        if isinstance(command.update, dict):
            if input_type not in ("dict", "tool_calls"):
                raise ValueError(
                    "Tools can provide a dict in Command.update only when using dict with "
                    f"'{self._messages_key}' key as ToolNode input, got: {command.update} "
                    f"for tool '{call['name']}'"
                )
            checked = deepcopy(command)
            messages = (cast(dict, checked.update) or {}).get(self._messages_key, [])
        elif isinstance(command.update, list):
            if input_type != "list":
                raise ValueError(
                    "Tools can provide a list of messages in Command.update only when using "
                    f"list of messages as ToolNode input, got: {command.update} for tool "
                    f"'{call['name']}'"
                )
            checked = deepcopy(command)
            messages = checked.update
        else:
            return command
        messages = convert_to_messages(messages)
        if messages == [RemoveMessage(id=REMOVE_ALL_MESSAGES)]:
            return checked
        matched = False
        for message in messages:
            if isinstance(message, ToolMessage) and message.tool_call_id == call["id"]:
                message.name = call["name"]
                matched = True
        if require_terminator and checked.graph is None and not matched:
            example = (
                '`Command(update={"messages": '
                '[ToolMessage("Success", tool_call_id=tool_call_id), ...]}, ...)`'
                if input_type == "dict"
                else '`Command(update=[ToolMessage("Success", tool_call_id=tool_call_id), ...]'
                ", ...)`"
            )
            raise ValueError(
                f"Expected to have a matching ToolMessage in Command.update for tool "
                f"'{call['name']}', got: {messages}. Every tool call (LLM requesting to call "
                "a tool) in the message history MUST have a corresponding ToolMessage. "
                f"You can fix it by modifying the tool to return {example}."
            )
        return checked

    def _combine_outputs(self, outputs: list[Any], input_type: InputType) -> Any:
        flat: list[Any] = []
        for output in outputs:
            if isinstance(output, list):
                flat.extend(output)
            else:
                flat.append(output)
        if not any(isinstance(o, Command) for o in flat):
            return flat if input_type == "list" else {self._messages_key: flat}
        combined: list[Any] = []
        parent: Command | None = None
        for output in flat:
            if not isinstance(output, Command):
                wrapped = [output] if input_type == "list" else {self._messages_key: [output]}
                combined.append(wrapped)
            elif (
                output.graph == Command.PARENT
                and isinstance(output.goto, list)
                and all(isinstance(s, Send) for s in output.goto)
            ):
                # Sends to the parent graph from several calls travel as one command.
                gotos = [*cast(list, parent.goto), *output.goto] if parent else output.goto
                parent = Command(graph=Command.PARENT, goto=gotos)
            else:
                combined.append(output)
        if parent is not None:
            combined.append(parent)
        return combined
