"""v3 run streams: `graph.stream_events(input, version="v3")` and its projections.

The run is read through typed projections built by transformers (`values`,
`messages`, `lifecycle`, `subgraphs`, plus any registered with
`transformers=[...]` on `compile()`, `Pregel(...)` or the call), or as the
raw sequence of `ProtocolEvent`s.
"""

from foldgraph.stream._types import ProtocolEvent, StreamTransformer
from foldgraph.stream.run_stream import (
    AsyncGraphRunStream,
    AsyncSubgraphRunStream,
    GraphRunStream,
    SubgraphRunStream,
)
from foldgraph.stream.stream_channel import StreamChannel
from foldgraph.stream.transformers import (
    CheckpointsTransformer,
    CustomTransformer,
    DebugTransformer,
    LifecyclePayload,
    LifecycleTransformer,
    SubgraphStatus,
    SubgraphTransformer,
    TasksTransformer,
    UpdatesTransformer,
)

__all__ = [
    "AsyncGraphRunStream",
    "AsyncSubgraphRunStream",
    "CheckpointsTransformer",
    "CustomTransformer",
    "DebugTransformer",
    "GraphRunStream",
    "LifecyclePayload",
    "LifecycleTransformer",
    "ProtocolEvent",
    "StreamChannel",
    "StreamTransformer",
    "SubgraphRunStream",
    "SubgraphStatus",
    "SubgraphTransformer",
    "TasksTransformer",
    "UpdatesTransformer",
]
