PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# make demo PORT=8080 HOST=0.0.0.0
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: demo test browser postgres redis printing bench clean messages

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "Chromium is missing: run 'sudo apt-get install -y chromium' for the browser tests"; \
	fi

browser: $(CHROMIUM)

# The store tests start a throwaway PostgreSQL from Debian's package (as the
# `postgres` user when run as root); they skip with their reason when it is missing.
postgres:
	@if ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	else \
		echo "PostgreSQL is missing: run 'sudo apt-get install -y postgresql' for the store tests"; \
	fi

# The tests of several workers start a throwaway redis-server from Debian's package;
# they skip with their reason when it is missing.
redis:
	@if command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; \
	else \
		echo "Redis is missing: run 'sudo apt-get install -y redis-server' for the tests of several workers"; \
	fi

# The PDFs (result slips, board cards, standings...) are made by WeasyPrint on Debian's
# pango, in DejaVu Sans from fonts-dejavu-core; the tests read them back with
# poppler-utils (pdftotext, pdftoppm, pdfinfo).
PRINTING := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core poppler-utils
printing:
	@if dpkg -s $(PRINTING) >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PRINTING); \
	else \
		echo "Printing needs Debian's packages: run 'sudo apt-get install -y $(PRINTING)'"; \
	fi

# The demo's own log is started afresh each time; other logs are never deleted.
demo: $(STAMP) printing
	$(BIN)/playoff demo --fresh --db .demo/playoff.db --host $(HOST) --port $(PORT)

# The tests run on every core; tests marked with one xdist_group share a worker.
# Bytecode is cached (whatever the environment says) so that the workers and the
# commands the tests start do not each compile the whole code again.
test: $(STAMP) browser postgres redis printing
	$(BIN)/ruff check .
	$(BIN)/mypy playoff_formats orchestrator clients
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n auto --dist loadgroup

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# The message catalogs (docs/translating.md): extract every text meant for people
# into the template, then merge it into each language's catalog (new messages come
# in empty, for the translator; messages gone are kept as obsolete).
LANGS := es fr de ru
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-default-keywords -k tr -k ntr:1,2 \
		-k marked --no-location --no-wrap --omit-header -o orchestrator/locale/messages.pot .
	for lang in $(LANGS); do \
		if [ -f orchestrator/locale/$$lang/LC_MESSAGES/messages.po ]; then \
			$(BIN)/pybabel update --no-wrap --no-fuzzy-matching --ignore-obsolete \
				-i orchestrator/locale/messages.pot -d orchestrator/locale -l $$lang; \
		else \
			$(BIN)/pybabel init -i orchestrator/locale/messages.pot \
				-d orchestrator/locale -l $$lang; \
		fi; \
	done
