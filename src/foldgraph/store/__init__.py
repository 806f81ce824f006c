"""Long-term memory shared across threads: `foldgraph.store.base` and `.memory`.

Import from the submodules, as with LangGraph:
`from foldgraph.store.base import BaseStore` and
`from foldgraph.store.memory import InMemoryStore`.
"""
