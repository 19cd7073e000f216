# Every target installs what it needs first: Python packages pinned by uv.lock into .venv,
# with uv itself (pinned below) bootstrapped into .tools from PyPI.
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV := .venv
export UV_PROJECT_ENVIRONMENT := $(VENV)

.PHONY: install serve test lint schema clean bench

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

bench: install ## Benchmark every system side by side; writes bench/RESULTS.md and bench/results.png
	command -v wrk >/dev/null || apt-get install -y wrk
	cd bench/postgraphile && npm ci --no-audit --no-fund --loglevel=error
	$(VENV)/bin/python -m bench.run

clean:
	rm -rf $(VENV) .tools var
