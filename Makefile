# Set-up and everyday commands. Everything installs into .venv from the project's own files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck unit bench bench-engine clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## The main job: simulate matches between bots, write their records, verify them.
run: $(STAMP)
	mkdir -p out
	$(BIN)/carroca simulate --ruleset duplas-pontos --games 200 --seed 1 --bots greedy,random --out out/duplas-pontos.jsonl
	$(BIN)/carroca verify out/duplas-pontos.jsonl --summary
	$(BIN)/carroca replay out/duplas-pontos.jsonl --match 1 --hand 1

## Every test: lint, types, then the whole pytest suite on all cores.
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n auto -q

## Engine speed against peer engines, in one process each (on demand, not part of `test`).
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed: pyproject.toml bench/requirements.txt
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/pip install --quiet -e . -r bench/requirements.txt
	touch $@

bench: $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python bench/engine.py

clean:
	rm -rf $(VENV) $(BENCH_VENV) out .pytest_cache .mypy_cache .ruff_cache
