"""Embedding helpers for store indexes: wrap functions as `Embeddings`, and pick the
text to embed out of a stored document by path."""

from foldgraph.store.base import (  # noqa: F401
    AEmbeddingsFunc,
    EmbeddingsFunc,
    EmbeddingsLambda,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

__all__ = ["AEmbeddingsFunc", "EmbeddingsFunc", "ensure_embeddings"]
