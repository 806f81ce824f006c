"""Serialization for durable savers: one converter, an allowlist of types, no pickle.

Module names follow LangGraph's `langgraph.checkpoint.serde`: `base`
(protocols), `jsonplus` (`JsonPlusSerializer`, the default), `encrypted`,
`types`, `event_hooks`. The codec itself lives in `_codec`.
"""
