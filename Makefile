# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench bench-compare bench-storage parity conformance clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# PostgreSQL tests run against a throwaway cluster (installed from apt when missing);
# the viewer's browser tests use Debian's chromium (installed from apt when missing).
test: $(STAMP)
	.ci/ensure_chromium.sh
	.ci/with_postgres.sh $(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests examples $(wildcard benchmarks tools)
	$(BIN)/ruff format --check src tests examples $(wildcard benchmarks tools)

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# Same benchmarks with LangGraph installed beside foldgraph, side by side.
bench-compare: $(STAMP)
	$(BIN)/pip install --quiet 'langgraph>=1.0'
	$(BIN)/python -m benchmarks

# Durable storage: database size, time per step and old reads of the message loop, beside
# LangGraph's SqliteSaver (default channels and DeltaChannel).
bench-storage: $(STAMP)
	$(BIN)/pip install --quiet 'langgraph>=1.0' langgraph-checkpoint-sqlite
	$(BIN)/python -m benchmarks.storage

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

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .conformance
