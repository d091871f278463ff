"""The OpenAPI document and the reference page are public, so a client generator can be pointed at
the URL; every other route still needs a credential. The document is the code's, the same for every
caller (no company's data, no secret); El Salvador's catalogue of 770-odd economic activities is a
pattern there, checked by the service, and what a generator makes of the document has no VALUE_n
enum."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from chalicelib import jsoncodec
from chalicelib.api.openapi import build_document
from chalicelib.api.routing import ROUTES, Access
from chalicelib.countries.sv.domain import dte_catalogues
from tests.dte_support import sv_shop
from tests.test_local_stack import fresh_stack

# who may call without a credential: logging in, accepting an invitation, the gateways' signed
# callbacks, and the OpenAPI document
PUBLIC = {("POST", "/auth/login"), ("POST", "/auth/accept-invitation"), ("POST", "/webhooks/gateway-a"),
          ("POST", "/webhooks/gateway-b"), ("GET", "/openapi.json")}


def anonymous(api, method: str, path: str):
    """A request with no cookie and no key."""
    answer = api.http.request(method, path, headers={"Content-Type": "application/json"},
                              body=b"{}" if method in ("POST", "PUT", "PATCH") else None)
    return answer.status_code, answer.body.decode()


def test_the_openapi_document_and_the_reference_page_answer_without_credentials(api, company_a):
    status, text = anonymous(api, "GET", "/openapi.json")
    assert status == 200, text
    served = jsoncodec.loads(text)
    assert served["openapi"] == "3.1.0" and served["paths"]["/openapi.json"]["get"]["security"] == []
    # the same document for every caller: nothing of a company or a session in it
    with_key = api.get("/openapi.json", key=company_a.api_key).json
    assert served == with_key
    key_id, secret = company_a.api_key.split(":")
    assert key_id not in text and secret not in text and str(company_a.company_id) not in (
        served["info"]["version"], served["servers"][0]["url"])
    assert re.findall(r"\b(?:ak|sk)_[A-Za-z0-9_-]{12,}", text) == []
    # /docs: the reference page, public, that renders it
    status, _ = anonymous(api, "GET", "/docs")
    assert status == 302
    status, page = anonymous(api, "GET", "/app/reference.html")
    assert status == 200 and "reference.js" in page
    # the document tells integrators how to read money exactly
    assert "parse_float=decimal.Decimal" in served["info"]["description"] and "Decimal(digits)" in served["info"]["description"]


def test_every_other_route_needs_a_credential(api):
    public = {(spec.method, spec.path) for spec in ROUTES if spec.access is Access.PUBLIC}
    assert public == PUBLIC
    refused = {}
    for spec in ROUTES:
        if (spec.method, spec.path) in PUBLIC:
            continue
        path = re.sub(r"\{[^}]+\}", "1", spec.path)
        status, text = anonymous(api, spec.method, path)
        if status != 401:
            refused[f"{spec.method} {spec.path}"] = (status, text[:120])
    assert refused == {}


def test_economic_activities_are_a_pattern_in_the_document_and_checked_by_the_service(api, company_a):
    schemas = build_document()["components"]["schemas"]
    for model in ("PartnerCreate", "PartnerUpdate", "DteIssuer"):
        field = schemas[model]["properties"]["economicActivityCode"]
        options = field.get("anyOf", [field])
        code = next(option for option in options if option.get("type") == "string")
        assert "enum" not in code and code["pattern"] == "^[0-9]{5,6}$", (model, field)
    assert "99999" not in dte_catalogues.codes("CAT-019") and "46510" in dte_catalogues.codes("CAT-019")
    shop = sv_shop(api, company_a)
    refused = shop.api.post("/business-partners", {"name": "Gamma", "type": "customer", "economicActivityCode": "99999"},
                            key=shop.key, headers={"Accept-Language": "es"})
    assert (refused.status, refused.json["code"]) == (400, "VALIDATION_ERROR"), refused.text
    assert refused.json["details"] == [{"field": "economicActivityCode",
                                        "message": "'99999' no está en el catálogo CAT-019 de Hacienda"}]
    english = shop.api.post("/business-partners", {"name": "Gamma", "type": "customer", "economicActivityCode": "99999"},
                            key=shop.key)
    assert english.json["details"] == [{"field": "economicActivityCode",
                                        "message": "'99999' is not in the authority's catalogue CAT-019"}]
    # the company's own activity likewise
    company = shop.api.get("/companies", key=shop.key).json
    issuer = {**company["dteIssuer"], "economicActivityCode": "99999"}
    refused = shop.api.put(f"/companies/{company['id']}", {"dteIssuer": issuer}, key=shop.key)
    assert refused.status == 400 and [d["field"] for d in refused.json["details"]] == ["dteIssuer.economicActivityCode"]
    accepted = shop.api.post("/business-partners", {"name": "Gamma", "type": "customer",
                                                    "economicActivityCode": "46510"}, key=shop.key)
    assert accepted.status == 201, accepted.text


@pytest.mark.smoke
def test_a_generator_pointed_at_the_public_url_makes_no_value_n_enum(tmp_path):
    """openapi-python-client with its default settings, at a running local stack's URL, no key."""
    with fresh_stack(tmp_path) as (stack, _credentials):
        out = tmp_path / "client"
        generated = subprocess.run(
            [sys.executable, "-m", "openapi_python_client", "generate", "--url", f"{stack.base}/openapi.json",
             "--output-path", str(out)],
            capture_output=True, text=True, cwd=tmp_path, timeout=300,
            env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert generated.returncode == 0, generated.stdout + generated.stderr
    modules = list(out.rglob("*.py"))
    assert len(modules) > 300
    enums = [path for path in modules if "Enum):" in path.read_text()]
    assert len(enums) > 20  # document types, statuses, ... are enums still
    assert [path.name for path in modules if re.search(r"\bVALUE_\d+\b", path.read_text())] == []
