"""The LangGraph Server HTTP API, served by foldgraph (`foldgraph dev`, `foldgraph serve`).

`create_app(config, options)` builds the ASGI app; storage, the run queue and its
signals, the graphs, the executor and the routes live in the modules beside it.
Its dependencies come with `pip install 'foldgraph[server]'`.
"""
