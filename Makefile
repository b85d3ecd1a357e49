# hpcmodels: every target bootstraps .venv on a fresh machine (only Python 3.11 + pip needed).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Debian's chromium, driven by Playwright in the browser tests of the explorers
CHROMIUM := /usr/bin/chromium
export HPCMODELS_DATA ?= $(abspath ../shared/workloads)

.PHONY: explorer-pictures serve reproduce check test verify lab app site bench lint format clean
# as root (containers), Jupyter needs to be told it may run
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
NOTEBOOK ?= 03

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[dev,bench,dist,site]'
	$(PY) -m ipykernel install --sys-prefix --name hpcmodels --display-name "Python (hpcmodels)"
	touch $(STAMP)

# warm first: compile and cache the kernels the apps run (numba's disk cache, ignored by git), so
# that an app's first opening on a fresh clone loads them instead of compiling for minutes
reproduce: $(STAMP)  ## compile the apps' kernels, run every notebook at its quick defaults, write figures/ and build/REPORT.md
	$(PY) -m hpcmodels warm
	$(PY) -m hpcmodels reproduce

$(CHROMIUM):  ## root installs it; anyone else gets the browser tests skipped, told what to install
	@if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else echo "not root: the browser tests will be skipped (sudo apt-get install chromium)"; fi

# The tests outside a browser run on every core (pytest-xdist, one file per worker: nbval's
# cells share a kernel, a file's fixtures its server); then the browser tests alone, one at a
# time: beside busy workers a JupyterLab or Voila server starting kernels timed out or raised
# dialogs over the page in trial runs. Both parts run; either failing fails the target.
BROWSER_TESTS := tests/explorers tests/site
test: $(STAMP) $(CHROMIUM)  ## lint, then unit, property, paper checks, nbval over notebooks/, browser tests
	$(VENV)/bin/ruff check .
	status=0; \
	$(PY) -m pytest -n auto --maxprocesses=4 --dist loadfile $(addprefix --ignore=,$(BROWSER_TESTS)) || status=$$?; \
	$(PY) -m pytest $(BROWSER_TESTS) || status=$$?; \
	exit $$status

# The edit-test loop: what make test runs outside a browser, less the notebooks (nbval, and
# the tests marked `notebooks` that run whole notebooks or apps in other processes).
check: $(STAMP)  ## lint and format check, then every test outside a browser and the notebooks (minutes)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n auto --maxprocesses=4 --dist loadfile -m "not slow and not verify and not notebooks" \
	  $(addprefix --ignore=,$(BROWSER_TESTS)) tests

# The whole SDSC SP2 log against the independent EASY and conservative of
# tests/backfill_reference.py (make test runs a 5,000-job slice at t = 3e7 s).
verify: $(STAMP)  ## whole-log differential checks of the backfilling policies (tens of minutes)
	$(PY) -m pytest -n auto --maxprocesses=4 -m verify tests/multicluster/test_whole_log.py

lab: $(STAMP)  ## JupyterLab on notebooks/ (HPCMODELS_DATA exported above)
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/

# make app NOTEBOOK=03: notebook 03's explorers alone (notebooks/apps/03_app.ipynb), open in
# seconds; WHOLE=1: the whole notebook, every reproduction cell first. Offline either way.
APP = $(if $(WHOLE),$(firstword $(wildcard notebooks/$(NOTEBOOK)*.ipynb)),$(firstword $(wildcard notebooks/apps/$(NOTEBOOK)*.ipynb)))
app: $(STAMP)  ## a notebook's explorers as a standalone Voila app: make app NOTEBOOK=03 (WHOLE=1: the whole notebook)
	cd $(dir $(APP)) && JUPYTER_PATH=$(abspath jupyter) $(abspath $(VENV))/bin/voila --template=offline $(notdir $(APP))

site: $(STAMP)  ## a static, offline site of the stored notebooks, the report and the notes: build/site
	$(PY) -m hpcmodels site

# Maintainers: after changing an explorer's defaults or looks, photograph the explorers
# again (each app opened by Voila in headless chromium) and commit figures/explorers/;
# make site shows each picture under its explorer's call. NOTEBOOK=NN: that app only.
explorer-pictures: $(STAMP) $(CHROMIUM)  ## maintainers: figures/explorers/, each explorer at its defaults, for the site
	$(PY) tests/explorer_pictures.py $(if $(filter command line,$(origin NOTEBOOK)),$(NOTEBOOK))

# Opened from disk (file://) the site's search lists titles only: the browser refuses the
# search index's fetches. Served over http it searches the pages' text.
PORT ?= 8000
serve: site  ## build the site and serve it on http://localhost:$(PORT)/ (search works there; Ctrl-C stops)
	@echo "the site: http://localhost:$(PORT)/index.html (Ctrl-C stops)"
	$(PY) -m http.server $(PORT) --bind 127.0.0.1 --directory build/site

bench: $(STAMP)  ## every benchmark at its quick size (a few minutes); FULL=1 adds the heavy rows
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b $(if $(FULL),,--quick) || exit 1; done

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:  ## also numba's disk cache: it is keyed per file, so an edited callee in another module can stay stale
	rm -rf build .pytest_cache
	find hpcmodels -name '*.nbi' -delete -o -name '*.nbc' -delete
