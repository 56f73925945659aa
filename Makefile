# Two commands matter: `make play` and `make test`. Both create .venv if missing and install
# pinned dependencies from constraints.txt, so a fresh machine with Python 3.11+, pip and make
# needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)

.PHONY: play test lint typecheck pytest bench selfplay clean install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	PIP_CONSTRAINT=constraints.txt $(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/meloch play $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check meloch tests

typecheck: $(STAMP)
	$(BIN)/mypy meloch

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/meloch bench

selfplay: $(STAMP)
	$(BIN)/meloch selfplay --games 200 --seed 1

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
