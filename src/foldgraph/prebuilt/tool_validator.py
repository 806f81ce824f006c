"""`ValidationNode`: check the model's tool calls against schemas instead of running tools.

For extraction loops: each call becomes a `ToolMessage` holding the validated
arguments as JSON, or the validation error (marked `is_error`) for the model
to fix. Pydantic v1 and v2 schemas, tools and plain functions are accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from langchain_core.messages import AIMessage, AnyMessage, ToolCall, ToolMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config, get_executor_for_config
from langchain_core.tools import BaseTool, create_schema_from_function
from langchain_core.utils.pydantic import is_basemodel_subclass
from pydantic import BaseModel, ValidationError
from pydantic.v1 import BaseModel as BaseModelV1
from pydantic.v1 import ValidationError as ValidationErrorV1
from typing_extensions import deprecated

from foldgraph.utils.runnable import RunnableCallable  # noqa: F401 - importable from here, as in LangGraph
from foldgraph.warnings import LangGraphDeprecatedSinceV10

__all__ = ["ValidationNode"]


def _default_format_error(
    error: BaseException, call: ToolCall, schema: type[BaseModel] | type[BaseModelV1]
) -> str:
    return f"{error!r}\n\nRespond after fixing all validation errors."


@deprecated(
    "ValidationNode is deprecated. Please use `create_agent` from `langchain.agents` with "
    "custom tool error handling.",
    category=LangGraphDeprecatedSinceV10,
)
class ValidationNode(Runnable[Any, Any]):
    """Validate every tool call of the last `AIMessage` against its schema.

    >>> builder.add_node("validation", ValidationNode([SelectNumber]))
    """

    def __init__(
        self,
        schemas: Sequence[BaseTool | type[BaseModel] | Callable[..., Any]],
        *,
        format_error: Callable[[BaseException, ToolCall, type[BaseModel]], str] | None = None,
        name: str = "validation",
        tags: list[str] | None = None,
    ) -> None:
        self.name = name
        self.tags = tags
        self._format_error = format_error or _default_format_error
        self.schemas_by_name: dict[str, type[BaseModel]] = {}
        for schema in schemas:
            if isinstance(schema, BaseTool):
                if schema.args_schema is None:
                    raise ValueError(f"Tool {schema.name} does not have an args_schema defined.")
                if not isinstance(schema.args_schema, type) or not is_basemodel_subclass(
                    schema.args_schema
                ):
                    raise ValueError(
                        "Validation node only works with tools that have a pydantic BaseModel "
                        f"args_schema. Got {schema.name} with args_schema: {schema.args_schema}."
                    )
                self.schemas_by_name[schema.name] = schema.args_schema
            elif isinstance(schema, type) and issubclass(schema, BaseModel | BaseModelV1):
                self.schemas_by_name[schema.__name__] = cast(type[BaseModel], schema)
            elif callable(schema):
                self.schemas_by_name[schema.__name__] = create_schema_from_function(
                    "Validation", schema
                )
            else:
                raise ValueError(
                    "Unsupported input to ValidationNode. Expected BaseModel, tool or function. "
                    f"Got: {type(schema)}."
                )

    def _last_message(self, input: Any) -> tuple[str, AIMessage]:
        if isinstance(input, list):
            output_type, messages = "list", input
        elif messages := input.get("messages", []):
            output_type = "dict"
        else:
            raise ValueError("No message found in input")
        message: AnyMessage = messages[-1]
        if not isinstance(message, AIMessage):
            raise ValueError("Last message is not an AIMessage")
        return output_type, message

    def _validate(self, call: ToolCall) -> ToolMessage:
        schema = self.schemas_by_name[call["name"]]
        try:
            if issubclass(schema, BaseModel):
                content = schema.model_validate(call["args"]).model_dump_json()
            elif issubclass(schema, BaseModelV1):
                content = schema.validate(call["args"]).json()
            else:
                raise ValueError(
                    f"Unsupported schema type: {type(schema)}. Expected BaseModel or BaseModelV1."
                )
            return ToolMessage(content=content, name=call["name"], tool_call_id=call["id"])
        except (ValidationError, ValidationErrorV1) as e:
            return ToolMessage(
                content=self._format_error(e, call, schema),
                name=call["name"],
                tool_call_id=cast(str, call["id"]),
                additional_kwargs={"is_error": True},
            )

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        output_type, message = self._last_message(input)
        with get_executor_for_config(ensure_config(config)) as executor:
            outputs = list(executor.map(self._validate, message.tool_calls))
        return outputs if output_type == "list" else {"messages": outputs}
