"""Older import paths LangGraph programs still use (`langgraph.utils.*`)."""
