"""Embedding helpers for store indexes: wrap functions as `Embeddings`, and pick the
text to embed out of a stored document by path."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeAlias, cast

from langchain_core.embeddings import Embeddings

__all__ = ["AEmbeddingsFunc", "EmbeddingsFunc", "ensure_embeddings"]

EmbeddingsFunc: TypeAlias = Callable[[Sequence[str]], list[list[float]]]
"""A plain function that embeds a batch of texts."""

AEmbeddingsFunc: TypeAlias = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
"""An async function that embeds a batch of texts."""


class EmbeddingsLambda(Embeddings):
    """Adapts a sync or async `texts -> vectors` function to langchain's `Embeddings`.

    A sync function serves both the sync and async methods; an async one only
    the async methods.
    """

    def __init__(self, func: EmbeddingsFunc | AEmbeddingsFunc) -> None:
        self._func = func
        # An object whose `__call__` is `async def` counts as an async function too.
        self._is_async = inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(
            type(func).__call__
        )

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self._is_async:
            raise ValueError(
                f"The index `embed` function {self._func!r} is async, so it can only be used"
                " from the async store methods (aput, asearch, ...). Use those, or pass a"
                " sync function."
            )
        return cast(EmbeddingsFunc, self._func)(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        if self._is_async:
            return await cast(AEmbeddingsFunc, self._func)(texts)
        return await super().aembed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return (await self.aembed_documents([text]))[0]


def ensure_embeddings(
    embed: Embeddings | EmbeddingsFunc | AEmbeddingsFunc | str | None,
) -> Embeddings:
    """Turn any accepted `IndexConfig["embed"]` value into an `Embeddings` object.

    Stores then only deal with one interface, whatever the user passed.

    Example:
        >>> ensure_embeddings(lambda texts: [[1.0] for _ in texts]).embed_query("hi")
        [1.0]
    """
    if embed is None:
        raise ValueError("embed must be provided")
    if isinstance(embed, Embeddings):
        return embed
    if isinstance(embed, str):
        try:
            from langchain.embeddings import init_embeddings  # type: ignore[import-not-found]
        except ImportError as exc:
            raise ImportError(
                f"Using a provider string ({embed!r}) as `embed` needs the `langchain`"
                " package. Install it, or pass an Embeddings object or a function."
            ) from exc
        return cast(Embeddings, init_embeddings(embed))
    if callable(embed):
        return EmbeddingsLambda(embed)
    raise TypeError(
        f"Index `embed` must be an Embeddings object, a function of a list of texts, or a"
        f" 'provider:model' string, got {type(embed).__name__}."
    )


def tokenize_path(path: str) -> list[str]:
    """Split a field path into tokens: `"a.b[0].c"` -> `["a", "b", "[0]", "c"]`.

    Dots inside `[...]` and `{...}` do not split, so `"{a,b.c}"` stays one token.

    Example:
        >>> tokenize_path("messages[*].content")
        ['messages', '[*]', 'content']
    """
    tokens: list[str] = []
    current: list[str] = []
    depth = 0
    for char in path:
        if char in "[{":
            if depth == 0 and current and char == "[":
                tokens.append("".join(current))
                current = []
            depth += 1
            current.append(char)
        elif char in "]}":
            depth -= 1
            current.append(char)
            if depth == 0 and char == "]":
                tokens.append("".join(current))
                current = []
        elif char == "." and depth == 0:
            if current:
                tokens.append("".join(current))
            current = []
        else:
            current.append(char)
    if current:
        tokens.append("".join(current))
    return tokens


def _to_text(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict | list | tuple):
        return [json.dumps(value, sort_keys=True)]
    return [str(value)]


def _texts_from(obj: Any, tokens: Sequence[str]) -> list[str]:
    if not tokens:
        return _to_text(obj)
    token, rest = tokens[0], tokens[1:]
    if token.startswith("{") and token.endswith("}"):
        texts: list[str] = []
        for alternative in token[1:-1].split(","):
            texts.extend(_texts_from(obj, [*tokenize_path(alternative.strip()), *rest]))
        return texts
    if token.startswith("[") and token.endswith("]"):
        if not isinstance(obj, list | tuple):
            return []
        index = token[1:-1]
        if index == "*":
            return [text for element in obj for text in _texts_from(element, rest)]
        try:
            return _texts_from(obj[int(index)], rest)
        except (ValueError, IndexError):
            return []
    if not isinstance(obj, dict):
        return []
    if token == "*":
        return [text for element in obj.values() for text in _texts_from(element, rest)]
    if token not in obj:
        return []
    return _texts_from(obj[token], rest)


def get_text_at_path(obj: Any, path: str | list[str]) -> list[str]:
    """Collect the texts a field path points to inside a document.

    Strings come back as-is, numbers and booleans via `str`, dicts and lists
    as sorted-key JSON; missing fields and `None` yield nothing. `"$"` is the
    whole document. `[n]`, `[-1]` and `[*]` index lists, `*` fans out over a
    dict's values and `{a,b.c}` unions several paths.

    Example:
        >>> get_text_at_path({"a": [{"t": "x"}, {"t": "y"}]}, "a[*].t")
        ['x', 'y']
    """
    if path == "$" or path == ["$"]:
        return _to_text(obj)
    tokens = tokenize_path(path) if isinstance(path, str) else path
    return _texts_from(obj, tokens)
