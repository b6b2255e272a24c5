# Set-up and everyday commands. Everything installs into .venv from the project's own files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: run demo test lint typecheck browser unit unit-postgres unit-compiled bench load clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml setup.py Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The same package compiled with mypyc (see setup.py), installed as users of the fast engine
# get it; the engine's tests run against it too.
FAST := .venv-fast
SOURCES := $(shell find src -name '*.py')
$(FAST)/.installed: pyproject.toml setup.py Makefile $(SOURCES)
	$(PYTHON) -m venv $(FAST)
	$(FAST)/bin/pip install --quiet --upgrade pip
	CARROCA_PURE=1 $(FAST)/bin/pip install --quiet '.[dev]'
	$(FAST)/bin/pip install --quiet --force-reinstall --no-deps .
	touch $@

## The main job: the game server with SQLite and bots, at the URL it prints.
run: $(STAMP)
	$(BIN)/carroca serve

## Bots play 200 matches; their records are written, verified and one hand replayed.
demo: $(STAMP)
	mkdir -p out
	$(BIN)/carroca simulate --ruleset duplas-pontos --games 200 --seed 1 --bots greedy,random --out out/duplas-pontos.jsonl
	$(BIN)/carroca verify out/duplas-pontos.jsonl --summary
	$(BIN)/carroca replay out/duplas-pontos.jsonl --match 1 --hand 1

## Every test: lint, types, the whole pytest suite (browser tests included), the server's tests
## again on PostgreSQL, then the engine's tests on the compiled build.
test: lint typecheck browser unit unit-postgres unit-compiled

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads one). As
# root it is installed when missing; otherwise the browser tests say how and are skipped.
CHROMIUM := /usr/bin/chromium
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Debian's chromium for the browser tests"; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }; \
		else \
			echo "browser tests need $(CHROMIUM): sudo apt-get install chromium"; \
		fi; \
	fi

# The whole suite on SQLite: PostgreSQL has its own run below.
unit: $(STAMP)
	env -u CARROCA_TEST_POSTGRES $(BIN)/pytest -n auto -q

# The server's tests again, each on a fresh database of a PostgreSQL server: the one that
# CARROCA_TEST_POSTGRES names (postgresql://user:password@host:port/postgres), else a throwaway
# one started here by scripts/test-postgres.sh (installed with apt-get when run as root).
# Under CARROCA_CI a PostgreSQL that cannot be had is a failure, not a skip.
unit-postgres: $(STAMP)
	@if [ -n "$$CARROCA_TEST_POSTGRES" ]; then \
		echo "server tests on PostgreSQL at $${CARROCA_TEST_POSTGRES##*@}"; \
		$(BIN)/pytest -n auto -q -p no:cacheprovider tests/server; \
	else \
		dir=$$(mktemp -d); \
		if url=$$(bash scripts/test-postgres.sh start "$$dir"); then \
			echo "server tests on a throwaway PostgreSQL at $${url##*@}"; \
			CARROCA_TEST_POSTGRES="$$url" $(BIN)/pytest -n auto -q -p no:cacheprovider \
				tests/server; status=$$?; \
			bash scripts/test-postgres.sh stop "$$dir" >/dev/null 2>&1; rm -rf "$$dir"; \
			exit $$status; \
		else \
			rm -rf "$$dir"; \
			if [ -n "$$CARROCA_CI" ]; then echo "unit-postgres: no PostgreSQL"; exit 1; fi; \
			echo "unit-postgres: skipped, no PostgreSQL (install it, or set" \
				"CARROCA_TEST_POSTGRES to a server URL)"; \
		fi; \
	fi

unit-compiled: $(FAST)/.installed
	CARROCA_EXPECT_COMPILED=1 $(FAST)/bin/python -m pytest -n auto -q -p no:cacheprovider \
		tests/invariants tests/rules tests/record

## Engine speed against peer engines, in one process each (on demand, not part of `test`).
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: pyproject.toml setup.py bench/requirements.txt $(SOURCES)
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/pip install --quiet -r bench/requirements.txt
	$(BENCH_VENV)/bin/pip install --quiet --force-reinstall .
	touch $@

## Engine speed beside the peer engines: the compiled build, then the pure-Python source.
bench: $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python bench/engine.py
	PYTHONPATH=src $(BENCH_VENV)/bin/python bench/engine.py --no-simulate

## The server under load: simulated players on real WebSockets (on demand, not part of `test`).
load: $(STAMP)
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) $(FAST) $(BENCH_VENV) out .pytest_cache .mypy_cache .ruff_cache
