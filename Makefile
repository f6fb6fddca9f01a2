# Two commands on a fresh machine: `make run` (the app) and `make test` (the tests).
# Both create the local virtual environment .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# setuptools' "Editable installation" box (a notice that a folder named like the package
# may shadow it: this repository's layout, on purpose) is dropped by its message alone:
# errors and every other warning of the install still show.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install -q -e

# The tests run in worker processes (pytest-xdist), one per core up to four: each worker
# holds the engine (about 0.7 GB) and many tests start processes of their own. The tests
# that compile one board size's kernels share a worker (tests/conftest.py SIZE_COMPILES).
# TEST_WORKERS=0 runs them in this process, one after the other.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n < 4 ? n : 4 )))

.PHONY: run test test-fast typecheck lint bench clean fuzz

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(EDITABLE) '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/c4tui $(ARGS)

# Installs nothing outside .venv: the browser test of `c4tui serve` skips, saying how to
# install Debian's chromium and chromium-driver, when they are missing (CI's .ci/run
# installs them first, and under CI=true a missing browser fails the test). mypy and ruff
# run first: a type or lint error fails `make test` before the minutes of pytest.
test: typecheck lint
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The fast subset, under a minute once numba's cache is warm: a little of every package
# (engine exactness, CLI, UGI, game files, books, a few app pilots), without the tests that
# tests/conftest.py's SLOW table marks slow (real processes, terminals, the engine's
# pilots, seconds of work).
test-fast: $(VENV)/.installed
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup -m "not slow" $(PYTEST_ARGS)

# mypy sees the package as installed (engine/ and book/ are c4tui.engine and c4tui.book;
# pyproject.toml points it at the link tree, so plain `mypy` works once this has run):
# .typecheck/c4tui links each entry of c4tui/ and the two top-level packages (ln -n: a
# link left by a concurrent run is replaced, never followed into the source tree).
typecheck: $(VENV)/.installed
	@rm -rf .typecheck && mkdir -p .typecheck/c4tui
	@for f in c4tui/*; do ln -sfn "../../$$f" ".typecheck/c4tui/$${f#c4tui/}"; done
	@ln -sfn ../../engine .typecheck/c4tui/engine && ln -sfn ../../book .typecheck/c4tui/book
	$(BIN)/mypy

# The long run of the fuzzers and crash tests (docs/reliability.md): at least 10,000 random
# cases per surface instead of the small deterministic share of `make test` (about 50 min
# on two cores). FUZZ_REPORT names a JSON file for the case counts.
fuzz: $(VENV)/.installed
	C4TUI_FUZZ_LONG=1 C4TUI_FUZZ_REPORT=$(FUZZ_REPORT) \
	  $(BIN)/pytest -q -p no:cacheprovider tests/fuzz tests/test_reliability_crash.py \
	  tests/test_reliability_quit.py $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check .

bench: $(VENV)/.installed
	$(EDITABLE) '.[test,bench]'
	$(BIN)/c4tui bench $(ARGS)

clean:
	rm -rf $(VENV)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
