"""Node-result caches: `foldgraph.cache.base` and `.memory`.

Import from the submodules, as with LangGraph:
`from foldgraph.cache.memory import InMemoryCache`.
"""
