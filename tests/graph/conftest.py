"""Shared bits of the graph behaviour tests.

Every expected value in tests/graph was produced by running the same program on
LangGraph 1.2.22. Tests marked `foldgraph_only` pin a deliberate difference
from LangGraph (the reason on each says what LangGraph does); they are left out
when the suite is run against LangGraph (`make test-on-langgraph`).
"""
