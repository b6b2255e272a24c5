# Set-up and everyday commands. Everything installs into .venv from the project's own files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every install is pinned by constraints.txt, so a clean clone gets the versions the tests last
# passed with (pytest turns warnings into errors: a new release's deprecation would fail them).
# PIP_CONSTRAINT, unlike -c, also reaches pip's isolated build environments (setuptools, wheel,
# mypy). `make constraints` refreshes the file.
CONSTRAINTS := $(CURDIR)/constraints.txt
PIP_PINNED := PIP_CONSTRAINT=$(CONSTRAINTS)
INSTALL_DEPS := pyproject.toml setup.py Makefile constraints.txt
RUNTIME := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed-dev

.PHONY: run demo test check lint typecheck typecheck-js unit-js browser unit unit-postgres \
	unit-cluster unit-compiled postgres-then-compiled bench system \
	load clean setup setup-runtime constraints cluster

setup: $(STAMP)
setup-runtime: $(RUNTIME)

# What `make run` needs: the package and its runtime dependencies only (no test tools, no
# browser driver). Editable, never compiled (see setup.py); CARROCA_PURE skips mypyc's codegen.
$(RUNTIME): $(INSTALL_DEPS)
	$(PYTHON) -m venv $(VENV)
	$(PIP_PINNED) $(BIN)/pip install --quiet --upgrade pip
	CARROCA_PURE=1 $(PIP_PINNED) $(BIN)/pip install --quiet -e .
	touch $@

# The PostgreSQL driver on top of it (pyproject's `postgres` extra): what `make cluster` needs.
POSTGRES_STAMP := $(VENV)/.installed-postgres
$(POSTGRES_STAMP): $(RUNTIME)
	CARROCA_PURE=1 $(PIP_PINNED) $(BIN)/pip install --quiet -e '.[postgres]'
	touch $@

# The development set on top of it: what `make test` needs (pytest, ruff, mypy, Playwright,
# the PostgreSQL driver, PettingZoo and OpenSpiel for tests/envs, ...).
$(STAMP): $(RUNTIME)
	CARROCA_PURE=1 $(PIP_PINNED) $(BIN)/pip install --quiet -e '.[dev]'
	touch $@

## Refresh constraints.txt: the newest releases pyproject.toml allows (runtime, extras and build),
## resolved in a throwaway venv. Then run `make test` and commit the file if it passes.
CONSTRAINTS_VENV := .venv-constraints
constraints:
	rm -rf $(CONSTRAINTS_VENV)
	$(PYTHON) -m venv $(CONSTRAINTS_VENV)
	PIP_CONSTRAINT= $(CONSTRAINTS_VENV)/bin/pip install --quiet --upgrade pip
	PIP_CONSTRAINT= $(CONSTRAINTS_VENV)/bin/pip install --quiet \
		$$($(PYTHON) -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
	CARROCA_PURE=1 PIP_CONSTRAINT= $(CONSTRAINTS_VENV)/bin/pip install --quiet '.[dev,postgres,rl]'
	{ echo "# Pinned versions of every runtime, development and build dependency (pyproject.toml),"; \
	  echo "# used by every install of the Makefile. Regenerate with: make constraints"; \
	  $(CONSTRAINTS_VENV)/bin/pip freeze --all --exclude carroca; } > constraints.txt
	rm -rf $(CONSTRAINTS_VENV)

# The same package compiled with mypyc (see setup.py), installed as users of the fast engine
# get it; the engine's tests run against it too, so beside it only what they import: pytest,
# its workers, Hypothesis and the test client's HTTP library (the development set's versions,
# pinned by constraints.txt). One install: the runtime set and the compiled package.
FAST := .venv-fast
FAST_TEST_TOOLS := pytest pytest-xdist hypothesis httpx2
SOURCES := $(shell find src -name '*.py')
$(FAST)/.installed: $(INSTALL_DEPS) $(SOURCES)
	$(PYTHON) -m venv $(FAST)
	$(PIP_PINNED) $(FAST)/bin/pip install --quiet --upgrade pip
	$(PIP_PINNED) $(FAST)/bin/pip install --quiet . $(FAST_TEST_TOOLS)
	touch $@

## The main job: the game server with SQLite and bots, at the URL it prints. Another port:
## CARROCA_PORT=9000 make run (every CARROCA_* setting of docs/server.md works the same way).
run: $(RUNTIME)
	$(BIN)/carroca serve

## Several nodes: a throwaway PostgreSQL and Redis (in .cluster/), two nodes (ports 8001, 8002)
## and HAProxy in front on port 8000 (CARROCA_PORT=9000: 9000, 9001, 9002), at the URL it
## prints. Ctrl-C stops it all.
cluster: $(POSTGRES_STAMP)
	exec bash scripts/cluster.sh

## Bots play 200 matches; their records are written, verified and one hand replayed.
demo: $(RUNTIME)
	mkdir -p out
	$(BIN)/carroca simulate --ruleset duplas-pontos --games 200 --seed 1 --bots greedy,random --out out/duplas-pontos.jsonl
	$(BIN)/carroca verify out/duplas-pontos.jsonl --summary
	$(BIN)/carroca replay out/duplas-pontos.jsonl --match 1 --hand 1

## Every test: lint, types, the client's types and unit tests, the whole pytest suite (browser
## tests included), the tests of the database layer again on PostgreSQL, the cluster tests, then
## the engine's tests on the compiled build.
# Two at a time, each on a core of its own: the checks before pytest (ruff, mypy, tsc, node's
# tests) beside the compiled build (a venv, then mypyc: a minute or two); then the whole suite
# on SQLite (a test process more than the cores); then the PostgreSQL and cluster runs beside
# each other (each with its own throwaway servers), the engine's tests on the compiled build
# after PostgreSQL's.
# Each one's output is shown whole when it ends.
test: system
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck $(FAST)/.installed lint \
		typecheck-js unit-js browser
	$(MAKE) --no-print-directory unit
	$(MAKE) --no-print-directory -j2 --output-sync=target postgres-then-compiled unit-cluster

# The PostgreSQL run ends a minute before the cluster tests, which use 1.3 cores: the engine's
# tests on the compiled build take that room instead of a stage of their own.
postgres-then-compiled:
	@$(MAKE) --no-print-directory unit-postgres
	@$(MAKE) --no-print-directory unit-compiled

## The inner loop, before each commit (under 2 minutes on 2 cores with mypy's cache warm): lint,
## types and the fast tier of the suite. The tiers are pytest markers (pyproject.toml,
## tests/conftest.py): `make check` leaves out `browser` (tests/web), `slow` (seconds each, and
## every test that starts real servers), `bench` (tests/bench) and `cluster` (tests/cluster);
## `make test` runs them all. One tier alone: .venv/bin/pytest -n auto -m browser
## Hypothesis tests try a fifth of their examples here (tests/support/examples.py).
FAST_TIER := not browser and not slow and not bench and not cluster
check: lint typecheck typecheck-js unit-js
	env -u CARROCA_TEST_POSTGRES $(BIN)/pytest -n auto --dist worksteal -q -p no:cacheprovider -m "$(FAST_TIER)" \
		--hypothesis-profile=check

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser client's JavaScript: the TypeScript compiler (package.json, pinned by
# package-lock.json) checks every module marked `// @ts-check` against its JSDoc types
# (tsconfig.json; the service worker, with a worker's globals: tsconfig.sw.json), and node's
# own test runner runs the unit tests of the pure modules (tests/js).
# Node and npm are Debian's (installed as root when missing).
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	@if ! command -v npm >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; \
		else \
			echo "the client's checks need node and npm: sudo apt-get install nodejs npm"; exit 1; \
		fi; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# tsconfig.json checks the client with its own declarations (wire.d.ts); the tests' call skips
# declaration files: wire.d.ts is checked already, and node's (@types/node) are not ours.
typecheck-js: $(NODE_STAMP)
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tests/js/tsconfig.json --skipLibCheck
	node_modules/.bin/tsc -p tsconfig.sw.json

unit-js: $(NODE_STAMP)
	node --test --test-reporter=spec tests/js/

# Debian's packages the tests use (Chromium, node, PostgreSQL, Redis, HAProxy, Prometheus), in
# one apt transaction when missing and root; each target or script still installs its own when
# run alone.
system:
	@bash scripts/system-packages.sh

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads one): its old
# headless shell, which costs a fifth less CPU than chromium's own headless mode (a chromium
# already there keeps its version: the shell takes the same). As root it is installed when
# missing; otherwise the browser tests use /usr/bin/chromium, or say how and are skipped.
CHROMIUM := /usr/lib/chromium/chromium-headless-shell
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Debian's chromium-headless-shell for the browser tests"; \
			v=$$(dpkg-query -W -f='$${Version}' chromium 2>/dev/null || true); \
			pkg="chromium-headless-shell$${v:+=$$v}"; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$$pkg" >/dev/null 2>&1 || \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$$pkg"; }; \
		elif [ ! -x /usr/bin/chromium ]; then \
			echo "browser tests need $(CHROMIUM): sudo apt-get install chromium-headless-shell"; \
		fi; \
	fi

# The whole suite on SQLite: PostgreSQL has its own run below. One test process more than the
# cores: the browser and server tests wait on their own processes (2 cores, the same hour: 469 s
# with 3 processes, 585 s with 2, for 4% more CPU).
UNIT_WORKERS := $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
unit: $(STAMP)
	env -u CARROCA_TEST_POSTGRES $(BIN)/pytest -n $(UNIT_WORKERS) --dist worksteal -q

# The tests of the database layer again, each on a fresh database of a PostgreSQL server: the one
# that CARROCA_TEST_POSTGRES names (postgresql://user:password@host:port/postgres), else a
# throwaway one started here by scripts/test-postgres.sh (installed with apt-get when run as
# root). Under CARROCA_CI a PostgreSQL that cannot be had is a failure, not a skip.
# Which tests: those marked `postgres`, the modules whose subject is stored state: accounts and
# sessions, ratings, tournaments, reviews, guests coming back, the move log after a crash or a
# restart (resume), group commit, the cluster's store, a whole match stored and verified (smoke),
# and in tests/security the nickname migration, forgotten devices and private matches. The other
# server tests (protocol, frames, sockets, clock, chat, lobby, fuzzing) go through the same
# store code on SQLite in `make unit`; what differs between the databases is that code's SQL.
# Twice the cores in test processes: they mostly wait on the database's commits (2 cores, the
# same hour: 114 s with 2, 94 s with 4, for 17 CPU-s more).
POSTGRES_TESTS := -m postgres tests/server tests/security
POSTGRES_WORKERS := $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))
unit-postgres: $(STAMP)
	@if [ -n "$$CARROCA_TEST_POSTGRES" ]; then \
		echo "server tests on PostgreSQL at $${CARROCA_TEST_POSTGRES##*@}"; \
		$(BIN)/pytest -n $(POSTGRES_WORKERS) --dist worksteal -q -p no:cacheprovider \
			$(POSTGRES_TESTS); \
	else \
		dir=$$(mktemp -d); \
		if url=$$(bash scripts/test-postgres.sh start "$$dir"); then \
			echo "server tests on a throwaway PostgreSQL at $${url##*@}"; \
			CARROCA_TEST_POSTGRES="$$url" $(BIN)/pytest -n $(POSTGRES_WORKERS) --dist worksteal \
				-q -p no:cacheprovider $(POSTGRES_TESTS); status=$$?; \
			bash scripts/test-postgres.sh stop "$$dir" >/dev/null 2>&1; rm -rf "$$dir"; \
			exit $$status; \
		else \
			rm -rf "$$dir"; \
			if [ -n "$$CARROCA_CI" ]; then echo "unit-postgres: no PostgreSQL"; exit 1; fi; \
			echo "unit-postgres: skipped, no PostgreSQL (install it, or set" \
				"CARROCA_TEST_POSTGRES to a server URL)"; \
		fi; \
	fi

# The cluster tests (tests/cluster: nodes behind HAProxy, sharing PostgreSQL and Redis), which
# the whole-suite run above leaves out (tests/conftest.py). Two test processes, each with a
# throwaway Redis of its own (the tests empty it, stop and start it; one shared Redis would be
# emptied under the other's feet): they mostly wait, on leases and nodes starting, so two take
# about half of one's time. PostgreSQL is started once for the run, unless CARROCA_TEST_POSTGRES
# names a server (each test has a database of its own). Redis and HAProxy are installed first
# when missing (as root): the two test processes would otherwise install them at once.
# CARROCA_TEST_REDIS names a Redis to use instead (CARROCA_TEST_REDIS_DIR, its
# scripts/test-redis.sh directory, lets the tests restart it): the tests then run one at a time.
# Under CARROCA_CI what cannot be had is a failure, not a skip.
unit-cluster: $(STAMP)
	@pgdir=""; \
	cleanup() { \
		[ -z "$$pgdir" ] || { bash scripts/test-postgres.sh stop "$$pgdir" >/dev/null 2>&1; \
			rm -rf "$$pgdir"; }; \
	}; \
	trap cleanup EXIT; trap "exit 130" INT TERM; \
	if [ -z "$$CARROCA_TEST_POSTGRES" ]; then \
		pgdir=$$(mktemp -d); \
		if ! CARROCA_TEST_POSTGRES=$$(bash scripts/test-postgres.sh start "$$pgdir"); then \
			if [ -n "$$CARROCA_CI" ]; then echo "unit-cluster: no PostgreSQL"; exit 1; fi; \
			echo "unit-cluster: skipped, no PostgreSQL (install it, or set" \
				"CARROCA_TEST_POSTGRES to a server URL)"; exit 0; \
		fi; \
	fi; \
	if [ -n "$$CARROCA_TEST_REDIS" ]; then \
		workers=""; redis="Redis at $${CARROCA_TEST_REDIS##*//}"; \
	else \
		workers="-n 2"; redis="a throwaway Redis per test process"; \
		if ! command -v redis-server >/dev/null 2>&1; then \
			d=$$(mktemp -d); \
			bash scripts/test-redis.sh start "$$d" >/dev/null && \
				bash scripts/test-redis.sh stop "$$d" >/dev/null; \
			rm -rf "$$d"; \
		fi; \
		bash scripts/test-haproxy.sh install >/dev/null || true; \
	fi; \
	echo "cluster tests on PostgreSQL at $${CARROCA_TEST_POSTGRES##*@}, $$redis"; \
	CARROCA_TEST_POSTGRES="$$CARROCA_TEST_POSTGRES" \
		$(BIN)/pytest $$workers -q -p no:cacheprovider tests/cluster

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
	rm -rf $(VENV) $(FAST) $(BENCH_VENV) $(CONSTRAINTS_VENV) out .pytest_cache .mypy_cache \
		.ruff_cache node_modules
