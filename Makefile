# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-quick bench-compare bench-storage parity conformance \
	test-on-langgraph clean test-load bench-scale

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# PostgreSQL and Redis tests run against throwaway servers (installed from apt when
# missing); the viewer's browser tests use Debian's chromium (installed from apt when missing).
test: $(STAMP)
	.ci/ensure_chromium.sh
	.ci/with_postgres.sh .ci/with_redis.sh $(BIN)/python -m pytest

# The scale-out load test at the issue's full size: 1 000 runs over 200 threads, 2 API
# instances and 3 workers, signals over PostgreSQL and over Redis (CI runs 200 runs).
test-load: $(STAMP)
	FOLDGRAPH_SCALE_RUNS=1000 .ci/with_postgres.sh .ci/with_redis.sh \
		$(BIN)/python -m pytest tests/server/test_scale_load.py -s -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check src tests examples $(wildcard benchmarks tools)
	$(BIN)/ruff format --check src tests examples $(wildcard benchmarks tools)

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Smoke run of every benchmark workload (small sizes, one repeat, one process: seconds).
# Exits 1 when a workload crashes or computes a wrong result; no timing is asserted.
bench-quick: $(STAMP)
	$(BIN)/python -m benchmarks --quick

# Same benchmarks with LangGraph installed beside foldgraph, side by side.
bench-compare: $(STAMP)
	$(BIN)/pip install --quiet 'langgraph>=1.0'
	$(BIN)/python -m benchmarks

# Durable storage: database size, time per step and old reads of the message loop, beside
# LangGraph's SqliteSaver (default channels and DeltaChannel).
bench-storage: $(STAMP)
	$(BIN)/pip install --quiet 'langgraph>=1.0' langgraph-checkpoint-sqlite
	$(BIN)/python -m benchmarks.storage

# The HTTP server: runs/s and latency for 1, 10 and 50 SDK clients, beside `langgraph dev`
# (langgraph-cli[inmem], installed in a virtualenv of its own: it is only a point of comparison).
bench-server: $(STAMP)
	test -x .venv-lgdev/bin/langgraph || ($(PYTHON) -m venv .venv-lgdev && .venv-lgdev/bin/pip install --quiet 'langgraph-cli[inmem]')
	$(BIN)/python -m benchmarks.server --langgraph-dev .venv-lgdev/bin/langgraph

# Scale-out: runs/s with 1, 2 and 4 worker processes (PostgreSQL and Redis signals) and
# per-run overhead against the single-process server; throwaway servers on 127.0.0.1.
bench-scale: $(STAMP)
	.ci/with_postgres.sh .ci/with_redis.sh $(BIN)/python -m benchmarks.scale

# Random graph programs run on foldgraph and LangGraph, outputs and histories compared.
parity: $(STAMP)
	$(BIN)/pip install --quiet 'langgraph>=1.0'
	$(BIN)/python -m tools.parity --count 300
	$(BIN)/python -m tools.parity --count 300 --breakpoints
	$(BIN)/python -m tools.parity --count 300 --asks
	$(BIN)/python -m tools.parity --count 200 --subgraphs --asks
	$(BIN)/python -m tools.parity --count 200 --timetravel --asks
	$(BIN)/python -m tools.parity --count 200 --aio --subgraphs --asks
	$(BIN)/python -m tools.parity --count 200 --errors --asks

# LangGraph's own test suites (its published sdists, downloaded at run time) on foldgraph
# and on LangGraph, per file and in total; `python -m tools.conformance --help` for more.
conformance: $(STAMP)
	$(BIN)/python -m tools.conformance

# The tests not marked foldgraph_only claim LangGraph's values: run them on LangGraph itself
# (the import root `foldgraph` served by `langgraph`, in a virtualenv without foldgraph).
LG_VENV ?= .venv-langgraph
LG_STAMP := $(LG_VENV)/.installed

$(LG_STAMP): Makefile
	$(PYTHON) -m venv $(LG_VENV)
	$(LG_VENV)/bin/pip install --quiet --upgrade pip
	$(LG_VENV)/bin/pip install --quiet langgraph==1.2.22 langgraph-prebuilt==1.1.3 \
		langgraph-checkpoint==4.3.2 langgraph-checkpoint-sqlite==3.1.2 \
		langgraph-checkpoint-postgres==3.2.0 'psycopg[binary]>=3.1' 'psycopg-pool>=3.2' \
		pytest pytest-timeout hypothesis pydantic grandalf pyrsistent attrs
	touch $(LG_STAMP)

test-on-langgraph: $(LG_STAMP)
	.ci/with_postgres.sh $(LG_VENV)/bin/python -m tools.on_langgraph

clean:
	rm -rf $(VENV) $(LG_VENV) .pytest_cache .hypothesis .conformance
