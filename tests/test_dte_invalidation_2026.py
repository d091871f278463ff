"""Issue 40, point 5 through HTTP: a DTE issued in the 2026 formats is invalidated by the Manual
Funcional V2.0 (section VII) with the invalidacion-schema-v3 event, and refused before anything
is sent when the manual refuses it (its window, the documents validated against it, the
replacement its motive takes); `allowedActions` follows. A legacy DTE keeps anulacion-schema-v2.
The clock is set (the service's and the stand-in authority's): Monday 30 November 2026, 10:00 in
San Salvador (16:00 UTC)."""
from __future__ import annotations

import datetime as dt

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_formats
from chalicelib.countries.sv.services import dte_signing
from tests.documents_support import SV_ISSUER, Shop
from tests.dte_support import consumer_of, sv_shop, taxpayer_of

ISSUED = dt.datetime(2026, 11, 30, 16, 0, tzinfo=dt.timezone.utc)  # 10:00 in El Salvador (UTC-6)
PEOPLE = {"responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"},
          "requester": {"name": "Jorge Pérez", "documentType": "36", "documentNumber": "06140202021024"}}


@pytest.fixture
def at(monkeypatch):
    def move(moment: dt.datetime) -> None:
        monkeypatch.setattr(clock, "now", lambda: moment)
    move(ISSUED)
    return move


@pytest.fixture
def sent_events(monkeypatch) -> list[dict]:
    """Every document or event the service signs (so sends), as built."""
    signed, original = [], dte_signing.sign

    def recording(table, company_id, document):
        signed.append(document)
        return original(table, company_id, document)
    monkeypatch.setattr(dte_signing, "sign", recording)
    return signed


def issuing_2026(shop: Shop) -> Shop:
    answer = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "formats2026From": clock.today_in("SV")}}, key=shop.key)
    assert answer.status == 200, answer.text
    return shop


@pytest.fixture
def shop(api, company_a, at) -> Shop:
    return issuing_2026(sv_shop(api, company_a))


def consumer(shop: Shop) -> int:
    """A final consumer named by NIT, with the address (and so the district) the 2026 FE names."""
    partner = consumer_of(shop)
    answer = shop.api.put(f"/business-partners/{partner}", {"department": "06", "municipality": "14",
                                                            "address": "Colonia Escalón", "email": "c@cliente.example"},
                          key=shop.key)
    assert answer.status == 200, answer.text
    return partner


def allowed(shop: Shop, document_id: int) -> list[str]:
    return shop.api.get(f"/documents/{document_id}", key=shop.key).json["allowedActions"]


def invalidations(sent: list[dict]) -> list[dict]:
    return [event for event in sent if "motivo" in event]


def test_a_2026_factura_is_invalidated_with_the_v3_event(dte_authority, shop, sent_events, table):
    sale = shop.document("01", [(shop.service, 2, 50)], partner=consumer(shop))
    assert sale["dte"]["status"] == "accepted" and sale["dte"]["numeroControl"].startswith("DTE-01-M001P001-")
    assert "invalidate" in allowed(shop, sale["id"])
    answer = shop.api.post(f"/documents/{sale['id']}/invalidate", {
        "invalidationType": 2, "reason": "El cliente desistió de la compra", **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    assert answer.json["status"] == "cancelled" and answer.json["dte"]["status"] == "invalidated"
    [event] = invalidations(sent_events)
    assert dte_formats.schema_problems(event, dte_formats.INVALIDATION) == []  # invalidacion-schema-v3
    assert event["identificacion"]["version"] == 3 and event["identificacion"]["fusion"] is None
    # an FE's event carries its own date and time (page 11): today, 10:00 in San Salvador
    assert (event["identificacion"]["fecEmi"], event["identificacion"]["horEmi"]) == ("2026-11-30", "10:00:00")
    emisor = event["emisor"]
    assert (emisor["codEstableMH"], emisor["codEstable"], emisor["codPuntoVentaMH"], emisor["codPuntoVenta"]) == (
        "M001", "M001", "P001", "P001")
    assert "nomEstablecimiento" not in emisor and "tipoEstablecimiento" not in emisor
    documento = event["documento"]
    assert "montoIva" not in documento and documento["codigoGeneracionR"] is None  # motive 2: null (page 13)
    assert (documento["codigoGeneracion"], documento["fecEmi"]) == (sale["codigoGeneracion"], "2026-11-30")
    assert event["motivo"]["tipoAnulacion"] == 2
    assert sale["codigoGeneracion"] in dte_authority.invalidations  # the stand-in sealed it


def test_a_factura_past_its_three_months_is_refused_and_nothing_is_sent(dte_authority, shop, sent_events, at):
    sale = shop.document("01", [(shop.service, 2, 50)], partner=consumer(shop))
    # sealed 30-11-2026 10:00 in San Salvador: three months later, 28-02-2027 (February has no 30th) at
    # 23:59:59 there, 06:00 UTC on 1 March less a second
    at(dt.datetime(2027, 3, 1, 5, 59, 59, tzinfo=dt.timezone.utc))
    assert "invalidate" in allowed(shop, sale["id"])
    at(dt.datetime(2027, 3, 1, 6, 0, 0, tzinfo=dt.timezone.utc))
    assert "invalidate" not in allowed(shop, sale["id"])
    refused = shop.api.post(f"/documents/{sale['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_WINDOW_CLOSED"), refused.text
    assert refused.json["details"][0]["message"] == (
        "sealed 2026-11-30 10:00:00: the last moment was 2027-02-28 23:59:59")
    spanish = shop.api.post(f"/documents/{sale['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key,
                            headers={"Accept-Language": "es"})
    assert spanish.json["message"] == ("Un DTE de tipo 01 se invalida dentro de los tres meses siguientes a su "
                                       "sello: el plazo terminó el 2027-02-28 a las 23:59:59.")
    assert invalidations(sent_events) == []  # nothing sent
    assert sale["codigoGeneracion"] not in dte_authority.invalidations  # the stand-in recorded nothing
    assert shop.get(sale["id"])["dte"]["status"] == "accepted" and shop.get(sale["id"])["status"] == "confirmed"


def test_a_credito_fiscal_past_the_10th_business_day_of_the_next_month_is_refused(dte_authority, shop, sent_events,
                                                                                 at):
    ccf = shop.document("01", [(shop.service, 2, 50)], partner=taxpayer_of(shop))
    assert ccf["dte"]["tipoDte"] == "03"
    # sealed in November 2026: December's 10th business day. Tue 1, 2, 3, Fri 4 (4), Mon 7-Fri 11 (9),
    # Mon 14 (10): 14-12-2026 at 23:59:59 in San Salvador, 06:00 UTC on the 15th less a second
    at(dt.datetime(2026, 12, 15, 5, 59, 59, tzinfo=dt.timezone.utc))
    assert "invalidate" in allowed(shop, ccf["id"])
    at(dt.datetime(2026, 12, 15, 6, 0, 0, tzinfo=dt.timezone.utc))
    refused = shop.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_WINDOW_CLOSED"), refused.text
    assert "invalidate" not in allowed(shop, ccf["id"])
    assert invalidations(sent_events) == [] and ccf["codigoGeneracion"] not in dte_authority.invalidations


def test_a_credito_fiscal_with_a_validated_credit_note_is_refused_until_the_note_is_invalidated(
        dte_authority, shop, sent_events):
    taxpayer = taxpayer_of(shop)
    ccf = shop.document("01", [(shop.service, 2, 50)], partner=taxpayer)
    note = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=ccf["id"], partner=taxpayer)
    assert (note["dte"]["tipoDte"], note["dte"]["status"]) == ("05", "accepted")
    assert "invalidate" not in allowed(shop, ccf["id"])
    dte_authority.faults(unavailable=True)  # asking the authority would be a 503: it is not asked
    refused = shop.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_BLOCKED"), refused.text
    assert [detail["documentId"] for detail in refused.json["details"]] == [note["id"]]
    assert note["number"] in refused.json["message"]
    assert invalidations(sent_events) == [] and ccf["codigoGeneracion"] not in dte_authority.invalidations
    dte_authority.faults(unavailable=False)
    # the note (05) is invalidated first and issued again after: motive 1 names no replacement (page 15)
    replaced = shop.api.post(f"/documents/{note['id']}/invalidate", {
        "invalidationType": 1, "reason": "Error en el monto de la nota", **PEOPLE}, key=shop.key)
    assert replaced.status == 200, replaced.text
    [note_event] = invalidations(sent_events)
    assert dte_formats.schema_problems(note_event, dte_formats.INVALIDATION) == []
    # a note's event carries the note's own generation date and time (page 11)
    assert note_event["identificacion"]["fecEmi"] == note["date"] == "2026-11-30"
    assert note_event["documento"]["codigoGeneracionR"] is None and note_event["documento"]["tipoDte"] == "05"
    assert "invalidate" in allowed(shop, ccf["id"])
    answer = shop.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert answer.status == 200 and answer.json["dte"]["status"] == "invalidated", answer.text


def test_the_replacement_follows_the_motive_and_the_type(dte_authority, shop, sent_events):
    partner = consumer(shop)
    sale = shop.document("01", [(shop.service, 2, 50)], partner=partner)
    path = f"/documents/{sale['id']}/invalidate"
    # motive 3 of an FE: the replacing FE is issued and sealed first
    missing = shop.api.post(path, {"invalidationType": 3, "reason": "Cambio de producto", **PEOPLE}, key=shop.key)
    assert (missing.status, missing.json["code"]) == (400, "DTE_INVALIDATION_REPLACEMENT_REQUIRED")
    assert missing.json["details"][0]["field"] == "replacementDocumentId"
    # a crédito fiscal does not replace a factura: an FE is replaced by an FE (page 14, "la nueva factura")
    wrong_type = shop.document("01", [(shop.service, 2, 45)], partner=taxpayer_of(shop))
    refused = shop.api.post(path, {"invalidationType": 3, "reason": "Cambio de producto",
                                   "replacementDocumentId": wrong_type["id"], **PEOPLE}, key=shop.key)
    assert (refused.status, refused.json["details"][0]) == (400, {
        "field": "replacementDocumentId", "message": "must be a DTE of type 01, as the one it replaces"})
    # the customer was the error (page 9, "error en la identificación del cliente"): another customer's FE replaces it
    # named by DUI 01234567-8: 0*9 + 1*8 + 2*7 + 3*6 + 4*5 + 5*4 + 6*3 + 7*2 = 112, check 10 - 2 = 8
    other = shop.created("/business-partners", {"name": "Cliente correcto", "type": "customer",
                                                "taxId": "01234567-8"})["id"]
    replacement = shop.document("01", [(shop.service, 2, 45)], partner=other)
    assert replacement["dte"]["tipoDte"] == "01", replacement["dte"]
    # motive 2 names none
    rescinded = shop.api.post(path, {"invalidationType": 2, "replacementDocumentId": replacement["id"], **PEOPLE},
                              key=shop.key)
    assert (rescinded.status, rescinded.json["code"]) == (400, "DTE_INVALIDATION_REPLACEMENT_NOT_ALLOWED")
    assert invalidations(sent_events) == []
    answer = shop.api.post(path, {"invalidationType": 3, "reason": "Cambio de producto",
                                  "replacementDocumentId": replacement["id"], **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    [event] = invalidations(sent_events)
    assert event["documento"]["codigoGeneracionR"] == replacement["codigoGeneracion"]
    assert dte_formats.schema_problems(event, dte_formats.INVALIDATION) == []


def test_a_legacy_dte_is_still_invalidated_with_anulacion_v2(api, company_a, at, dte_authority, sent_events):
    legacy = sv_shop(api, company_a)  # formats2026From not set: the legacy edition
    sale = legacy.document("01", [(legacy.service, 2, 50)], partner=taxpayer_of(legacy))
    issuing_2026(legacy)  # the company moves to the 2026 formats; the DTE keeps its own
    answer = legacy.api.post(f"/documents/{sale['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                             key=legacy.key)
    assert answer.status == 200, answer.text
    [event] = invalidations(sent_events)
    assert event["identificacion"]["version"] == 2 and "fecAnula" in event["identificacion"]
    assert "montoIva" in event["documento"]
    assert dte_formats.schema_problems(event, dte_formats.INVALIDATION) == []  # anulacion-schema-v2


def test_a_credito_fiscal_with_a_validated_debit_note_is_refused_naming_it(dte_authority, shop, sent_events):
    taxpayer = taxpayer_of(shop)
    ccf = shop.document("01", [(shop.service, 2, 50)], partner=taxpayer)
    note = shop.document("07", [(shop.service, 1, 10)], sourceDocumentId=ccf["id"], partner=taxpayer)
    assert (note["dte"]["tipoDte"], note["dte"]["status"]) == ("06", "accepted")
    refused = shop.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_BLOCKED"), refused.text
    assert refused.json["details"][0]["message"] == f"invalidate DTE 06 {note['number']} first"
    assert invalidations(sent_events) == [] and ccf["codigoGeneracion"] not in dte_authority.invalidations
    # allowedActions says so too, from the CCF's count of its validated debit notes (no read)
    assert "invalidate" not in allowed(shop, ccf["id"])
    # the note invalidated (motive 2), the CCF may be
    answer = shop.api.post(f"/documents/{note['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    assert "invalidate" in allowed(shop, ccf["id"])
    answer = shop.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert answer.status == 200 and answer.json["dte"]["status"] == "invalidated", answer.text


def test_a_2026_factura_to_an_anonymous_consumer_is_invalidated_naming_no_receiver(dte_authority, shop, sent_events):
    # v3 takes null where the FE named no receiver (page 13); v2 needed the receiver's document
    sale = shop.document("01", [(shop.service, 1, 20)], partner=shop.customer)
    assert sale["dte"]["status"] == "accepted", sale["dte"]
    assert "invalidate" in allowed(shop, sale["id"])
    answer = shop.api.post(f"/documents/{sale['id']}/invalidate", {"invalidationType": 2, **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text
    [event] = invalidations(sent_events)
    assert (event["documento"]["tipoDocumento"], event["documento"]["numDocumento"]) == (None, None)
    assert dte_formats.schema_problems(event, dte_formats.INVALIDATION) == []


def test_a_reason_over_the_v3_events_200_characters_is_refused_on_reason(dte_authority, shop, sent_events):
    """invalidacion-schema-v3's motivoAnulacion takes 200 characters (v2 took 250): refused on the
    request's field, not on the event's."""
    sale = shop.document("01", [(shop.service, 2, 50)], partner=consumer(shop))
    reason = "Error en el precio unitario de la línea. " * 5 + "Corregido."  # 41 * 5 + 10 = 215 characters
    assert len(reason) == 215
    path = f"/documents/{sale['id']}/invalidate"
    refused = shop.api.post(path, {"invalidationType": 2, "reason": reason, **PEOPLE}, key=shop.key,
                            headers={"Accept-Language": "es"})
    assert refused.status == 400, refused.text
    assert refused.json["details"][0] == {"field": "reason", "message": "como máximo 200 caracteres en los formatos 2026"}
    assert invalidations(sent_events) == []
    answer = shop.api.post(path, {"invalidationType": 2, "reason": reason[:200], **PEOPLE}, key=shop.key)
    assert answer.status == 200, answer.text


def test_motive_3_names_its_reason(dte_authority, shop, sent_events):
    partner = consumer(shop)
    sale = shop.document("01", [(shop.service, 2, 50)], partner=partner)
    replacement = shop.document("01", [(shop.service, 2, 45)], partner=partner)
    refused = shop.api.post(f"/documents/{sale['id']}/invalidate", {
        "invalidationType": 3, "replacementDocumentId": replacement["id"], **PEOPLE}, key=shop.key,
        headers={"Accept-Language": "es"})
    assert refused.status == 400, refused.text
    assert refused.json["details"][0] == {"field": "reason", "message": "requerido en el tipo 3 (otro motivo)"}
    assert invalidations(sent_events) == []


def test_a_legacy_credito_fiscal_past_its_window_is_refused_with_nothing_sent(api, company_a, at, dte_authority,
                                                                             sent_events):
    """The authority applies the manual's windows by the event's transmission date, whatever the
    DTE's format: a legacy CCF sealed Monday 30 November 2026 is invalidated by the 10th business
    day of December (Mon 14 December, as for a 2026 CCF above), then refused before it is sent."""
    legacy = sv_shop(api, company_a)  # formats2026From not set: the legacy edition
    ccf = legacy.document("01", [(legacy.service, 2, 50)], partner=taxpayer_of(legacy))
    assert (ccf["dte"]["tipoDte"], ccf["dte"]["version"]) == ("03", 3)
    at(dt.datetime(2026, 12, 15, 6, 0, 0, tzinfo=dt.timezone.utc))  # 15 Dec, 00:00 in San Salvador
    assert "invalidate" not in legacy.api.get(f"/documents/{ccf['id']}", key=legacy.key).json["allowedActions"]
    refused = legacy.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                              key=legacy.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_WINDOW_CLOSED"), refused.text
    assert invalidations(sent_events) == [] and ccf["codigoGeneracion"] not in dte_authority.invalidations
    # a second before the end it was still in time, and sent as anulacion-schema-v2
    at(dt.datetime(2026, 12, 15, 5, 59, 59, tzinfo=dt.timezone.utc))  # 14 Dec 23:59:59 in San Salvador
    answer = legacy.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                             key=legacy.key)
    assert answer.status == 200, answer.text
    [event] = invalidations(sent_events)
    assert event["identificacion"]["version"] == 2 and dte_formats.schema_problems(event, dte_formats.INVALIDATION) == []


def test_a_legacy_credito_fiscal_with_a_validated_debit_note_is_refused_and_allowed_actions_follow(
        api, company_a, at, dte_authority, sent_events):
    legacy = sv_shop(api, company_a)
    taxpayer = taxpayer_of(legacy)
    ccf = legacy.document("01", [(legacy.service, 2, 50)], partner=taxpayer)
    note = legacy.document("07", [(legacy.service, 1, 10)], sourceDocumentId=ccf["id"], partner=taxpayer)
    assert (note["dte"]["tipoDte"], note["dte"]["status"]) == ("06", "accepted")
    assert "invalidate" not in legacy.api.get(f"/documents/{ccf['id']}", key=legacy.key).json["allowedActions"]
    refused = legacy.api.post(f"/documents/{ccf['id']}/invalidate", {"invalidationType": 2, **PEOPLE},
                              key=legacy.key)
    assert (refused.status, refused.json["code"]) == (409, "DTE_INVALIDATION_BLOCKED"), refused.text
    assert invalidations(sent_events) == []
