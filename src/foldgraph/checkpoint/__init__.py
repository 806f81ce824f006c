"""Checkpointers: where a graph keeps each step of a thread (`base`, `memory`)."""
