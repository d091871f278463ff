"""El Salvador: the DTE handed to its receiver. GET /documents/{id}/dte answers the DTE as the
tax authority (the stand-in) received it, byte for byte, with its seal and answer, or the signed
JWS itself; POST /send-document e-mails it beside the PDF."""
from __future__ import annotations

import email
import io
import json
from decimal import Decimal
from email import policy

import pypdf
import pytest

from chalicelib.countries.sv.services.dte import retry_pending_dte
from chalicelib.store import keys
from chalicelib.store.table import to_attributes
from infra.devstack.dte_authority import seal_of
from tests.documents_support import Shop
from tests.dte_support import (
    assert_delivered_as_received,
    consumer_of,
    invoice,
    received_payload,
    sv_shop,
    transmitted,
)


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


@pytest.fixture
def customer(shop) -> int:
    return consumer_of(shop)


def test_the_dte_is_answered_as_the_authority_received_it_with_its_seal(dte_authority, shop, customer):
    issued = invoice(shop, customer)  # 2 x 50.00 of a service taxed at 13 %
    dte = issued["dte"]
    assert dte["status"] == "accepted"

    delivered = assert_delivered_as_received(shop, dte_authority, issued)
    assert delivered["identificacion"]["numeroControl"] == dte["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert delivered["identificacion"]["tipoDte"] == "01"
    assert delivered["selloRecibido"] == dte["selloRecepcion"] == seal_of(issued["codigoGeneracion"],
                                                                          dte["numeroControl"])
    answer = delivered["respuestaHacienda"]
    assert answer["estado"] == "PROCESADO" and answer["selloRecibido"] == delivered["selloRecibido"]
    assert answer["codigoGeneracion"] == issued["codigoGeneracion"] and answer["observaciones"] == []
    assert len(answer["fhProcesamiento"]) == 19  # dd/mm/yyyy hh:mm:ss, as the authority writes it
    # a factura's total includes the IVA: 2 x 50.00 = 100.00, IVA 13 % = 13.00, to pay 113.00
    assert delivered["resumen"]["totalPagar"] == Decimal("113.00")
    assert delivered["resumen"]["totalIva"] == Decimal("13.00")


def test_a_dte_the_authority_has_not_answered_is_refused_until_a_retry_sends_it(dte_authority, shop, customer, table):
    dte_authority.faults(unavailable=True)
    issued = invoice(shop, customer)
    assert issued["dte"]["status"] == "pending"
    for accept in ("application/json", "application/jose"):
        refused = transmitted(shop, issued["id"], accept)
        assert refused.status_code == 400 and json.loads(refused.body)["code"] == "DTE_NOT_TRANSMITTED"
    spanish = shop.api.get(f"/documents/{issued['id']}/dte", key=shop.key, headers={"Accept-Language": "es"})
    assert spanish.status == 400 and spanish.json["message"].startswith("Hacienda aún no ha respondido a este DTE")

    dte_authority.faults(unavailable=False)
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    assert_delivered_as_received(shop, dte_authority, issued)


def test_a_document_without_dte_or_of_another_company_is_not_found(dte_authority, shop, customer, api, company_b):
    issued = invoice(shop, customer)
    draft = invoice(shop, customer, status="draft")
    for path, key in ((f"/documents/{draft['id']}/dte", shop.key), ("/documents/999999/dte", shop.key),
                      (f"/documents/{issued['id']}/dte", company_b.api_key)):
        answer = api.get(path, key=key)
        assert answer.status == 404 and answer.json["code"] == "NOT_FOUND", (path, answer.text)
    hn_invoice = Shop(api, company_b).document("01", [(None, 1, 100)])
    answer = api.get(f"/documents/{hn_invoice['id']}/dte", key=company_b.api_key)
    assert answer.status == 404 and answer.json["message"] == "This document is not an El Salvador DTE."


def test_the_e_mail_carries_the_dte_json_and_its_pdf_named_by_generation_code(dte_authority, shop, customer, ses):
    issued = invoice(shop, customer)
    codigo = issued["codigoGeneracion"]
    reply = shop.api.post("/send-document", {"documentId": issued["id"], "email": "cliente@example.sv"}, key=shop.key)
    assert reply.status == 201, reply.text
    assert reply.json["attachment"] == f"{codigo}.pdf"
    assert reply.json["attachments"] == [f"{codigo}.pdf", f"{codigo}.json"]

    message = email.message_from_string(ses[0].raw_data, policy=policy.default)
    pdf, document = list(message.iter_attachments())
    assert (pdf.get_filename(), pdf.get_content_type()) == (f"{codigo}.pdf", "application/pdf")
    text = pypdf.PdfReader(io.BytesIO(pdf.get_content())).pages[0].extract_text()
    assert codigo in text and issued["dte"]["numeroControl"] in text
    assert (document.get_filename(), document.get_content_type()) == (f"{codigo}.json", "application/json")
    attached = document.get_content()
    attached = attached if isinstance(attached, bytes) else attached.encode("utf-8")
    assert attached == transmitted(shop, issued["id"]).body  # the file GET /documents/{id}/dte answers
    assert json.loads(attached)["identificacion"]["codigoGeneracion"] == codigo

    listed = shop.api.get(f"/documents/{issued['id']}/sendings", key=shop.key)
    assert listed.status == 200 and listed.json["sendings"][0]["attachments"] == [f"{codigo}.pdf", f"{codigo}.json"]


def test_a_dte_still_pending_is_e_mailed_as_its_pdf_alone(dte_authority, shop, customer, ses):
    dte_authority.faults(unavailable=True)
    issued = invoice(shop, customer)
    reply = shop.api.post("/send-document", {"documentId": issued["id"], "email": "cliente@example.sv"}, key=shop.key)
    assert reply.status == 201, reply.text
    assert reply.json["attachments"] == [f"{issued['number']}.pdf"]
    message = email.message_from_string(ses[0].raw_data, policy=policy.default)
    assert [part.get_filename() for part in message.iter_attachments()] == [f"{issued['number']}.pdf"]


def test_a_dte_answered_before_what_was_sent_was_kept_is_built_and_signed_again(dte_authority, shop, customer, table):
    issued = invoice(shop, customer)
    key = keys.dte_transmission(shop.company.company_id, issued["id"])
    table.client.update_item(TableName=table.name, Key=to_attributes(key), UpdateExpression="REMOVE sent")

    codigo = issued["codigoGeneracion"]
    # the same key signs the same JSON to the same bytes (PKCS#1 v1.5 is deterministic)
    jose = transmitted(shop, issued["id"], "application/jose")
    assert jose.status_code == 200 and jose.body == dte_authority.registered[codigo]["documento"].encode("ascii")
    answer = transmitted(shop, issued["id"])
    assert answer.status_code == 200 and answer.body.startswith(received_payload(dte_authority, codigo)[:-1] + b",")
    delivered = json.loads(answer.body)
    assert delivered["selloRecibido"] == issued["dte"]["selloRecepcion"]
    assert delivered["respuestaHacienda"]["estado"] == "PROCESADO"
