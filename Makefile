# scorio-dashboard: two commands do all set-up (see README Quickstart).
#   make run   - create .venv, install, start the app on the bundled demo data
#   make test  - create .venv, install test requirements (+ PySpark, Debian chromium and a JRE), run the suite
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8501
# 127.0.0.1: only this machine reaches the app; to serve a team, `make run ADDRESS=0.0.0.0` (behind your proxy)
ADDRESS ?= 127.0.0.1

ifeq ($(shell command -v $(PYTHON) 2>/dev/null),)
PYTHON := python3
endif

.PHONY: run test test-fast bench chromium java lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: requirements.txt requirements-test.txt requirements-spark.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	$(BIN)/python -m pip install --quiet -r requirements-spark.txt
	$(BIN)/python -m pip install --quiet -e .
	touch $@ $(VENV)/.run-deps

run: $(VENV)/.run-deps
	$(BIN)/python -m dashboard.serve --server.address $(ADDRESS) --server.port $(PORT) --browser.gatherUsageStats false

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "Installing Debian's chromium for the real-browser test"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo"; \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium; \
	fi

# Java runtime for the optional Spark engine's test (PySpark comes from requirements-spark.txt)
java:
	@if ! command -v java >/dev/null 2>&1; then \
	  echo "Installing Debian's default-jre-headless for the Spark engine test"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo"; \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q default-jre-headless; \
	fi

test: $(VENV)/.test-deps chromium java
	$(BIN)/python -m pytest -n 2 --dist loadgroup

test-fast: $(VENV)/.test-deps
	$(BIN)/python -m pytest -n 2 -m "not browser and not slow"

bench: $(VENV)/.test-deps
	for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts
