# Two commands do all the set-up on a machine with Python 3.11:
#   make run   install into .venv and serve on localhost
#   make test  install into .venv and run every test
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test run clean vectors bench perft

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis *.egg-info

# The server command; the Dockerfile's CMD runs the same one.
SERVE := gunicorn --config gunicorn.conf.py

run: $(STAMP)
	$(VENV)/bin/$(SERVE)

openapi.yaml: $(STAMP) $(wildcard schemas/*.py checker/web/*.py)
	$(VENV)/bin/hexodic-checker-openapi > $@

# Conformance vectors: hand-written ones plus generated regression vectors.
vectors: $(STAMP)
	$(PY) -m checker.vectors build

# The perft table: checker/data/perft.json and docs/perft.md, counted afresh (about half a minute).
perft: $(STAMP)
	$(PY) -m checker.counting build

# Benchmark: the checker in-process and the HTTP service under gunicorn on loopback.
bench: $(STAMP)
	$(PY) bench/bench.py
