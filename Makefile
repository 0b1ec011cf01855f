# Two commands do all the set-up on a machine with Python 3.11:
#   make run   install the checker with every extra into .venv and serve on localhost
#   make test  install that and the test tools into .venv and run every test
# Dependencies come from the lock files (exact versions and hashes); `make lock`
# regenerates them all:
#   requirements-core.lock   the core alone: the rules engine and hexodic-check
#   requirements.lock        the core and the server extra (what the Dockerfile installs)
#   requirements-audit.lock  the core and the audit extra (Dask, Parquet, zstd, the charts)
#   requirements-mcp.lock    the core and the mcp extra (the official MCP Python SDK)
#   requirements-test.lock   everything above and the test tools
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
CORE_LOCK := requirements-core.lock
LOCK := requirements.lock
AUDIT_LOCK := requirements-audit.lock
MCP_LOCK := requirements-mcp.lock
TEST_LOCK := requirements-test.lock
RUNTIME := $(VENV)/.runtime-installed
TESTING := $(VENV)/.test-installed
# The Node tools the tests run (Redocly and Spectral on openapi.yaml, openapi-typescript, openapi-fetch
# and TypeScript for the generated TypeScript client), exactly as package-lock.json pins them.
NODE := node_modules/.installed

.PHONY: install lint test run clean vectors bench audit lighthouse perft lock mutate

# pip writes no .pyc files (--no-compile): Python writes a module's own when it is first imported, so
# only what runs is compiled; byte-compiling every installed package took 11 s of a fresh 45 s install.
# That needs Python free to write them: a machine whose environment sets PYTHONDONTWRITEBYTECODE (this
# one does) compiled every module afresh in each test worker and in every process a test starts (the
# CLI, gunicorn, the engine): collecting the tests took 20 s a worker instead of 9 s.
unexport PYTHONDONTWRITEBYTECODE
PIP_INSTALL := $(PY) -m pip install --quiet --no-compile

$(RUNTIME): $(LOCK) $(AUDIT_LOCK) $(MCP_LOCK) pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --require-hashes -r $(LOCK)
	$(PIP_INSTALL) --require-hashes -r $(AUDIT_LOCK)
	$(PIP_INSTALL) --require-hashes -r $(MCP_LOCK)
	$(PIP_INSTALL) --no-deps -e .
	touch $@

$(TESTING): $(RUNTIME) $(TEST_LOCK)
	$(PIP_INSTALL) --require-hashes -r $(TEST_LOCK)
	touch $@

$(NODE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(RUNTIME)

# Lint and types (ruff's linter and formatter check, mypy as configured in pyproject.toml): any
# finding fails `make lint`, and `make test` too.
LINT := $(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && $(VENV)/bin/mypy

lint: $(TESTING)
	$(LINT)

# `make test` alone installs the Python tools and the Node tools side by side (npm ci took 9 s)
ifeq ($(MAKECMDGOALS),test)
MAKEFLAGS += --jobs=2
endif

# One xdist worker more than there are cores: the suite waits on the servers, browsers and commands
# it starts (the cores were about 30% idle with 2 workers).  Measured on 2 cores in one warm clone, the
# tests alone: 283 s with 3 workers and 310 s with 4 in one hour; 404 s with 3 and 396 s with 2 back
# to back in the next, when the same commit's fresh `make test` took 495 s instead of 359 s (the
# machine's speed varies that much; docs/testing.md).  A test whose timing needs the cores is marked
# `alone` (tests/conftest.py): no other worker runs a test beside it.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))

# The lint runs beside the tests (it takes 8 s of one core, and the tests' first seconds are the
# workers collecting); a finding fails `make test` once the tests are done.
test: $(TESTING) $(NODE)
	@echo "$(LINT) &"; ($(LINT)) & lint=$$!; \
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS); tests=$$?; \
	wait $$lint || { echo "make test: the lint or type check failed (its findings are above)"; exit 1; }; \
	exit $$tests

# Mutation testing (mutmut 3, configured in pyproject.toml's [tool.mutmut]): the rules engine
# (checker/*.py) and the archive audit (checker/tools/audit), each mutant against the tests that
# reach its function, then the score per module (python -m tests.mutation).  Results stay in
# mutants/ and a second run tries only what is new; `make mutate MODULE=checker/ending.py` (or
# MODULE=checker/tools/audit) tries one module's mutants again.  docs/testing.md has the figures.
MUTATE_JOBS ?= 2
MUTANT_NAMES = $(if $(MODULE),'$(subst /,.,$(patsubst %/,%,$(MODULE:.py=))).*')

mutate: $(TESTING)
	nice -n 10 $(VENV)/bin/mutmut run --max-children $(MUTATE_JOBS) $(MUTANT_NAMES)
	$(PY) -m tests.mutation

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis *.egg-info node_modules

# The server command; the Dockerfile's CMD runs the same one: every setting
# checked (one line and exit 2 for a bad one), then gunicorn --config gunicorn.conf.py.
SERVE := hexodic-checker-serve

run: $(RUNTIME)
	$(VENV)/bin/$(SERVE)

openapi.yaml: $(RUNTIME) $(wildcard schemas/*.py checker/web/*.py checker/service/*.py)
	$(VENV)/bin/hexodic-checker-openapi > $@

# The request bodies' JSON Schemas, from the same document: the MCP server's tools' input schemas.
checker/data/requests.schema.json: $(RUNTIME) $(wildcard schemas/*.py checker/web/*.py checker/service/*.py)
	$(PY) -m checker.web.request_schemas > $@

# The rules reference, written from checker/catalogue.py and checker/reference.py.
docs/rules.md: $(RUNTIME) checker/catalogue.py checker/reference.py
	$(PY) -m checker.reference > $@

# Conformance vectors: hand-written ones plus generated regression vectors.
vectors: $(RUNTIME)
	$(PY) -m checker.tools.vectors build

# The perft table: checker/data/perft.json and docs/perft.md, counted afresh (about half a minute).
perft: $(RUNTIME)
	$(PY) -m checker.tools.perft_table build

# Benchmark: the checker in-process, the HTTP service under gunicorn on loopback,
# the worker classes under slow clients, the pictures; written to docs/speed.md.
bench: $(RUNTIME)
	$(PY) -m bench

# The pages at 320, 375 and 1280 px, light and dark: sideways overflow and axe-core's
# findings; Lighthouse's mobile scores for / and /docs when `npx lighthouse` runs.
audit: $(TESTING)
	$(PY) -m bench.audit

# Lighthouse on a phone profile for /, /check, /rules and /docs (npx fetches Lighthouse from the
# npm registry; the browser tests' Chromium): docs/lighthouse.md.  Not part of .ci/run.
lighthouse: $(TESTING)
	$(PY) -m bench.audit --lighthouse

# The lock files, after a change of dependencies in pyproject.toml: pip-tools'
# pip-compile, in a virtual environment of its own, pins every package with
# its hashes; each later lock keeps the versions of the ones before it.
LOCK_TOOL := .lock-venv/bin/pip-compile
COMPILE := $(LOCK_TOOL) --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links

lock:
	test -x $(LOCK_TOOL) || ($(PYTHON) -m venv .lock-venv && .lock-venv/bin/pip install --quiet pip-tools==7.6.2)
	$(COMPILE) --upgrade --extra server -o $(LOCK) pyproject.toml
	$(COMPILE) --upgrade -c $(LOCK) -o $(CORE_LOCK) pyproject.toml
	$(COMPILE) --upgrade --extra audit -c $(LOCK) -o $(AUDIT_LOCK) pyproject.toml
	$(COMPILE) --upgrade --extra mcp -c $(LOCK) -c $(AUDIT_LOCK) -o $(MCP_LOCK) pyproject.toml
	$(COMPILE) --upgrade --all-extras -c $(LOCK) -c $(AUDIT_LOCK) -c $(MCP_LOCK) -o $(TEST_LOCK) pyproject.toml
