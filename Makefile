# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run PORT=8080`: the address the e-mails name too (accounts/site.py), unless set.
BASRA_SITE_DOMAIN ?= $(HOST):$(PORT)
export BASRA_SITE_DOMAIN
# The site's DEBUG is off unless set: `make run` and `make test` are for a developer's machine
# (static files from the source folders, a development SECRET_KEY). `DEBUG=0 make run` with a
# SECRET_KEY serves as production does.
DEBUG ?= 1
export DEBUG
# Compiled modules are kept (__pycache__), whatever the shell says: with PYTHONDONTWRITEBYTECODE
# set, every process of make test (each pytest worker, each server and command a test starts)
# compiled the site and its packages from source again, and pytest rewrote every test module's
# asserts in each worker (collecting the suite: 12 s of CPU a process, 4.6 s with them kept).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test install migrate chromium gettext bench-engine clean

# uv (from PyPI) installs in a third of pip's time (25 s less of a fresh clone's make test;
# modules are compiled as they are first imported); pip installs where uv cannot be had.
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv && $(PY) -m uv pip install --quiet --python $(PY) -e '.[test]' \
	  || { $(PY) -m pip install --quiet --upgrade pip && $(PY) -m pip install --quiet -e '.[test]'; }
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

# daphne serves the site; next to it, `run_clock` plays for seats whose time ran out and for the
# computer seats (games/core/clock/clock.py). `manage.py serve` keeps the two together: Ctrl-C, a kill of
# make or of serve, or either one ending stops both.
run: migrate
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# Browser tests need Debian's Chromium: pip cannot install it, and Playwright's own browser download is blocked.
chromium:
	@test -x $(CHROMIUM) || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

# The import rules (pyproject.toml, [tool.importlinter]) first, then the whole suite on
# TEST_WORKERS pytest-xdist workers (each with its own test database and Redis database,
# tests/conftest.py); tests that share a server stay on one worker (--dist loadgroup). The 20
# slowest tests are printed at the end. One area alone: README, "Tests".
TEST_WORKERS ?= 3
# The catalogues' test (tests/site/test_catalogues.py) runs Django's makemessages, which needs GNU
# gettext's xgettext, and msgfmt --check.
gettext:
	@command -v msgfmt >/dev/null && command -v xgettext >/dev/null || { \
	  echo "Installing GNU gettext for the catalogues' test"; \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq gettext; }

test: install chromium gettext
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup --durations=20 $(PYTEST_ARGS)

bench-engine: install
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) staticfiles
