# Two commands matter: `make play` and `make test`. Both create .venv if missing and install
# pinned dependencies from constraints.txt, so a fresh machine with Python 3.11+, pip and make
# needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)

.PHONY: play test lint typecheck pytest bench selfplay clean install postgres serve bench-server

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	PIP_CONSTRAINT=constraints.txt $(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The research API's extra (meloch[rl]: numpy, gymnasium, pettingzoo, open_spiel) for the tests
# only: `make play` never installs it.
RL_STAMP := $(VENV)/.installed-rl-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)

$(RL_STAMP): $(STAMP)
	PIP_CONSTRAINT=constraints.txt $(BIN)/python -m pip install --quiet -e '.[test,rl]'
	touch $(RL_STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/meloch play $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check meloch tests

typecheck: $(RL_STAMP)
	$(BIN)/mypy meloch

pytest: $(RL_STAMP)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

test: lint typecheck postgres pytest

# The server's storage tests run against a real PostgreSQL (tests/server/conftest.py starts a
# throw-away cluster from these binaries). Installed from Debian's package when missing.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || { \
	  echo "make test: installing Debian's 'postgresql' package for the server's storage tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || { \
	    echo "make test: cannot install Debian's 'postgresql' package (apt-get failed); the tests marked 'postgres' will fail"; \
	    exit 1; }; }

serve: $(STAMP)
	$(BIN)/meloch serve $(ARGS)

bench-server: $(STAMP)
	$(BIN)/meloch bench-server $(ARGS)

bench: $(STAMP)
	$(BIN)/meloch bench

selfplay: $(STAMP)
	$(BIN)/meloch selfplay --games 200 --seed 1

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
