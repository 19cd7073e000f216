# Every target installs what it needs first: Python packages pinned by uv.lock into .venv,
# with uv itself (pinned below) bootstrapped into .tools from PyPI.
PYTHON ?= python3
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV := .venv
export UV_PROJECT_ENVIRONMENT := $(VENV)
# Registry fetches are retried: a reset connection is not a failure of the project.
RETRY := $(CURDIR)/.ci/retry
GRAPHIQL := api/static/graphiql/main.js
GRAPHIQL_MODULES := graphiql/node_modules/.package-lock.json
BROWSER_APP := api/static/browser/manifest.json
BROWSER_MODULES := browser/node_modules/.package-lock.json
AUDIT_MODULES := tests/http_audit/node_modules/.package-lock.json

.PHONY: install browser serve test lint schema clean bench screenshot

$(UV):
	$(PYTHON) -m venv .tools
	$(RETRY) .tools/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# Bytecode is compiled at install, for the packages and for the project's own modules: where
# Python may not write it (PYTHONDONTWRITEBYTECODE, a read-only install), every process would
# otherwise compile its imports from source, about 1 s of CPU at each start of a server, a
# worker or a command (docs/operations.md: Start-up time).
install: $(UV) $(GRAPHIQL) $(BROWSER_APP) $(AUDIT_MODULES)
	$(RETRY) $(UV) sync --frozen --quiet --compile-bytecode
	$(VENV)/bin/python -m compileall -q api schema store migrations >/dev/null

# graphql-http's GraphQL-over-HTTP audit suite, run by tests/test_http_audit.py (pinned by its lock).
$(AUDIT_MODULES): tests/http_audit/package.json tests/http_audit/package-lock.json
	cd tests/http_audit && $(RETRY) npm ci --no-audit --no-fund --loglevel=error >/dev/null
	touch $@

# GraphiQL's scripts and styles, served at /graphiql-assets/ (no CDN): the npm packages pinned
# by graphiql/package-lock.json, bundled by esbuild; redone when the lock or a source is newer.
$(GRAPHIQL_MODULES): graphiql/package.json graphiql/package-lock.json
	cd graphiql && $(RETRY) npm ci --no-audit --no-fund --loglevel=error >/dev/null
	touch $@

$(GRAPHIQL): $(GRAPHIQL_MODULES) graphiql/build.mjs $(wildcard graphiql/src/*)
	cd graphiql && npm run --silent build

# The taxonomy browser's script and style sheet, served at /browser-assets/ under hashed names:
# browser/'s sources and the generated client's typed documents, with the npm packages pinned
# by browser/package-lock.json, bundled by esbuild; redone when a source is newer.
$(BROWSER_MODULES): browser/package.json browser/package-lock.json
	cd browser && $(RETRY) npm ci --no-audit --no-fund --loglevel=error >/dev/null
	touch $@

$(BROWSER_APP): $(BROWSER_MODULES) browser/build.mjs $(wildcard browser/src/* browser/src/*/*) \
		$(wildcard browser/operations/*) clients/typescript/src/gql/graphql.ts
	cd browser && npm run --silent build

browser: ## Debian's Chromium, for the tests of GraphiQL and the taxonomy browser in a headless browser, and wrk, the load generator of the many-clients test
	test -x /usr/bin/chromium -a -x /usr/bin/wrk || { $(RETRY) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(RETRY) apt-get install -y -qq chromium wrk >/dev/null; }

serve: install ## Serve the default fixtures: the taxonomy browser on http://127.0.0.1:8000/, GraphiQL at /graphql
	$(VENV)/bin/taxonomy serve

screenshot: install browser ## docs/node-page.png (README's): the seed node's page on the fixtures, in headless Chromium
	mkdir -p var && rm -f var/screenshot.db var/screenshot.db-wal var/screenshot.db-shm
	$(VENV)/bin/taxonomy load fixtures --db sqlite:///var/screenshot.db >/dev/null
	$(VENV)/bin/taxonomy serve --db sqlite:///var/screenshot.db --port 8765 >/dev/null 2>&1 & server=$$!; \
	node browser/screenshot.mjs http://127.0.0.1:8765 /nodes/optimization/training-parallelism \
		docs/node-page.png 1200 full; status=$$?; kill $$server; exit $$status

test: install browser ## The whole suite: SQLite, plus PostgreSQL when TEST_DATABASE_URL is set; ruff and mypy
	$(VENV)/bin/pytest

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

schema: install ## Regenerate schema.graphql after a schema change
	$(VENV)/bin/taxonomy schema > schema.graphql

bench: install browser ## Benchmark every system side by side (and the seed page's paint in Chromium); writes bench/RESULTS.md and bench/results.png
	command -v wrk >/dev/null || $(RETRY) apt-get install -y wrk
	cd bench/postgraphile && $(RETRY) npm ci --no-audit --no-fund --loglevel=error
	$(VENV)/bin/python -m bench.run

clean:
	rm -rf $(VENV) .tools var

CODEGEN_VENV := $(CURDIR)/clients/python/.venv

.PHONY: clients
clients: $(UV) ## Regenerate the typed clients (clients/) from schema.graphql, examples/operations/ and browser/operations/; compile those with relay-compiler and gql.tada
	UV_PROJECT_ENVIRONMENT=$(CODEGEN_VENV) $(RETRY) $(UV) sync --frozen --quiet --project clients/python
	rm -rf clients/python/taxonomy_client clients/typescript/src/gql
	$(CODEGEN_VENV)/bin/ariadne-codegen --config clients/python/pyproject.toml
	cd clients/typescript && $(RETRY) npm ci --no-audit --no-fund --loglevel=error \
		&& npx graphql-codegen --config codegen.ts && npx tsc --noEmit
	# The operations must also compile with relay-compiler and gql.tada (pinned, offline).
	cd clients/typescript/gql-tada && $(RETRY) npm ci --no-audit --no-fund --loglevel=error
	node clients/typescript/compile-operations.mjs
