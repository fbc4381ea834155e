# Two commands for a newcomer: `make demo` and `make test`. Both create .venv if
# it is missing and install the project into it. torch is an extra (jurycal[torch], the
# latent-trait fits' batched backend): `make demo` needs none; `make test` tests that backend
# too, and installs torch first, pinned, so that pip takes the CPU build and never the
# multi-GB CUDA one.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
TORCH := torch==2.13.0
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
#: How `make test` spreads the suite over processes (benchmarks/bench_test_suite.py times the same).
PYTEST_PROCESSES := -n auto --maxprocesses 4

.PHONY: demo test bench lint blas-check clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit("jurycal needs Python >= 3.11, found " + sys.version) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(PIP) -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(PIP) $(TORCH)
	$(PIP) -e '.[test,torch]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/jurycal demo

# One BLAS / OpenMP thread per test process, set before Python starts (numpy and torch read it when
# they load): results and times then do not depend on the machine's load. A value already set wins.
# The suite runs on one process per core, four at most (pytest-xdist): 2 min on 2 cores, not 4.
test: export OPENBLAS_NUM_THREADS ?= 1
test: export OMP_NUM_THREADS ?= 1
test: export MKL_NUM_THREADS ?= 1
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_PROCESSES)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check regression ensemble repair jurycal tests benchmarks docs
	$(BIN)/ruff format --check regression ensemble repair jurycal tests benchmarks docs
	$(BIN)/mypy
	$(BIN)/lint-imports

# the figures that depend on the floating-point path, under every OpenBLAS kernel (.ci/run runs it)
blas-check: $(VENV)/.installed-test
	PY=$(BIN)/python .ci/blas-check

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
