"""POST /send-document: the document's PDF e-mailed through SES (moto captures the raw
message), the sending recorded on the document, and every refusal leaving nothing sent."""
from __future__ import annotations

import email
import io
from email import policy

import pypdf
import pytest

from chalicelib.events import mail
from tests.documents_support import Shop


@pytest.fixture
def shop(api, company_a, ses) -> Shop:
    shop = Shop(api, company_a)
    api.put(f"/companies/{company_a.company_id}", {"email": "ventas@alpha.hn"}, key=company_a.api_key)
    shop.spanish_customer = shop.created("/business-partners", {"name": "José Peña Muñoz", "type": "customer",
                                                                "taxId": "08011985123456"})["id"]
    return shop


def send(api, key: str, **fields):
    return api.post("/send-document", {"sendFrom": "email", **fields}, key=key)


def parsed(raw_message) -> email.message.EmailMessage:
    return email.message_from_string(raw_message.raw_data, policy=policy.default)


def test_the_document_is_mailed_as_a_pdf_attachment_and_the_sending_recorded(api, shop, ses):
    invoice = shop.document("01", [(shop.service, 2, 100)], partner=shop.spanish_customer)
    reply = send(api, shop.key, templateId=1, documentId=invoice["id"], email="jose.pena@cliente.hn",
                 subject="Su factura de noviembre", message="Estimado José:\nAdjuntamos su factura. ¡Gracias!")
    assert reply.status == 201, reply.text
    sending = reply.json
    assert {name: sending[name] for name in ("documentId", "email", "subject", "templateId", "channel",
                                             "attachment")} == {
        "documentId": invoice["id"], "email": "jose.pena@cliente.hn", "subject": "Su factura de noviembre",
        "templateId": 1, "channel": "email", "attachment": f"{invoice['number']}.pdf"}
    assert sending["sentAt"].endswith("Z") and sending["sentBy"] == shop.company.user_id

    assert len(ses) == 1
    raw = ses[0]
    assert raw.id == sending["messageId"]
    assert raw.source == "facturas@example.com" and set(raw.destinations) == {"jose.pena@cliente.hn"}
    message = parsed(raw)
    assert message["To"] == "jose.pena@cliente.hn" and message["Subject"] == "Su factura de noviembre"
    sender = message["From"].addresses[0]
    assert (sender.display_name, sender.addr_spec) == ("Alpha S. de R.L.", "facturas@example.com")
    assert message["Reply-To"] == "ventas@alpha.hn"
    assert message.get_body(("plain",)).get_content().strip() == "Estimado José:\nAdjuntamos su factura. ¡Gracias!"
    attachments = list(message.iter_attachments())
    assert len(attachments) == 1
    attachment = attachments[0]
    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_filename() == f"{invoice['number']}.pdf"
    content = attachment.get_content()
    assert content.startswith(b"%PDF")
    text = pypdf.PdfReader(io.BytesIO(content)).pages[0].extract_text()
    assert invoice["number"] in text and "José Peña Muñoz" in text and "DOSCIENTOS TREINTA LEMPIRAS" in text

    listed = api.get(f"/documents/{invoice['id']}/sendings", key=shop.key)
    assert listed.status == 200, listed.text
    assert listed.json["total"] == 1 and listed.json["sendings"] == [sending]


def test_defaults_template_subject_and_message(api, shop, ses):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    reply = send(api, shop.key, documentId=invoice["id"], email="cliente@example.hn")
    assert reply.status == 201, reply.text
    assert reply.json["templateId"] == 1
    assert reply.json["subject"] == f"Factura No. {invoice['number']} - Alpha S. de R.L."
    body = parsed(ses[0]).get_body(("plain",)).get_content()
    assert f"Adjuntamos factura No. {invoice['number']}" in body


def test_the_ticket_template_can_be_sent_and_sendings_list_newest_first(api, shop, ses):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    first = send(api, shop.key, documentId=invoice["id"], email="uno@example.hn").json
    second = send(api, shop.key, documentId=invoice["id"], email="dos@example.hn", templateId=2).json
    attachment = next(parsed(ses[1]).iter_attachments()).get_content()
    page = pypdf.PdfReader(io.BytesIO(attachment)).pages[0]
    assert float(page.mediabox.width) == pytest.approx(80 * 72 / 25.4, abs=0.05)
    listed = api.get(f"/documents/{invoice['id']}/sendings?limit=1", key=shop.key).json
    assert listed["total"] == 2 and listed["sendings"] == [second] and listed["nextCursor"]
    rest = api.get(f"/documents/{invoice['id']}/sendings?limit=1&cursor={listed['nextCursor']}", key=shop.key).json
    assert rest["sendings"] == [first]


def test_only_the_email_channel_exists(api, shop, ses):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    for channel in ("whatsapp", "sms", "EMAIL", ""):
        reply = send(api, shop.key, documentId=invoice["id"], email="x@example.hn", sendFrom=channel)
        assert reply.status == 400, channel
        assert reply.json["code"] == "CHANNEL_UNSUPPORTED" and reply.json["details"][0]["field"] == "sendFrom"
    assert send(api, shop.key, documentId=invoice["id"], email="x@example.hn", sendFrom=5).json["code"] == \
        "VALIDATION_ERROR"
    assert ses == []
    assert api.get(f"/documents/{invoice['id']}/sendings", key=shop.key).json["total"] == 0


@pytest.mark.parametrize("address", ["no-at-sign", "a@b", "a b@example.hn", "a,b@example.hn", "<a@example.hn>",
                                     "a@example.hn\r\nBcc: spy@evil.example", "\"a\"@example.hn", "a@-x.hn", ""])
def test_an_invalid_address_is_a_validation_error(api, shop, ses, address):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    reply = send(api, shop.key, documentId=invoice["id"], email=address)
    assert reply.status == 400, address
    assert reply.json["code"] == "VALIDATION_ERROR" and reply.json["details"][0]["field"] == "email"
    assert ses == []


def test_bad_fields_are_refused_before_anything_is_sent(api, shop, ses):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    entry_template = send(api, shop.key, documentId=invoice["id"], email="x@example.hn", templateId=3)
    assert entry_template.status == 400 and entry_template.json["code"] == "REPORT_TEMPLATE_MISMATCH"
    unknown_template = send(api, shop.key, documentId=invoice["id"], email="x@example.hn", templateId=42)
    assert unknown_template.status == 400 and unknown_template.json["code"] == "REPORT_TEMPLATE_NOT_FOUND"
    for subject in ("Hola\r\nBcc: spy@evil.hn", "Hola\u2028Bcc: spy@evil.hn", "Ho\x85la", "Ho\x0bla", "Ho\x00la"):
        injected = send(api, shop.key, documentId=invoice["id"], email="x@example.hn", subject=subject)
        assert injected.status == 400 and injected.json["details"][0]["field"] == "subject", subject
    for body, field in (({"email": "x@example.hn"}, "documentId"), ({"documentId": invoice["id"]}, "email"),
                        ({"documentId": invoice["id"], "email": "x@example.hn", "cc": "y@example.hn"}, "cc")):
        reply = api.post("/send-document", body, key=shop.key)
        assert reply.status == 400 and reply.json["details"][0]["field"] == field, body
    assert ses == []


def test_unknown_and_other_companies_documents_are_not_found(api, shop, company_b, ses):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    assert send(api, shop.key, documentId=999, email="x@example.hn").status == 404
    foreign = send(api, company_b.api_key, documentId=invoice["id"], email="x@example.hn")
    assert foreign.status == 404 and foreign.json["code"] == "NOT_FOUND"
    assert api.get(f"/documents/{invoice['id']}/sendings", key=company_b.api_key).status == 404
    assert ses == []


def test_a_message_ses_rejects_is_a_clear_error_and_records_nothing(api, shop, ses, settings_env):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    settings_env(MAIL_FROM="facturas@unverified.example")
    mail.reset_mailer()
    reply = send(api, shop.key, documentId=invoice["id"], email="x@example.hn")
    assert reply.status == 502, reply.text
    assert reply.json["code"] == "EMAIL_REJECTED" and "nothing was sent" in reply.json["message"]
    assert ses == []
    assert api.get(f"/documents/{invoice['id']}/sendings", key=shop.key).json["total"] == 0


def test_an_idempotency_key_replay_sends_once(api, shop, ses):
    invoice = shop.document("01", [(shop.service, 1, 100)])
    body = {"sendFrom": "email", "documentId": invoice["id"], "email": "x@example.hn"}
    first = api.post("/send-document", body, key=shop.key, headers={"Idempotency-Key": "send-1"})
    again = api.post("/send-document", body, key=shop.key, headers={"Idempotency-Key": "send-1"})
    assert (first.status, again.status) == (201, 201)
    assert again.header("Idempotent-Replayed") == "true" and again.json == first.json
    assert len(ses) == 1
    other = api.post("/send-document", {**body, "email": "y@example.hn"}, key=shop.key,
                     headers={"Idempotency-Key": "send-1"})
    assert other.status == 422 and len(ses) == 1


def test_company_text_with_line_breaks_still_makes_one_line_headers(api, shop, ses):
    api.put(f"/companies/{shop.company.company_id}", {"name": "Alpha\nS.A.", "email": "a\x1cb@alpha.hn"},
            key=shop.key)
    invoice = shop.document("01", [(shop.service, 1, 100)])
    reply = send(api, shop.key, documentId=invoice["id"], email="cliente@example.hn")
    assert reply.status == 201, reply.text
    message = parsed(ses[0])
    assert message["Subject"] == f"Factura No. {invoice['number']} - Alpha S.A."
    assert message["From"].addresses[0].display_name == "Alpha S.A."
    assert message["Reply-To"] is None  # the stored e-mail is no address a mail header can carry


def test_a_sending_that_cannot_be_recorded_is_not_sent_again(api, shop, ses, monkeypatch):
    from chalicelib.services.sales_purchases import printing
    from chalicelib.store.transaction import LostRace, Transaction

    invoice = shop.document("01", [(shop.service, 1, 100)])

    def always_lost(self):
        raise LostRace("contention")

    monkeypatch.setattr(printing, "RECORD_ATTEMPTS", 2)
    monkeypatch.setattr(Transaction, "commit", always_lost)
    reply = send(api, shop.key, documentId=invoice["id"], email="cliente@example.hn")
    monkeypatch.undo()
    assert reply.status == 201, reply.text
    assert len(ses) == 1 and reply.json["messageId"] == ses[0].id
    assert api.get(f"/documents/{invoice['id']}/sendings", key=shop.key).json["total"] == 0
