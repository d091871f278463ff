# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What running needs (infra/devstack/requirements.txt), then what testing adds (requirements-dev.txt): `make run`
# installs the first only. A change to requirements.txt renews the run stamp, which renews the dev one.
RUN_STAMP := $(VENV)/.run-installed
DEV_STAMP := $(VENV)/.dev-installed

.PHONY: install install-dev browser run test fuzz bench package sdk clean

# pip below 26.3: chalice packages with pip and requires that (chalice 1.34).
$(RUN_STAMP): requirements.txt infra/devstack/requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade "pip<26.3"
	$(BIN)/python -m pip install -q -r infra/devstack/requirements.txt
	touch $@

$(DEV_STAMP): $(RUN_STAMP) requirements-dev.txt
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $@

install: $(RUN_STAMP)

install-dev: $(DEV_STAMP)

## The console's browser tests drive Debian's Chromium (Playwright's own browser download cannot work offline).
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

## Local stack: embedded moto + the API on http://127.0.0.1:8000 (ARGS=--fresh wipes .local/).
run: $(RUN_STAMP)
	$(BIN)/python -m infra.devstack.local $(ARGS)

## Lint, the type check (pyproject.toml [tool.mypy]), then the whole suite (unit, service/API, deployment template, local stack smoke, the console in
## Chromium), one worker per core (each with its own embedded moto, and its own local stack and Chromium if it runs browser tests);
## an idle worker takes queued tests from a busy one (worksteal), so the long journeys do not leave one core waiting.
test: $(DEV_STAMP) browser
	$(BIN)/ruff check app.py chalicelib infra tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto --dist worksteal

## A long fuzzing run of the whole API against a local stack: FUZZ_EXAMPLES cases per operation
## (default 100, about 8 minutes on 2 cores), a new seed each run (printed; FUZZ_SEED=<seed> replays it).
## Then the share of each operation's positive cases the service refused (build/fuzz-outcomes.jsonl).
fuzz: $(DEV_STAMP)
	@mkdir -p build && rm -f build/fuzz-outcomes.jsonl; \
	seed=$${FUZZ_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; echo "FUZZ_SEED=$$seed"; \
	FUZZ_SEED=$$seed FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-100} FUZZ_OUTCOMES=build/fuzz-outcomes.jsonl \
		$(BIN)/python -m pytest -q -n auto tests/test_fuzz_contract.py; status=$$?; \
	$(BIN)/python -m tests.fuzz_report build/fuzz-outcomes.jsonl | head -25; exit $$status

## Benchmarks: import time and DynamoDB calls per request (not part of `make test`; they build on its fixtures).
bench: $(DEV_STAMP)
	$(BIN)/python -m infra.bench $(ARGS)

## CloudFormation/SAM template for deployment, written to build/ (minified: CloudFormation takes 1 MB at most).
package: $(RUN_STAMP)
	rm -rf build && AWS_DEFAULT_REGION=$${AWS_DEFAULT_REGION:-us-east-1} \
		$(BIN)/chalice package --merge-template infra/deploy/resources.json build
	$(BIN)/python -m infra.deploy.resources minify build/sam.json

## Typed clients from the OpenAPI document as the app builds it (no server), in build/sdk/: the Python client
## (openapi-python-client, which must take the whole document without a warning) and, with Node.js, the
## TypeScript types (openapi-typescript through npx) with README.md's request bodies compiled against them.
sdk: $(DEV_STAMP)
	$(BIN)/python -m infra.deploy.sdk build/sdk

clean:
	rm -rf $(VENV) .local build
