# Every target installs what it needs first: Python packages pinned by uv.lock into .venv,
# with uv itself (pinned below) bootstrapped into .tools from PyPI.
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV := .venv
export UV_PROJECT_ENVIRONMENT := $(VENV)

.PHONY: install serve test lint schema clean

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

install: $(UV)
	$(UV) sync --frozen --quiet

serve: install ## Serve the default fixtures on http://127.0.0.1:8000/graphql
	$(VENV)/bin/taxonomy serve

test: install ## The whole suite: SQLite, plus PostgreSQL when TEST_DATABASE_URL is set; ruff and mypy
	$(VENV)/bin/pytest

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

schema: install ## Regenerate schema.graphql after a schema change
	$(VENV)/bin/taxonomy schema > schema.graphql

clean:
	rm -rf $(VENV) .tools var
