"""Benchmarks: foldgraph against LangGraph on the same program text.

Run ``python -m benchmarks`` from the repository root (``make bench``); see
``benchmarks/README.md`` for what each number means. Every workload is written
once against a library handle (:class:`benchmarks._harness.Lib`) that imports
``{root}.graph``, ``{root}.types``, ... so the identical code runs with
``root="foldgraph"`` and ``root="langgraph"``.
"""
