# Two commands on a fresh machine: `make run` (the app) and `make test` (the tests).
# Both create the local virtual environment .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/c4tui $(ARGS)

test: $(VENV)/.installed
	$(BIN)/pytest -q $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check .

bench: $(VENV)/.installed
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/c4tui bench $(ARGS)

clean:
	rm -rf $(VENV)
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
