"""El Salvador electronic tax documents (DTE): sales invoices of an SV company are issued with a
generation code and control number when confirmed, in the authority's format and signed with the
company's sealed key, sent to the tax authority (the stand-in, over HTTP) after the confirming transaction, answered
once, and retried from the pending index when no answer came."""
from __future__ import annotations

import io
import uuid

import pytest
import segno
from joserfc.jwk import RSAKey
from PIL import Image
from pypdf import PdfReader

from chalicelib.countries.sv.services.dte import configured_transmitter, retry_pending_dte
from chalicelib.countries.sv.services.dte_authority import HttpDteTransmitter
from chalicelib.store import keys
from tests.documents_support import SV_COMPANY_NIT, SV_ISSUER, Shop
from tests.dte_keys import FORGERS_KEY, SIGNING_KEY
from tests.dte_support import (
    SAMPLES,
    UPPERCASE_UUID4,
    assert_accepted,
    consumer_of,
    events,
    invoice,
    sv_shop,
    taxpayer_of,
    transmission,
)
from tests.support import DOCUMENT_CHART, DOCUMENT_RULES, RACES, Books


@pytest.fixture
def shop(api, company_a) -> Shop:
    return sv_shop(api, company_a)


@pytest.fixture
def customer(shop) -> int:
    return consumer_of(shop)


def test_an_invoice_created_confirmed_is_issued_and_accepted_as_a_dte(shop, customer, table):
    created = invoice(shop, customer)

    codigo = created["codigoGeneracion"]
    assert UPPERCASE_UUID4.fullmatch(codigo) and uuid.UUID(codigo).version == 4
    assert created["status"] == "confirmed" and created["cai"] is None and created["currency"] == "USD"
    assert created["number"] == "001-001-01-00000001"
    assert created["dte"]["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert created["dte"]["tipoDte"] == "01" and created["dte"]["attempts"] == 1
    assert_accepted(created)
    shown = shop.get(created["id"])
    assert shown["dte"] == created["dte"] and shown["codigoGeneracion"] == codigo
    assert shown["version"] == created["version"] == 2  # confirmed, then the answer recorded

    company_id = shop.company.company_id
    payloads = events(table, company_id, created["id"])
    assert [p["event"] for p in payloads].count("document.dte_accepted") == 1
    assert sorted(p["event"] for p in payloads) == ["document.confirmed", "document.created", "document.dte_accepted"]
    for payload in payloads:
        assert payload["data"]["codigoGeneracion"] == codigo
        assert payload["data"]["isConfirmed"] is True and payload["data"]["number"] == "0010010100000001"
    recorded = transmission(table, company_id, created["id"])
    assert recorded["status"] == "accepted" and "GSI1PK" not in recorded  # out of the pending index

    second = invoice(shop, customer)
    assert second["dte"]["numeroControl"] == "DTE-01-00010001-000000000000002"
    assert second["codigoGeneracion"] != codigo
    assert_accepted(second)


def test_its_journal_entry_names_it_by_its_numero_de_control_not_by_the_internal_number(shop, customer):
    """An accountant knows a DTE by its número de control (the EEE-PPP-TT-N number is the
    service's own, printed nowhere): the entry its confirmation posts says which one it is."""
    created = invoice(shop, customer)
    entry = shop.api.get(f"/journal-entries/{created['journalEntryId']}", key=shop.key)
    assert entry.status == 200, entry.text
    # the books' "{kind} {number}": the invoice's kind, then DTE-01-{0001 0001}-{1, 15 digits}
    assert entry.json["description"] == "Factura DTE-01-00010001-000000000000001"
    assert created["number"] not in entry.json["description"]
    # so does its payment's entry ("Pago {document}"), and the customer's statement names it so too
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    paid = shop.created(f"/payments/documents/{created['id']}/payments", {"paymentMethodId": cash["id"], "amount": 10})
    payment_entry = shop.api.get(f"/journal-entries/{paid['journalEntryId']}", key=shop.key).json
    assert payment_entry["description"] == "Pago DTE-01-00010001-000000000000001"
    statement = shop.api.get(f"/credits/client/{customer}/statement", key=shop.key)
    assert statement.status == 200, statement.text
    assert [m["description"] for m in statement.json["movements"]][0] == "Factura DTE-01-00010001-000000000000001"


def test_a_draft_becomes_a_dte_when_it_is_confirmed(shop, customer, table):
    draft = invoice(shop, customer, status="draft")
    assert draft["dte"] is None and draft["codigoGeneracion"] is None
    assert transmission(table, shop.company.company_id, draft["id"]) is None

    confirmed = shop.action(draft["id"], "confirm")
    assert confirmed["status"] == "confirmed"
    assert_accepted(confirmed)
    assert confirmed["dte"]["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert shop.get(draft["id"])["dte"] == confirmed["dte"]
    codes = {p["event"]: p["data"]["codigoGeneracion"] for p in events(table, shop.company.company_id, draft["id"])}
    assert codes == {"document.created": None, "document.confirmed": confirmed["codigoGeneracion"],
                     "document.dte_accepted": confirmed["codigoGeneracion"]}


def test_a_reservation_invoice_shares_the_invoices_control_numbers(shop, customer):
    first = invoice(shop, customer)
    reservation = shop.document("113", [(shop.service, 1, 50)], partner=customer)
    assert reservation["number"] == "001-001-113-00000001"
    assert reservation["dte"]["tipoDte"] == "01"
    assert reservation["dte"]["numeroControl"] == "DTE-01-00010001-000000000000002"
    assert first["dte"]["numeroControl"] == "DTE-01-00010001-000000000000001"
    assert_accepted(reservation)


def test_each_establishment_keeps_its_own_control_numbers(shop, customer, table):
    branch = shop.created("/branch", {"name": "Sucursal Santa Ana", "code": "002"})
    first = invoice(shop, customer)
    there = invoice(shop, customer, branchId=branch["id"])
    second = invoice(shop, customer)
    assert there["number"].startswith("002-") and there["dte"]["numeroControl"] == "DTE-01-00020001-000000000000001"
    assert [doc["dte"]["numeroControl"][-3:] for doc in (first, second)] == ["001", "002"]
    assert_accepted(there)


def test_every_point_starts_after_the_company_wide_sequence_kept_before(shop, customer, table):
    from chalicelib.store.transaction import Transaction

    # a company that issued 41 facturas, at any of its points, when the sequence was one per company and type
    Transaction(table).put({**keys.dte_control_sequence(shop.company.company_id, "01"), "nextNumber": 42}).commit()
    branch = shop.created("/branch", {"name": "Sucursal Santa Ana", "code": "002"})
    assert invoice(shop, customer)["dte"]["numeroControl"] == "DTE-01-00010001-000000000000042"
    assert invoice(shop, customer)["dte"]["numeroControl"] == "DTE-01-00010001-000000000000043"
    assert invoice(shop, customer, branchId=branch["id"])["dte"]["numeroControl"] == "DTE-01-00020001-000000000000042"


def test_a_consumer_needs_no_id_below_1095_dollars_and_the_format_refuses_it_above(shop, table):
    anonymous = invoice(shop, shop.customer)  # the shop's customer has no taxId
    assert_accepted(anonymous)
    assert anonymous["dte"]["receptor"]["tipoDocumento"] is None

    # 1,095 dollars or more: the factura names its receiver (the authority's schema), refused
    # before anything is stored, the field named with where it comes from
    refused = shop.api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "lines": [
        {"productId": shop.service, "quantity": 10, "unitPrice": 100}]}, key=shop.key)
    assert refused.status == 400, refused.text
    fields = {detail["field"]: detail["message"] for detail in refused.json["details"]}
    assert fields["dte.receptor.numDocumento"] == "missing: set the customer's NIT or DUI"
    listed = shop.api.get("/documents?type=01", key=shop.key).json
    assert [doc["id"] for doc in listed["documents"]] == [anonymous["id"]]
    # the number and control number it would have taken are the next document's
    api = shop.api
    api.put(f"/business-partners/{shop.customer}", {"taxId": "01234567-8"}, key=shop.key)
    named = shop.document("01", [(shop.service, 10, 100)], partner=shop.customer)
    assert (named["number"], named["dte"]["numeroControl"][-3:]) == ("001-001-01-00000002", "002")
    assert named["dte"]["receptor"]["tipoDocumento"] == "13" and named["dte"]["receptor"]["numDocumento"] == "01234567-8"
    assert_accepted(named)


def test_the_format_lists_every_problem_it_finds(shop, table):
    # lempiras in a dollar company: at a rate (US dollars per lempira), but a DTE is in dollars
    refused = shop.api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "currency": "HNL",
                                           "exchangeRate": "0.0405",
                                           "lines": [{"productId": shop.service, "quantity": 10, "unitPrice": 100}]},
                            key=shop.key)
    assert refused.status == 400
    assert [detail["field"] for detail in refused.json["details"]] == [
        "dte.identificacion.tipoMoneda", "dte.receptor.numDocumento", "dte.receptor.tipoDocumento"]


def test_a_format_refusal_answers_what_and_what_to_set_in_spanish(shop, table):
    """A crédito fiscal names the buyer's economic activity (fe-ccf-v3's receptor.codActividad):
    a taxpayer registered without it is refused, asked in Spanish, both parts of the detail in
    Spanish, and the message that quotes it too."""
    partner = shop.created("/business-partners", {
        "name": "Empresa Beta S.A. de C.V.", "type": "customer", "taxId": "0614-020202-102-4", "nrc": "765432-1",
        "economicActivity": "Programación informática", "department": "06", "municipality": "14",
        "address": "Colonia Escalón, San Salvador", "email": "compras@beta.example", "phone": "2555-0000"})["id"]
    body = {"type": "01", "businessPartnerId": partner, "lines": [{"productId": shop.service, "quantity": 1,
                                                                   "unitPrice": 100}]}
    english = shop.api.post("/documents", body, key=shop.key)
    spanish = shop.api.post("/documents", body, key=shop.key, headers={"Accept-Language": "es"})
    assert english.status == spanish.status == 400, spanish.text
    assert english.json["details"] == [{"field": "dte.receptor.codActividad",
                                        "message": "missing: set the customer's economic activity code"}]
    assert spanish.json["details"] == [{
        "field": "dte.receptor.codActividad",
        "message": "falta: indique el código de actividad económica del cliente"}]
    # the quoted field named as a person knows it (details[].field keeps the DTE's path)
    assert spanish.json["message"] == ("El formato de Hacienda rechaza este documento: Código de actividad económica "
                                       "del receptor: falta: indique el código de actividad económica del cliente")
    assert english.json["message"] == ("The tax authority's format refuses this document: Receiver's economic "
                                       "activity code: missing: set the customer's economic activity code")
    assert shop.api.get("/documents", key=shop.key).json["documents"] == []


def test_no_answer_leaves_it_pending_until_the_retry_records_it_once(dte_authority, shop, customer, table):
    dte_authority.faults(unavailable=True)
    created = invoice(shop, customer)  # still 201: the document is confirmed, its DTE pending

    company_id = shop.company.company_id
    dte = created["dte"]
    assert created["status"] == "confirmed" and dte["status"] == "pending"
    assert "did not answer" in dte["lastError"] and dte["attempts"] == 1 and dte["lastAttemptAt"]
    assert dte["selloRecepcion"] is None and UPPERCASE_UUID4.fullmatch(created["codigoGeneracion"])
    assert shop.get(created["id"])["dte"] == dte
    recorded = transmission(table, company_id, created["id"])
    assert recorded["status"] == "pending" and recorded["GSI1PK"].startswith("DTE_PENDING#")
    assert "document.dte_accepted" not in [p["event"] for p in events(table, company_id, created["id"])]

    # a transmission younger than the retry's minimum age is left to its own request
    sent = dte_authority.calls["/fesv/recepciondte"]
    assert retry_pending_dte(table) == {}
    assert dte_authority.calls["/fesv/recepciondte"] == sent
    # the configured transmitter still gets no answer: recorded, still pending
    assert retry_pending_dte(table, min_age_seconds=0) == {"pending": 1}
    assert shop.get(created["id"])["dte"]["attempts"] == 2
    retried = transmission(table, company_id, created["id"])  # moved to the back of the pending index
    assert retried["GSI1SK"].startswith(retried["lastAttemptAt"]) and retried["lastAttemptAt"] > recorded["createdAt"]
    assert retried["lastError"] == "the tax authority did not answer"

    dte_authority.faults(unavailable=False)
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    accepted = shop.get(created["id"])
    assert_accepted(accepted)
    assert accepted["dte"]["attempts"] == 3 and accepted["codigoGeneracion"] == created["codigoGeneracion"]
    recorded = transmission(table, company_id, created["id"])
    assert recorded["status"] == "accepted" and "GSI1PK" not in recorded and "lastError" not in recorded

    assert retry_pending_dte(table, min_age_seconds=0) == {}
    assert shop.get(created["id"]) == accepted
    accepted_events = [p for p in events(table, company_id, created["id"]) if p["event"] == "document.dte_accepted"]
    assert len(accepted_events) == 1
    assert accepted_events[0]["data"]["codigoGeneracion"] == created["codigoGeneracion"]


def test_why_a_transmission_got_no_answer_reads_in_the_callers_language(dte_authority, shop, customer, table):
    """The transmission (in the hourly retry too) has no caller: it stores the reason in the API's
    English, and each reader reads it in their own language, on the document and in the list."""
    dte_authority.faults(unavailable=True)
    created = invoice(shop, customer)
    spanish = {"Accept-Language": "es"}

    one = shop.api.get(f"/documents/{created['id']}", key=shop.key, headers=spanish)
    listed = shop.api.get("/documents", key=shop.key, headers=spanish)
    assert one.status == listed.status == 200, one.text
    assert one.json["dte"]["lastError"] == "Hacienda no respondió"
    assert [d["dte"]["lastError"] for d in listed.json["documents"] if d["id"] == created["id"]] == [
        "Hacienda no respondió"]
    # an English caller reads what was stored, as before
    assert shop.get(created["id"])["dte"]["lastError"] == "the tax authority did not answer"
    assert [d["dte"]["lastError"] for d in shop.api.get("/documents", key=shop.key).json["documents"]
            if d["id"] == created["id"]] == ["the tax authority did not answer"]
    assert transmission(table, shop.company.company_id, created["id"])["lastError"] == "the tax authority did not answer"
    # a command's answer too: the invoice confirmed while the authority is down
    body = {"type": "01", "businessPartnerId": customer, "lines": [{"productId": shop.service, "quantity": 2,
                                                                    "unitPrice": 50}]}
    confirmed = shop.api.post("/documents", body, key=shop.key, headers=spanish)
    assert confirmed.status == 201, confirmed.text
    assert confirmed.json["dte"]["lastError"] == "Hacienda no respondió"


@RACES
def test_a_concurrent_retry_that_answered_first_wins_and_the_other_records_nothing(dte_authority, shop, customer,
                                                                                  table):
    dte_authority.faults(unavailable=True)
    created = invoice(shop, customer)
    inner: dict[str, int] = {}

    dte_authority.faults(unavailable=False)
    authority = configured_transmitter(table)

    class RacingTransmitter:
        """While it waits for its answer, another run sends the same DTE and records it."""

        def transmit(self, submission):
            inner.update(retry_pending_dte(table, min_age_seconds=0))
            return authority.transmit(submission)  # already registered: the first answer

    assert retry_pending_dte(table, RacingTransmitter(), min_age_seconds=0) == {"skipped": 1}
    assert inner == {"accepted": 1}
    assert shop.get(created["id"])["dte"]["attempts"] == 2  # the failed first try and the inner run
    payloads = events(table, shop.company.company_id, created["id"])
    assert [p["event"] for p in payloads].count("document.dte_accepted") == 1


def test_a_transmitter_that_breaks_in_an_unexpected_way_does_not_fail_the_confirmation(shop, customer, table,
                                                                                    monkeypatch):
    def broken(self, submission):
        raise RuntimeError("socket closed")

    monkeypatch.setattr(HttpDteTransmitter, "transmit", broken)
    created = invoice(shop, customer)
    # the exception's text is logged, never shown
    assert created["dte"]["status"] == "pending" and created["dte"]["lastError"] == "the tax authority did not answer"
    monkeypatch.undo()
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    assert_accepted(shop.get(created["id"]))


def test_other_sv_documents_are_not_dtes(shop, customer, table):
    # a purchase from a registered taxpayer: its DTE is the supplier's to issue
    shop.api.put(f"/business-partners/{shop.supplier}", {"nrc": "765432-1"}, key=shop.key)
    purchase = shop.document("103", [(shop.product, 2, 40)])
    quote = shop.document("100", [(shop.service, 1, 50)], partner=customer)
    for document in (purchase, quote):
        assert document["dte"] is None and document["codigoGeneracion"] is None
        assert transmission(table, shop.company.company_id, document["id"]) is None


def test_honduras_documents_are_unaffected(api, company_b, table):
    hn = Shop(api, company_b)
    created = hn.document("01", [(hn.service, 1, 50)])
    assert created["cai"] is not None and created["dte"] is None and created["codigoGeneracion"] is None
    shown = hn.get(created["id"])
    assert shown["dte"] is None and shown["codigoGeneracion"] is None
    assert transmission(table, company_b.company_id, created["id"]) is None
    assert table.get(keys.dte_control_sequence(company_b.company_id, "01", "00010001")) is None
    payloads = events(table, company_b.company_id, created["id"])
    assert sorted(p["event"] for p in payloads) == ["document.confirmed", "document.created"]
    assert all(p["data"]["codigoGeneracion"] is None for p in payloads)


def test_another_companys_dte_documents_are_not_found(api, shop, customer, company_b, table):
    accepted = invoice(shop, customer)
    draft = invoice(shop, customer, status="draft")
    assert api.get(f"/documents/{accepted['id']}", key=company_b.api_key).status == 404
    confirm = api.post(f"/documents/{draft['id']}/confirm", {}, key=company_b.api_key)
    assert confirm.status == 404 and confirm.json["code"] == "NOT_FOUND"
    unchanged = shop.get(draft["id"])
    assert unchanged["status"] == "draft" and unchanged["dte"] is None
    assert transmission(table, shop.company.company_id, draft["id"]) is None


def test_the_authority_rejects_a_zero_total(shop, customer):
    free = shop.document("01", [(shop.service, 1, 0)], partner=customer)
    assert free["dte"]["status"] == "rejected"
    assert free["dte"]["observations"] == ["DOCUMENTO RECHAZADO", "[resumen.totalPagar] DEBE SER MAYOR QUE CERO"]


def test_the_hourly_run_sends_again_what_got_no_answer(dte_authority, shop, customer, table, monkeypatch):
    import datetime as dt

    from chalicelib import clock
    from chalicelib.events.handlers import run_scheduled_invoices

    dte_authority.faults(unavailable=True)
    created = invoice(shop, customer)
    assert created["dte"]["status"] == "pending"
    dte_authority.faults(unavailable=False)
    assert run_scheduled_invoices({})["dteRetries"] == {}  # just sent by its own request: left alone
    later = clock.now() + dt.timedelta(minutes=10)
    monkeypatch.setattr(clock, "now", lambda: later)
    assert run_scheduled_invoices({}) == {"scheduledInvoices": {"created": 0, "failed": 0, "skipped": 0},
                                          "gatewayRechecks": {"checked": 0, "decided": 0, "stillPending": 0,
                                                              "failed": 0, "givenUp": 0},
                                          "dteRetries": {"accepted": 1}}
    assert_accepted(shop.get(created["id"]))
    assert run_scheduled_invoices({})["dteRetries"] == {}


def test_a_credito_fiscal_and_its_notes_are_dtes_each_with_its_own_control_numbers(shop, table):
    taxpayer = taxpayer_of(shop)
    credito_fiscal = invoice(shop, taxpayer)
    assert credito_fiscal["dte"]["tipoDte"] == "03"
    assert credito_fiscal["dte"]["numeroControl"] == "DTE-03-00010001-000000000000001"
    assert_accepted(credito_fiscal)
    credit = shop.document("06", [(shop.service, 1, 20)], sourceDocumentId=credito_fiscal["id"], partner=taxpayer)
    debit = shop.document("07", [(shop.service, 1, 5)], sourceDocumentId=credito_fiscal["id"], partner=taxpayer)
    assert [(note["dte"]["tipoDte"], note["dte"]["numeroControl"]) for note in (credit, debit)] == [
        ("05", "DTE-05-00010001-000000000000001"), ("06", "DTE-06-00010001-000000000000001")]
    assert_accepted(credit)
    assert_accepted(debit)
    # a note correcting a factura is not a DTE: the authority's notes correct a crédito fiscal only
    factura = invoice(shop, shop.customer)
    plain = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=factura["id"])
    assert plain["dte"] is None and plain["codigoGeneracion"] is None
    assert transmission(table, shop.company.company_id, plain["id"]) is None


def test_a_note_retried_later_is_accepted_and_a_dte_note_is_not_cancelled_here(dte_authority, shop, table):
    taxpayer = taxpayer_of(shop)
    credito_fiscal = invoice(shop, taxpayer)
    dte_authority.faults(unavailable=True)
    note = shop.document("06", [(shop.service, 1, 20)], sourceDocumentId=credito_fiscal["id"], partner=taxpayer)
    assert note["dte"]["status"] == "pending"
    # read back from the table (its numbers are Decimals), the note still validates and is accepted
    dte_authority.faults(unavailable=False)
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    assert_accepted(shop.get(note["id"]))
    refused = shop.api.post(f"/documents/{note['id']}/cancel", {"reason": "error"}, key=shop.key)
    assert (refused.status, refused.json["code"]) == (400, "DOCUMENT_NOT_CANCELLABLE")
    assert shop.get(note["id"])["status"] == "confirmed"


def test_a_draft_priced_in_honduras_is_not_confirmed_once_the_company_is_salvadoran(api, company_a):
    shop = Shop(api, company_a)
    draft = shop.document("01", [(shop.service, 1, 100)], status="draft")           # at 15 %
    api.put(f"/companies/{company_a.company_id}", {"country": "SV", "currency": "USD"}, key=shop.key)
    refused = api.post(f"/documents/{draft['id']}/confirm", {}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "lines[0].taxRate")


def test_the_signing_key_is_kept_sealed_and_never_answered(api, company_a, company_b, table):
    key, path = company_a.api_key, f"/companies/{company_a.company_id}/dte-signing-key"
    assert api.get(path, key=key).status == 404
    shown = api.put(path, {"privateKey": SIGNING_KEY}, key=key)
    assert shown.status == 200, shown.text
    public = RSAKey.import_key(SIGNING_KEY).as_pem(private=False).decode()
    assert shown.json["publicKey"] == public and shown.json["bits"] == 2048 and len(shown.json["fingerprint"]) == 64
    assert "PRIVATE" not in shown.text and api.get(path, key=key).json == shown.json
    stored = table.get(keys.dte_signing_key(company_a.company_id))
    assert "PRIVATE" not in str(stored) and SIGNING_KEY.splitlines()[1] not in str(stored)

    def refused(body: dict) -> str:
        reply = api.put(path, body, key=key)
        assert reply.status == 400, reply.text
        return reply.json["details"][0]["message"]

    assert refused({"privateKey": "-----BEGIN PRIVATE KEY-----\n" + "A" * 200 + "\n-----END PRIVATE KEY-----"}) \
        == "not an RSA private key in PEM"
    assert refused({"privateKey": public}).startswith("String should match pattern")  # a public key's PEM
    small = RSAKey.generate_key(1024).as_pem(private=True).decode()
    assert refused({"privateKey": small}) == "the key has 1024 bits; at least 2048"
    assert api.get(path, key=key).json["publicKey"] == public  # unchanged by the refusals
    # another company's key is not this one's to read or replace
    other = f"/companies/{company_b.company_id}/dte-signing-key"
    assert api.get(other, key=key).status == 404
    assert api.put(other, {"privateKey": FORGERS_KEY}, key=key).status == 404


def test_an_el_salvador_dte_needs_a_signing_key_first(api, company_a, table):
    api.put(f"/companies/{company_a.company_id}", {
        "country": "SV", "currency": "USD", "taxId": SV_COMPANY_NIT, "address": "Calle Arce 123, San Salvador",
        "phone": "2222-3333", "email": "facturas@alpha.example", "dteIssuer": SV_ISSUER}, key=company_a.api_key)
    Books(api, company_a, full=False, chart=DOCUMENT_CHART, rules=DOCUMENT_RULES)
    customer = api.post("/business-partners", {"name": "Cliente", "type": "customer"}, key=company_a.api_key).json
    refused = api.post("/documents", {"type": "01", "businessPartnerId": customer["id"], "lines": [
        {"description": "Servicio", "quantity": 1, "unitPrice": 10, "taxRate": 0.13}]}, key=company_a.api_key)
    assert (refused.status, refused.json["code"]) == (400, "DTE_SIGNING_KEY_MISSING")
    assert api.put(f"/companies/{company_a.company_id}/dte-signing-key", {"privateKey": SIGNING_KEY},
                   key=company_a.api_key).status == 200
    # signed but with no way to log in at the authority: it could never be sent either
    refused = api.post("/documents", {"type": "01", "businessPartnerId": customer["id"], "lines": [
        {"description": "Servicio", "quantity": 1, "unitPrice": 10, "taxRate": 0.13}]}, key=company_a.api_key)
    assert (refused.status, refused.json["code"]) == (400, "DTE_AUTHORITY_CREDENTIALS_MISSING")
    assert api.get("/documents", key=company_a.api_key).json["documents"] == []


def test_the_authority_password_is_kept_sealed_and_the_user_is_the_nit(api, company_a, company_b, table,
                                                                        dte_authority):
    key, path = company_a.api_key, f"/companies/{company_a.company_id}/dte-authority-credentials"
    assert api.get(path, key=key).status == 404
    no_nit = api.put(path, {"password": "secreta"}, key=key)  # the user is the company's NIT: none yet
    assert (no_nit.status, no_nit.json["details"][0]["field"]) == (400, "password")
    shop = Shop(api, company_a, country="SV")  # sets the NIT, the key and the password (clave-api-de-prueba)
    shown = api.get(path, key=key)
    assert shown.status == 200 and shown.json["user"] == "06140101901013" and set(shown.json) == {"user", "updatedAt"}
    stored = table.get(keys.dte_authority_credentials(company_a.company_id))
    assert "clave-api-de-prueba" not in str(stored) and stored["sealedPassword"]["scheme"]
    assert api.get(f"/companies/{company_b.company_id}/dte-authority-credentials", key=key).status == 404
    assert api.put(f"/companies/{company_b.company_id}/dte-authority-credentials", {"password": "x"},
                   key=key).status == 404
    assert api.put(path, {"password": ""}, key=key).status == 400
    # a password the authority does not take: every DTE stays pending until it is set right
    assert api.put(path, {"password": "otra"}, key=key).status == 200
    pending = invoice(shop, shop.customer)
    assert pending["dte"]["status"] == "pending" and pending["dte"]["lastError"] == "the tax authority did not answer"
    assert api.put(path, {"password": "clave-api-de-prueba"}, key=key).status == 200
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}


def test_the_printed_version_shows_the_codes_the_seal_and_the_qr_of_the_public_consultation(shop, table):
    taxpayer = taxpayer_of(shop)
    credito_fiscal = invoice(shop, taxpayer)
    dte = credito_fiscal["dte"]
    printed = shop.api.http.request("POST", f"/documents/{credito_fiscal['id']}/print", body=b"{}", headers={
        "authorization": f"Bearer {shop.key}", "accept": "application/pdf", "content-type": "application/json"})
    assert printed.status_code == 200
    SAMPLES.mkdir(parents=True, exist_ok=True)
    (SAMPLES / "credito-fiscal-sv.pdf").write_bytes(printed.body)  # to look at
    page = PdfReader(io.BytesIO(printed.body)).pages[0]
    text = " ".join(page.extract_text().split())  # the title wraps in its box
    assert "COMPROBANTE DE CRÉDITO FISCAL" in text
    for value in (dte["codigoGeneracion"], dte["numeroControl"], dte["selloRecepcion"], "NRC: 765432-1",
                  "NIT: 0614-010190-101-3", "IVA 13 %"):
        assert value in text, value
    # the QR code is the public consultation of this DTE (drawn again from its URL, pixel for pixel)
    [image] = page.images
    expected = io.BytesIO()
    segno.make(f"https://admin.factura.gob.sv/consultaPublica?ambiente=00&codGen={dte['codigoGeneracion']}"
               f"&fechaEmi={credito_fiscal['date']}", error="m").save(expected, kind="png", scale=4, border=2)
    def modules(picture: Image.Image) -> list[bool]:
        """Dark or light per pixel, judged against the quiet zone's corner (the PDF may store the bits
        inverted)."""
        picture = picture.convert("1")
        light = picture.getpixel((0, 0))
        return [pixel != light for pixel in picture.getdata()]

    drawn, wanted = image.image, Image.open(expected)
    assert drawn.size == wanted.size and modules(drawn) == modules(wanted)
