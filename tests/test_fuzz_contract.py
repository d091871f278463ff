"""The contract under fuzzing: schemathesis generates requests for every operation of the served
OpenAPI document and sends them to a fresh local stack over HTTP, with an API key and with a web
session (so the web-only routes are exercised too), with and without an Idempotency-Key. No
answer may be a 5xx, and every answer must match the response schema the document declares. And
the document must tell the truth: under 10 % of each operation's positive cases (requests the
document allows) may be refused as invalid, unless the rule depends on stored state or compares
fields in a way JSON Schema cannot state (tests/fuzz_report.py classifies the answers). A
stateful phase follows the document's links (a created record's id into the operations on it).

Bounded for `make test` (FUZZ_EXAMPLES per operation, a fixed seed); `make fuzz` runs the long
version (thousands of cases, a random seed)."""
from __future__ import annotations

import itertools
import json
import os
import uuid

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error, response_schema_conformance, status_code_conformance
from schemathesis.core import NOT_SET
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.hypothesis.builder import ApiOperationMark
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.transport.requests import ManagedCookiesSession

import app  # noqa: F401  (registers the routes the document describes)
from chalicelib import jsoncodec
from chalicelib.api.openapi import build_document
from chalicelib.api.routing import ROUTES, Access
from tests import fuzz_report
from tests.test_local_stack import call, fresh_stack

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "4"))
SEED = os.environ.get("FUZZ_SEED")  # unset: the same cases every run (CI); `make fuzz` sets one
# every answer's status must be one the document lists for the operation
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
# A web session must survive the run: logging out, changing the password or moving the session to
# another company would turn every later case into a 401 (they are tested in tests/test_auth.py).
SESSION_ENDING = {("POST", "/auth/logout"), ("POST", "/auth/password"), ("POST", "/auth/switch-company")}


# Records with id 1 (and 2) of most kinds, so that generated ids often name something real: the
# routes then run past their 404 into their own rules.
SEED_RECORDS = (
    ("/business-partners", {"name": "Fuzz Cliente", "type": "both", "email": "c@example.com"}, "key"),
    ("/business-partners", {"name": "Fuzz Proveedor", "type": "supplier"}, "key"),
    ("/products", {"code": "FZ-1", "name": "Fuzz", "unitPrice": 10, "taxRate": 0.15}, "key"),
    ("/products", {"code": "FZ-2", "name": "Servicio", "type": "service", "unitPrice": 25}, "key"),
    ("/cai", {"cai": "A1B2C3-D4E5F6-0A1B2C-3D4E5F-6A7B8C-9D", "branchId": 1, "emissionPoint": "001",
              "documentType": "01", "rangeStart": 1, "rangeEnd": 5000, "deadline": "2099-12-31"}, "key"),
    ("/payment-conditions", {"name": "Crédito 30", "type": "credit", "creditDays": 30}, "key"),
    ("/payments/methods", {"name": "Efectivo", "isCashMethod": True}, "key"),
    ("/bank-accounts", {"name": "Banco", "openingBalanceDate": "2026-01-01", "chartOfAccountId": 3}, "key"),
    ("/documents", {"type": "01", "businessPartnerId": 1, "lines": [{"productId": 2, "quantity": 1, "unitPrice": 25}]}, "key"),
    ("/documents", {"type": "103", "status": "draft", "businessPartnerId": 2,
                    "lines": [{"description": "Papel", "quantity": 2, "unitPrice": 5}]}, "key"),
    ("/payments/documents/1/payments", {"paymentMethodId": 1, "amount": 10}, "key"),
    ("/accounting-periods", {"name": "2020", "startDate": "2020-01-01", "endDate": "2020-12-31"}, "key"),
    ("/settings/webhooks", {"name": "Fuzz", "url": "https://hooks.example.com/fuzz",
                            "events": ["business_partner.created"]}, "session"),
    ("/settings/users", {"email": "vende@example.com", "name": "Vendedora", "role": "seller"}, "session"),
)


@pytest.fixture(scope="session")
def fuzzed(tmp_path_factory):
    """(base URL, API key headers, session headers) of a fresh local stack whose
    demo company has a few records for the generated ids to find."""
    # (its table in memory: the contract is the API's, and no webhook need be fanned out)
    with fresh_stack(tmp_path_factory.mktemp("fuzz-stack"), table_in_memory=True) as (stack, credentials):
        base, key = stack.base, credentials["apiKey"]
        status, headers, _ = call("POST", f"{base}/auth/login",
                                  {"email": credentials["email"], "password": credentials["password"]},
                                  headers={"Origin": base})
        assert status == 200
        cookie = headers["Set-Cookie"].split(";")[0]
        key_headers = {"Authorization": f"Bearer {key}"}
        session_headers = {"Cookie": cookie, "Origin": base}
        for path, body, auth in SEED_RECORDS:
            status, _, created = call("POST", f"{base}{path}", body,
                                      headers=key_headers if auth == "key" else session_headers)
            assert status in (200, 201), (path, created)
        status, _, served = call("GET", f"{base}/openapi.json", headers=key_headers)
        assert status == 200 and served == json.loads(SERVED), "the stack serves another document"
        yield base, key_headers, session_headers


# The document the stack serves, built in-process so that each operation is its own test (xdist
# spreads them; each worker starts its own stack).
SERVED = jsoncodec.dumps(build_document())  # as served: plain JSON numbers


def with_decimal_places_as_multiples(node):
    """The document states decimal places as `x-decimal-places` (a binary float is no multiple of
    0.01); the generator needs them as `multipleOf` to send amounts the service takes."""
    if isinstance(node, list):
        return [with_decimal_places_as_multiples(item) for item in node]
    if not isinstance(node, dict):
        return node
    shaped = {key: with_decimal_places_as_multiples(value) for key, value in node.items()}
    if "x-decimal-places" in node:
        shaped["multipleOf"] = 10 ** -node["x-decimal-places"]
    return shaped


def in_english(document):
    """Every case asks for English: the refusals are classified by their English wording
    (tests/fuzz_report.py). test_error_catalogue.py covers the Spanish answers."""
    for operations in document["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "Accept-Language":
                    parameter["schema"] = {"type": "string", "enum": ["en"]}
    return document


# schemathesis may annotate it in place
DOCUMENT = in_english(with_decimal_places_as_multiples(json.loads(SERVED)))
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)
# Collected without their coverage cases: see with_coverage_cases.
SCHEMA.config.phases.coverage.enabled = False
WEB_ONLY = {(spec.method, spec.path) for spec in ROUTES if spec.access in (Access.WEB_SESSION, Access.KEY_MANAGEMENT)}

# `make fuzz` prints its seed: FUZZ_SEED=<it> replays the same cases
SEEDED = hypothesis.seed(int(SEED)) if SEED else (lambda test: test)
FUZZ_SETTINGS = hypothesis.settings(max_examples=EXAMPLES, deadline=None, derandomize=SEED is None,
                                    suppress_health_check=list(HealthCheck), database=None,
                                    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])


@SCHEMA.hook
def flatmap_path_parameters(context, path_parameters):
    """Half the cases name a seeded record (id 1 or 2) instead of a random id."""
    ids = {name: value for name, value in (path_parameters or {}).items() if isinstance(value, int)}
    if not ids:
        return st.just(path_parameters)
    real = st.fixed_dictionaries({name: st.sampled_from([1, 2]) for name in ids})
    return st.one_of(st.just(path_parameters), real.map(lambda chosen: {**path_parameters, **chosen}))


_posts = itertools.count()
# One kept-alive connection to the stack instead of a new session and connection per case; its
# cookies are dropped after each case (as a fresh session's are), and the environment's proxy
# and netrc settings are not read per request (nor do they apply to the stack on 127.0.0.1).
HTTP = ManagedCookiesSession()
HTTP.trust_env = False
HTTP.headers.clear()  # (requests' defaults, such as Accept: */*, would fill headers a case leaves out)


def _headers(case, auth: dict[str, str]) -> dict[str, str]:
    """Every other POST carries an Idempotency-Key (the stored answer must match the schema too)."""
    headers = dict(auth)
    if case.method == "POST" and next(_posts) % 2:
        headers["Idempotency-Key"] = f"fuzz-{uuid.uuid4().hex}"
    return headers


@pytest.fixture(autouse=True)
def with_coverage_cases(request):
    """An operation's test gets its coverage cases (schemathesis's boundary values and missing or
    mistyped fields: 13,000 requests for the whole document, most of what this file sends) when it
    starts, not at collection: every xdist worker collects every test and building them all took
    each worker 10-20 s, though it runs only its share. Built as schemathesis's own collection builds
    them, with the coverage phase on."""
    item = request.node
    operation = ApiOperationMark.get(item.obj)
    if operation is None:
        return  # not one of the schema's tests
    phases = operation.schema.config.phases
    phases.coverage.enabled = True
    try:
        built = build_operation_test(
            config=operation.schema.config, operation=operation, test_func=item.test_function, given_kwargs={},
            feedback=FeedbackSources(constants_value_source=make_constants_value_source(operation.schema)))
    finally:
        phases.coverage.enabled = False
    # every operation has some (at least its unexpected methods): none means they were lost
    assert len(getattr(built, "hypothesis_explicit_examples", ())) \
        > len(getattr(item.obj, "hypothesis_explicit_examples", ())), operation.label
    item.obj = built


OUTCOMES = os.environ.get("FUZZ_OUTCOMES")  # a file: a JSON line per case, for tests/fuzz_report.py


@pytest.fixture
def positive_cases():
    """The kinds of answer the operation's positive cases got (one test runs all of its cases):
    the document must not allow what the service refuses (tests/fuzz_report.py)."""
    kinds: list[str] = []
    yield kinds
    share = fuzz_report.refused_share(kinds)
    assert share < fuzz_report.THRESHOLD, (
        f"{share:.0%} of the requests the OpenAPI document allows were refused as invalid: "
        "the document is looser than the validation (FUZZ_OUTCOMES=file shows them)")


def _call(case, base: str, auth: dict[str, str], positive_cases: list[str]) -> None:
    response = case.call(base_url=base, session=HTTP, headers=_headers(case, auth))
    try:
        answer = response.json()
    except ValueError:
        answer = None
    answer = answer if isinstance(answer, dict) else {}
    kind = fuzz_report.classify(response.status_code, answer)
    mode = case.meta.generation.mode.value if case.meta else "positive"
    if mode == "positive":
        positive_cases.append(kind)
    if OUTCOMES:
        with open(OUTCOMES, "a") as out:
            out.write(json.dumps({"method": case.method, "path": case.path, "mode": mode, "kind": kind,
                                  "status": response.status_code, "code": answer.get("code"),
                                  "details": answer.get("details"), "query": case.query,
                                  "body": None if case.body is NOT_SET else case.body}, default=str) + "\n")
    case.validate_response(response, checks=CHECKS)


@SCHEMA.parametrize()
@FUZZ_SETTINGS
@SEEDED
def test_with_an_api_key_nothing_fails_or_breaks_the_schema(case, fuzzed, positive_cases):
    base, key_headers, _ = fuzzed
    _call(case, base, key_headers, positive_cases)


# The web-only operations (an API key gets 403 there; the others behave as with a key), but not
# those that would end the session the run uses.
SESSION_SCHEMA = SCHEMA.include(lambda ctx: (ctx.operation.method.upper(), ctx.operation.path) in WEB_ONLY - SESSION_ENDING)


@SESSION_SCHEMA.parametrize()
@FUZZ_SETTINGS
@SEEDED
def test_with_a_web_session_nothing_fails_or_breaks_the_schema(case, fuzzed, positive_cases):
    base, _, session_headers = fuzzed
    _call(case, base, session_headers, positive_cases)


# The stateful phase: sequences of calls that follow the document's links (a created record's id
# into the operations on it), so that real ids reach the routes that take them. API-key
# operations only: the web-only ones answer a key with 403.
STATEFUL_STEPS = int(os.environ.get("FUZZ_STATEFUL_STEPS", "8"))
LinkedCalls = SCHEMA.include(lambda ctx: (ctx.operation.method.upper(), ctx.operation.path) not in WEB_ONLY).as_state_machine()


def test_following_the_links_nothing_fails_or_breaks_the_schema(fuzzed):
    """Any failure fails the test, even one its replay did not show again. The service's state
    grows with every call, so hypothesis may find a replayed scenario taking another path: then,
    as schemathesis's own runner does, a new run starts, until the budget of calls is spent."""
    base, key_headers, _ = fuzzed
    calls: list[str] = []

    class Workflows(LinkedCalls):
        def get_call_kwargs(self, case):
            return {"base_url": base, "session": HTTP, "headers": _headers(case, key_headers)}

        def after_call(self, response, case):
            calls.append(f"{case.method} {case.path} -> {response.status_code}")

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

    budget = EXAMPLES * 5 * STATEFUL_STEPS
    for _ in range(20):
        run_tolerating_another_path(lambda: Workflows.run(settings=hypothesis.settings(
            max_examples=EXAMPLES * 5, stateful_step_count=STATEFUL_STEPS, deadline=None,
            derandomize=SEED is None, suppress_health_check=list(HealthCheck), database=None,
            phases=[hypothesis.Phase.generate])))
        if len(calls) >= budget:
            break
    linked = [call for call in calls if "{" in call.split(" -> ")[0] and not call.endswith("404")]
    assert len(calls) >= budget and linked, (len(calls), calls[-5:])


def run_tolerating_another_path(run) -> None:
    """One stateful run. A failure seen once is a failure, though its replay passed: hypothesis
    raises FlakyFailure (a Flaky), which fails the test with the 5xx or the failed check inside.
    Only a replay that drew another scenario (the service's state grew meanwhile: another Flaky,
    with no failure seen) is harmless, and the caller starts a new run."""
    try:
        run()
    except hypothesis.errors.FlakyFailure:
        raise
    except hypothesis.errors.Flaky:
        pass


def test_a_failure_seen_once_is_reported_though_its_replay_passed():
    """A 5xx (or a failed check) on one call and not on the replay is hypothesis's FlakyFailure,
    a Flaky: it must fail the run, with the failure seen inside."""
    seen = []

    @hypothesis.given(st.integers())
    @hypothesis.settings(database=None, derandomize=True, phases=[hypothesis.Phase.generate])
    def calls(_value):
        seen.append(_value)
        if len(seen) == 1:
            raise AssertionError("500 INTERNAL_ERROR on POST /documents")

    with pytest.raises(hypothesis.errors.FlakyFailure) as raised:
        run_tolerating_another_path(calls)
    assert any("500 INTERNAL_ERROR" in str(error) for error in raised.value.exceptions)


def test_a_replay_that_took_another_path_starts_a_new_run():
    """The service's state grew meanwhile, so hypothesis's replay drew another scenario: no failure."""
    def calls():
        raise hypothesis.errors.FlakyStrategyDefinition("Inconsistent data generation!")

    run_tolerating_another_path(calls)
