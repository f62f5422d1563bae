# Every install step lives here, so a fresh machine needs nothing done by hand.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install browser postgres phoenix demo test lint typecheck schema bench bench-peers clean

NPM_SERVERS := tests/servers/npm

$(STAMP): pyproject.toml $(NPM_SERVERS)/package-lock.json
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# real third-party MCP servers from npm for the tests (server-everything, filesystem, memory, ...)
	cd $(NPM_SERVERS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(STAMP)

install: $(STAMP)

## Run the quickstart suite: offline, no API key.
demo: $(STAMP)
	$(BIN)/mcptest run examples/quickstart/mcptest.yml

## Debian's chromium, for the test that loads the HTML report in a real browser (best effort: it skips without).
browser:
	@command -v chromium >/dev/null || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		echo "chromium could not be installed: the HTML report's browser test will skip"

## Debian's PostgreSQL server, for the history store's tests against a real server (best effort: they skip without).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; } || \
		echo "postgresql could not be installed: the history store's PostgreSQL tests will skip"

## Arize Phoenix (the OpenTelemetry backend tests/otel/test_phoenix.py exports to and imports from) and what its
## instrumented agent uses (openai, openinference-instrumentation-openai, mcp), pinned in a requirements file: a venv
## of its own, ~850 MB with its own pins of OpenTelemetry, SQLAlchemy and grpc, a test dependency only, never one of
## mcptest's. Built once (about 3.5 min from PyPI) and kept until the pins change.
PHOENIX := .venv-phoenix
PHOENIX_PINS := tests/otel/phoenix-requirements.txt
$(PHOENIX)/.installed: $(PHOENIX_PINS)
	rm -rf $(PHOENIX)
	$(PYTHON) -m venv $(PHOENIX)
	$(PHOENIX)/bin/python -m pip install --quiet --no-deps -r $(PHOENIX_PINS)
	touch $@

phoenix: $(PHOENIX)/.installed

## Run the whole test suite, on two workers (pytest-xdist): most tests wait on server subprocesses, so two
## workers on two cores took the suite from 21 to 14 minutes (and tests/forkserver.py's forked CLI runs to ~9).
## Bytecode is compiled first and may be cached: the suite starts Python hundreds of times, and a machine that sets
## PYTHONDONTWRITEBYTECODE (this one does) would otherwise have each process compile mcptest from source again.
test: $(STAMP) browser postgres phoenix
	$(BIN)/python -m compileall -q -j 0 mcptest tests >/dev/null
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n 2 --durations=30

lint: $(STAMP)
	$(BIN)/ruff check mcptest tests benchmarks
	$(BIN)/ruff format --check mcptest tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

## Regenerate the JSON Schemas in schema/ from the models.
schema: $(STAMP)
	$(BIN)/python -m mcptest.schemas write

## Print every benchmark's figures.
bench: $(STAMP)
	for script in benchmarks/[!_]*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

## The peer tools the lint is timed against (mcp-quality), in a venv of their own so none of their packages or pytest
## plugins reach mcptest's; then the lint figures side by side.
PEERS := .venv-peers
$(PEERS)/.installed:
	$(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install --quiet mcp-quality
	touch $@

bench-peers: $(STAMP) $(PEERS)/.installed
	$(BIN)/python benchmarks/goals.py --only lint --peers $(PEERS)/bin

clean:
	rm -rf $(VENV) $(PEERS) $(PHOENIX) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
