"""LangGraph's private module paths, for packages built on LangGraph.

`langchain` (`create_agent`), `deepagents`, `langgraph-supervisor` and
`langgraph-swarm` import a few names from `langgraph._internal`; under
`foldgraph.alias` those imports land here. Each module holds only those names
(and their close kin), mostly re-exported from where foldgraph keeps them.
Your own code should use the public paths.
"""
