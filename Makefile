# Set-up and everyday commands. Everything installs into .venv from the project's own files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck unit unit-compiled bench clean setup

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

## The main job: simulate matches between bots, write their records, verify them.
run: $(STAMP)
	mkdir -p out
	$(BIN)/carroca simulate --ruleset duplas-pontos --games 200 --seed 1 --bots greedy,random --out out/duplas-pontos.jsonl
	$(BIN)/carroca verify out/duplas-pontos.jsonl --summary
	$(BIN)/carroca replay out/duplas-pontos.jsonl --match 1 --hand 1

## Every test: lint, types, the whole pytest suite, then the engine's tests on the compiled build.
test: lint typecheck unit unit-compiled

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n auto -q

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

clean:
	rm -rf $(VENV) $(FAST) $(BENCH_VENV) out .pytest_cache .mypy_cache .ruff_cache
