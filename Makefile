# Two commands matter: `make play` and `make test`. Both create .venv if missing and install
# pinned dependencies from constraints.txt, so a fresh machine with Python 3.11+, pip and make
# needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)

.PHONY: fast unfast web node vitest chromium tmux play play-terminal test lint typecheck pytest bench selfplay clean install postgres serve bench-server

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# (the editable install builds meloch/rl's C extensions in place: a changed C source reinstalls)
$(STAMP): $(BIN)/python pyproject.toml constraints.txt setup.py meloch/rl/_obsc.c meloch/rl/_actc.c meloch/engine/_glancec.c meloch/engine/_fields.h
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

# `make play` opens the browser game (terminal play stays `meloch play`): the client is rebuilt
# when its sources changed, then `meloch serve` runs on localhost with the SQLite default.
play: $(STAMP) web
	$(BIN)/meloch serve --open $(ARGS)

play-terminal: $(STAMP)
	$(BIN)/meloch play $(ARGS)

# The browser client (web/): Node.js 20+ builds it into meloch/server/static (package data).
WEB_SRC := $(shell find web/src web/scripts web/index.html web/package.json web/package-lock.json \
             web/vite.config.ts web/tsconfig.json docs/schema -type f -not -path '*/generated/*' 2>/dev/null)

node:
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null || { \
	  echo "make: installing Debian's 'nodejs' and 'npm' packages (Node.js 20+ builds the browser client)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null) ; \
	  node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null || { \
	    echo "make: Node.js 20+ with npm is needed (Debian's 'nodejs' and 'npm' packages): install them"; exit 1; }; }

web/node_modules/.installed: web/package.json web/package-lock.json | node
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

meloch/server/static/index.html: web/node_modules/.installed $(WEB_SRC)
	cd web && npm run build

web: meloch/server/static/index.html

vitest: web
	cd web && npx vitest run

# The browser tests drive Debian's Chromium; installed from Debian's package when missing.
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "make test: installing Debian's 'chromium' package for the browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || { \
	    echo "make test: cannot install Debian's 'chromium' package (apt-get failed); tests/web needs /usr/bin/chromium"; \
	    exit 1; }; }

# The terminal game's tests (tests/test_terminal_tmux.py) drive `meloch play` in an 80x24 tmux pane;
# Debian's tmux is installed when missing.
tmux:
	@command -v tmux >/dev/null 2>&1 || { \
	  echo "make test: installing Debian's 'tmux' package for the terminal game's tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null) || { \
	    echo "make test: cannot install Debian's 'tmux' package (apt-get failed); tests/test_terminal_tmux.py needs tmux"; \
	    exit 1; }; }

lint: $(STAMP)
	$(BIN)/ruff check meloch tests

typecheck: $(RL_STAMP)
	$(BIN)/mypy meloch

# MELOCH_PURE=1: the suite always tests the pure-Python engine, even after `make fast` (the slow
# test tests/test_mypyc.py builds and tests the compiled one in a copy).
pytest: $(RL_STAMP)
	MELOCH_PURE=1 $(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

test: lint typecheck postgres chromium tmux vitest pytest

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

# Optional: the engine and the agents' search code compiled with mypyc (docs/speed.md), each used
# while its sources are unchanged (meloch/compiled.py); `make unfast` goes back to pure Python, the default.
fast: $(STAMP)
	$(BIN)/python tools/mypyc_build.py

unfast: $(STAMP)
	$(BIN)/python tools/mypyc_build.py --clean

bench: $(STAMP)
	$(BIN)/meloch bench

selfplay: $(STAMP)
	$(BIN)/meloch selfplay --games 200 --seed 1

clean:
	find meloch/engine meloch/rl -name '*.so' -delete; rm -f meloch/engine/_mypyc_manifest.json
	rm -rf build $(VENV) .mypy_cache .pytest_cache .ruff_cache web/node_modules meloch/server/static
