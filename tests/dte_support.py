"""What the El Salvador DTE tests share: an SV shop (its fixtures), a taxpayer, printing, and
what the table holds of a document's DTE."""
from __future__ import annotations

import base64
import io
import json
import re
from decimal import Decimal
from pathlib import Path

from pypdf import PdfReader

from chalicelib.store import keys
from infra.devstack.dte_authority import seal_of
from tests.documents_support import Shop, outbox_payloads

UPPERCASE_UUID4 = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}")
CUSTOMER_NIT = "0614-250585-102-2"  # weights 2 7 6 5 4 3 2 7 6 5 4 3 2: sum 207, 207 mod 11 = 9, 11 - 9 = 2
SAMPLES = Path(__file__).resolve().parent.parent / "build" / "reports"


def sv_shop(api, company) -> Shop:
    return Shop(api, company, country="SV")


def consumer_of(shop: Shop) -> int:
    """A final consumer named by NIT: a factura (01) is issued to them."""
    return shop.created("/business-partners", {"name": "Cliente con NIT", "type": "customer",
                                               "taxId": CUSTOMER_NIT})["id"]


def taxpayer_of(shop: Shop) -> int:
    """A registered taxpayer with what a crédito fiscal names of it."""
    return shop.created("/business-partners", {
        "name": "Empresa Beta S.A. de C.V.", "type": "customer", "taxId": "0614-020202-102-4", "nrc": "765432-1",
        "economicActivityCode": "62010", "economicActivity": "Programación informática", "department": "06",
        "municipality": "14", "address": "Colonia Escalón, San Salvador", "email": "compras@beta.example",
        "phone": "2555-0000"})["id"]


def customer_abroad(shop: Shop) -> int:
    """A buyer in the United States: what a factura de exportación (DTE 11) is issued to."""
    return shop.created("/business-partners", {
        "name": "Importadora del Norte Inc.", "type": "customer", "country": "US", "personType": "legal",
        "taxId": "98-7654321", "economicActivity": "Comercio al por mayor", "address": "100 Main Street, Houston",
        "email": "compras@norte.example", "phone": "+1 713 555 0100"})["id"]


# One of the destination codes fe-fex-v1's receptor.codPais enumerates (CAT-020).
EXPORT_DESTINATION = {"countryCode": "9905", "countryName": "Destino de prueba"}
EXPORT_TERMS = {**EXPORT_DESTINATION, "incoterms": "01", "incotermsDescription": "EXW - En fábrica"}


def export_invoice(shop: Shop, partner: int, **fields) -> dict:
    """Coffee and its haulage to the customs, exported: 3 x 100.00 less 10.00 + 45.50 = 335.50, no IVA."""
    return shop.created("/documents", {"type": "01", "businessPartnerId": partner, "date": shop.default_date,
                                       "export": EXPORT_TERMS, "lines": [
        {"description": "Café verde, quintal", "quantity": 3, "unitPrice": "100.00", "discount": "10.00",
         "taxTreatment": "export"},
        {"description": "Flete interno a la aduana", "quantity": 1, "unitPrice": "45.50", "taxTreatment": "export"}],
        **fields})


def printed(shop: Shop, document: dict, sample: str) -> str:
    """The document's PDF, saved under build/reports to look at; its text."""
    answer = shop.api.http.request("POST", f"/documents/{document['id']}/print", body=b"{}", headers={
        "authorization": f"Bearer {shop.key}", "accept": "application/pdf", "content-type": "application/json"})
    assert answer.status_code == 200, answer.body[:300]
    SAMPLES.mkdir(parents=True, exist_ok=True)
    (SAMPLES / sample).write_bytes(answer.body)
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(answer.body)).pages)


def invoice(shop: Shop, partner: int, **fields) -> dict:
    return shop.document("01", [(shop.service, 2, 50)], partner=partner, **fields)


def events(table, company_id: int, document_id: int) -> list[dict]:
    return [payload for payload in outbox_payloads(table, company_id)
            if payload["resourceType"] == "document" and int(payload["resourceId"]) == document_id]


def transmission(table, company_id: int, document_id: int) -> dict | None:
    return table.get(keys.dte_transmission(company_id, document_id))


def assert_accepted(document: dict) -> None:
    dte = document["dte"]
    assert dte["status"] == "accepted"
    assert dte["codigoGeneracion"] == document["codigoGeneracion"]
    assert dte["selloRecepcion"] == seal_of(dte["codigoGeneracion"], dte["numeroControl"])
    assert dte["observations"] == [] and dte["lastError"] is None
    assert dte["acceptedAt"] and dte["acceptedAt"] == dte["transmittedAt"]


# What the receiver's JSON adds after the signed members (countries/sv/services/dte_delivery.py).
APPENDED = ("firmaElectronica", "selloRecibido", "respuestaHacienda")


def transmitted(shop: Shop, document_id: int, accept: str = "application/json"):
    """GET /documents/{id}/dte, its body as bytes (as the receiver gets them)."""
    return shop.api.http.request("GET", f"/documents/{document_id}/dte", body=b"", headers={
        "authorization": f"Bearer {shop.key}", "accept": accept})


def received_payload(authority, codigo: str) -> bytes:
    """The JSON the stand-in authority received: the payload of the JWS it verified."""
    segment = authority.registered[codigo]["documento"].split(".")[1]
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def assert_delivered_as_received(shop: Shop, authority, document: dict) -> dict:
    """The route answers what the authority received, byte for byte, as JSON (the signed bytes
    first, then the signature, seal and answer) and as the JWS itself; returns the JSON."""
    codigo = document["codigoGeneracion"]
    jose = transmitted(shop, document["id"], "application/jose")
    assert jose.status_code == 200, jose.body[:300]
    assert jose.headers["Content-Type"] == "application/jose"
    assert jose.body == authority.registered[codigo]["documento"].encode("ascii")

    answer = transmitted(shop, document["id"])
    assert answer.status_code == 200, answer.body[:300]
    assert answer.headers["Content-Type"] == "application/json"
    payload = received_payload(authority, codigo)
    assert answer.body.startswith(payload[:-1] + b",")  # the signed bytes, untouched
    delivered = json.loads(answer.body, parse_float=Decimal)
    assert {name: value for name, value in delivered.items() if name not in APPENDED} == json.loads(
        payload, parse_float=Decimal)
    assert delivered["firmaElectronica"] == jose.body.decode("ascii")
    assert delivered["respuestaHacienda"] == json.loads(json.dumps(authority.registered[codigo]["answer"]))
    assert delivered["identificacion"]["codigoGeneracion"] == codigo
    return delivered
