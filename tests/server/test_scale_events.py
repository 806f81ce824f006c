"""The thread event protocol on a deployment: `test_events.py`'s tests, driven through a
load balancer in front of two API instances while the runs execute on workers, so each
event reaches the client through the queue's signals (PostgreSQL's or Redis's)."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest
from cluster import Cluster, cluster, fresh_database, redis_url
from test_events import (  # noqa: F401 - collected here again, with this module's server
    test_a_run_on_the_wire_and_replay_since,
    test_async_sdk_values_messages_and_output,
    test_bad_commands_get_the_protocols_errors,
    test_projections_a_graph_compiled_with_transformers_streams,
    test_remote_graph_stream_events_v3,
    test_state_commands_and_agent_tree,
    test_subgraphs_and_a_failing_run,
    test_sync_sdk_turns_on_one_thread_each_read_their_own_run,
    test_websocket_subscriptions,
)

pytestmark = pytest.mark.timeout(120)

PROJECT = pathlib.Path(__file__).parent / "project" / "langgraph.json"


@pytest.fixture(scope="module", params=["postgres", "redis"])
def server(request, tmp_path_factory) -> Iterator[object]:
    """The balancer's address, as test_events' tests expect of a server (`.url`)."""
    with fresh_database() as db:
        redis = redis_url() if request.param == "redis" else None
        log_dir = tmp_path_factory.mktemp("events")
        made: Cluster
        with cluster(db, log_dir, apis=2, workers=2, redis=redis, project=PROJECT) as made:
            yield made.balancer
