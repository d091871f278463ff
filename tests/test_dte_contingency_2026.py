"""El Salvador on the 2026 formats: a contingency event is contingencia-schema-v4 when the company
issues in the 2026 edition at the event's date (v3 before), lists at most 1,000 DTEs of one
establishment, of either edition; the DTEs then go in lots, each signed in its own version; the
stand-in authority checks each document by the edition its version declares (the 2026 control
number DTE-tt-XnnnPnnn-...), the invalidation by the edition of the DTE it invalidates, and
receives the return event (18) at reception."""
from __future__ import annotations

import uuid

import pytest

from chalicelib import clock
from chalicelib.countries.sv.domain import dte_contingency_event, dte_formats
from chalicelib.countries.sv.services.dte import retry_pending_dte
from infra.devstack.dte_authority import seal_of
from tests.documents_support import SV_ISSUER, Shop

RESPONSIBLE = {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}
COMPANY = {"id": 7, "country": "SV", "name": "Alfa S.A. de C.V.", "taxId": "0614-010190-101-3",
           "address": "Calle Arce 123, San Salvador", "phone": "2222-3333", "email": "facturas@alfa.example",
           "dteIssuer": {"nrc": "123456-7", "economicActivityCode": "46510",
                         "economicActivity": "Venta al por mayor de computadoras", "department": "06",
                         "municipality": "23", "responsible": RESPONSIBLE, "formats2026From": "2026-11-01",
                         "establishments": [{"code": "002", "type": "01"}]}}


def _waiting(establishment: str, count: int, tipo: str = "01", version: int | None = 2) -> list[dict]:
    """`count` DTEs of one establishment in contingency, as the service stores them."""
    return [{"id": number, "number": f"{establishment}-001-01-{number:08d}", "date": "2026-11-02",
             "dte": {"codigoGeneracion": str(uuid.uuid4()).upper(), "tipoDte": tipo, "version": version,
                     "horEmi": f"10:{number % 60:02d}:00", "contingency": {"type": 1}}}
            for number in range(1, count + 1)]


def test_more_than_a_thousand_dtes_are_split_into_events_of_one_establishment_each():
    head_office, branch = _waiting("001", 2001), _waiting("002", 344)
    events = dte_contingency_event.in_events(head_office + branch)
    # 2,001 of establishment 001 = 1,000 + 1,000 + 1; establishment 002's 344 in an event of their own
    assert [len(event) for event in events] == [1000, 1000, 1, 344]
    assert [dte_contingency_event.establishment_of(event[0]) for event in events] == ["001", "001", "001", "002"]
    assert [document["id"] for event in events[:3] for document in event] == list(range(1, 2002))  # none lost, in order
    for event in events:
        built = dte_contingency_event.contingency_event(COMPANY, event, str(uuid.uuid4()).upper(), "2026-11-03",
                                                        "09:00:00")
        assert dte_formats.schema_problems(built, dte_formats.CONTINGENCY) == []
        assert built["identificacion"]["version"] == 4
        assert [item["noItem"] for item in built["detalleDTE"]] == list(range(1, len(event) + 1))
    # v4's emisor: the establishment's CAT-009 type (002 listed as a branch, 001 the company's default head
    # office), the Ministerio's codes required and null, no codPuntoVenta of the taxpayer's own
    first, last = (dte_contingency_event.contingency_event(COMPANY, event, str(uuid.uuid4()).upper(), "2026-11-03",
                                                           "09:00:00")["emisor"] for event in (events[0], events[3]))
    assert (first["tipoEstablecimiento"], last["tipoEstablecimiento"]) == ("02", "01")
    assert (first["codEstableMH"], first["codPuntoVentaMH"]) == (None, None) and "codPuntoVenta" not in first
    # one more than the schema takes is refused by it: the split is what keeps the events sendable
    too_many = dte_contingency_event.contingency_event(COMPANY, _waiting("001", 1001), str(uuid.uuid4()).upper(),
                                                       "2026-11-03", "09:00:00")
    # (the list's length, and item 1,001's noItem past the maximum 1,000)
    assert [problem["field"] for problem in dte_formats.schema_problems(too_many, dte_formats.CONTINGENCY)] == [
        "detalleDTE", "detalleDTE[1000].noItem"]


def test_the_event_is_v3_before_the_company_issues_in_2026_and_lists_dtes_of_either_edition():
    legacy_and_2026 = _waiting("001", 2, version=None) + _waiting("001", 1, tipo="03", version=4)
    # the company issues in 2026 from 2026-11-01: an event dated 2026-10-31 is v3, one dated 2026-11-01 v4
    before = dte_contingency_event.contingency_event(COMPANY, legacy_and_2026, str(uuid.uuid4()).upper(),
                                                     "2026-10-31", "23:00:00")
    since = dte_contingency_event.contingency_event(COMPANY, legacy_and_2026, str(uuid.uuid4()).upper(),
                                                    "2026-11-01", "00:00:00")
    assert (before["identificacion"]["version"], since["identificacion"]["version"]) == (3, 4)
    for event in (before, since):
        assert dte_formats.schema_problems(event, dte_formats.CONTINGENCY) == []
        assert [item["tipoDoc"] for item in event["detalleDTE"]] == ["01", "01", "03"]
    assert "codPuntoVenta" in before["emisor"] and "codPuntoVentaMH" not in before["emisor"]
    # a company without formats2026From stays on v3
    legacy = {**COMPANY, "dteIssuer": {**COMPANY["dteIssuer"], "formats2026From": None}}
    assert dte_contingency_event.version_for(legacy, "2026-11-03") == 3


# --- end to end: the service, the hourly run and the stand-in authority ---------------------------

@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, country="SV")


def issuing(shop: Shop, formats_2026_from: str | None) -> None:
    """The company's issuer settings: who answers for its contingency events and from when it issues
    in 2026 (its district: SV_ISSUER's municipality 14 of department 06, a pre-2024 code, names it)."""
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {
        **SV_ISSUER, "responsible": RESPONSIBLE, "formats2026From": formats_2026_from}}, key=shop.key)
    assert reply.status == 200, reply.text


def received(authority, codigo: str) -> dict:
    """A DTE as the stand-in registered it (signed JSON), checked against its own version's schema."""
    sent = authority.registered[codigo]["document"]
    assert dte_formats.schema_problems(sent) == []
    return sent


def test_2026_dtes_not_received_in_time_go_through_a_v4_event_and_a_lot(dte_authority, shop, table, later):
    issuing(shop, clock.today_in("SV"))
    dte_authority.faults(unavailable=True)
    issued = [shop.document("01", [(shop.service, quantity, 50)]) for quantity in (1, 2)]
    assert [document["dte"]["status"] for document in issued] == ["pending"] * 2
    dte_authority.faults(unavailable=False)
    later(21)  # past the service's 20 hours: declared, reported, sent as a lot and answered in one run
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 2, "eventsReported": 1,
                                                          "lotsSent": 1, "accepted": 2}
    answered = [shop.get(document["id"])["dte"] for document in issued]
    [event_code] = {dte["contingency"]["eventCodigo"] for dte in answered}
    [lot_id] = {dte["contingency"]["lotId"] for dte in answered}
    # the event the stand-in received: contingencia-schema-v4, valid, listing both FE v2 by code and type
    event = dte_authority.events[event_code]["document"]
    assert event["identificacion"]["version"] == 4 and dte_formats.schema_problems(event, dte_formats.CONTINGENCY) == []
    assert {(item["codigoGeneracion"], item["tipoDoc"]) for item in event["detalleDTE"]} == {
        (dte["codigoGeneracion"], "01") for dte in answered}
    assert (event["emisor"]["tipoEstablecimiento"], event["emisor"]["codEstableMH"],
            event["emisor"]["codPuntoVentaMH"]) == ("02", None, None)
    # each DTE in the lot: FE v2 with its 2026 control number, under the deferred model, sealed
    [lot] = [lot for lot in dte_authority.lots.values() if lot["idEnvio"] == lot_id]
    assert len(lot["documentos"]) == 2
    for dte in answered:
        identification = received(dte_authority, dte["codigoGeneracion"])["identificacion"]
        assert (identification["version"], identification["tipoModelo"], identification["tipoOperacion"]) == (2, 2, 2)
        assert identification["numeroControl"].startswith("DTE-01-M001P001-")
        assert dte["status"] == "accepted" and dte["selloRecepcion"] == seal_of(dte["codigoGeneracion"],
                                                                               dte["numeroControl"])


def test_a_legacy_dte_and_2026_ones_go_in_one_event_and_one_lot_each_in_its_own_version(dte_authority, shop,
                                                                                         table, later):
    issuing(shop, None)
    dte_authority.faults(unavailable=True)
    legacy = shop.document("01", [(shop.service, 1, 50)])  # issued before the company moved to 2026
    issuing(shop, clock.today_in("SV"))
    newer = [shop.document("01", [(shop.service, quantity, 50)]) for quantity in (2, 3)]
    assert [document["dte"]["status"] for document in (legacy, *newer)] == ["pending"] * 3
    dte_authority.faults(unavailable=False)
    later(21)
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 3, "eventsReported": 1,
                                                          "lotsSent": 1, "accepted": 3}
    answered = [shop.get(document["id"])["dte"] for document in (legacy, *newer)]
    # one v4 event (the company issues in 2026 at its date) lists the three, whatever their edition
    [event_code] = {dte["contingency"]["eventCodigo"] for dte in answered}
    event = dte_authority.events[event_code]["document"]
    assert event["identificacion"]["version"] == 4 and len(event["detalleDTE"]) == 3
    # one lot, each DTE signed in its own version: the legacy one still FE v1, DTE-01-00010001-...
    assert len({dte["contingency"]["lotId"] for dte in answered}) == 1
    versions = [(received(dte_authority, dte["codigoGeneracion"])["identificacion"]["version"],
                 dte["numeroControl"][:16]) for dte in answered]
    assert versions == [(1, "DTE-01-00010001-"), (2, "DTE-01-M001P001-"), (2, "DTE-01-M001P001-")]
    assert {dte["status"] for dte in answered} == {"accepted"}


def three_overdue_marked_two_at_a_time(dte_authority, shop: Shop, later, monkeypatch) -> list[dict]:
    """Three 2026 facturas the authority could not receive, 21 hours later (past the service's 20:
    declared, reported, sent as a lot and answered in one run), the service marking two DTEs per
    transaction instead of 50."""
    from chalicelib.countries.sv.services import dte_contingency

    monkeypatch.setattr(dte_contingency, "DECLARED_TOGETHER", 2)
    issuing(shop, clock.today_in("SV"))
    dte_authority.faults(unavailable=True)
    issued = [shop.document("01", [(shop.service, quantity, 50)]) for quantity in (1, 2, 3)]
    dte_authority.faults(unavailable=False)
    later(21)
    return issued


def test_an_event_larger_than_a_transaction_is_declared_in_several_under_one_code(dte_authority, shop, table,
                                                                                  later, monkeypatch):
    # two DTEs marked per transaction instead of 50: three DTEs take two transactions, one event
    issued = three_overdue_marked_two_at_a_time(dte_authority, shop, later, monkeypatch)
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 3, "eventsReported": 1,
                                                          "lotsSent": 1, "accepted": 3}
    contingencies = [shop.get(document["id"])["dte"]["contingency"] for document in issued]
    assert len({(c["eventCodigo"], c["eventDate"], c["eventTime"], c["eventVersion"]) for c in contingencies}) == 1
    assert contingencies[0]["eventVersion"] == 4
    event = dte_authority.events[contingencies[0]["eventCodigo"]]["document"]
    assert [item["noItem"] for item in event["detalleDTE"]] == [1, 2, 3]


def test_a_legacy_dte_retried_after_the_company_moved_to_2026_is_sent_alone_as_issued(dte_authority, shop, table,
                                                                                     later):
    issuing(shop, None)
    dte_authority.faults(unavailable=True)
    legacy = shop.document("01", [(shop.service, 1, 50)])
    issuing(shop, clock.today_in("SV"))
    dte_authority.faults(unavailable=False)
    later(2)  # within the window: retried the normal way, after the company moved to 2026
    newer = shop.document("01", [(shop.service, 2, 50)], date=clock.today_in("SV"))
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 1}
    # the stand-in checks the request's version against the signed one: each went with its own
    first, second = (received(dte_authority, document["codigoGeneracion"])["identificacion"]
                     for document in (legacy, newer))
    assert (first["version"], first["tipoModelo"], first["numeroControl"][:16]) == (1, 1, "DTE-01-00010001-")
    assert (second["version"], second["numeroControl"][:16]) == (2, "DTE-01-M001P001-")


def test_an_event_larger_than_a_transaction_has_its_seal_recorded_in_several(dte_authority, shop, table, later,
                                                                             monkeypatch):
    """Above a transaction's item limit, recording the event's seal in one transaction failed after
    the authority had received the event, and every later run failed again: the DTEs stayed pending."""
    from chalicelib.countries.sv.services import dte_contingency, dte_lots
    from chalicelib.store import transaction

    issuing(shop, clock.today_in("SV"))
    dte_authority.faults(unavailable=True)
    issued = [shop.document("01", [(shop.service, quantity, 50)]) for quantity in (1, 2, 3, 4)]
    dte_authority.faults(unavailable=False)
    # a transaction holds 3 items (recording an acceptance takes 3): the four DTEs' seal, in one
    # transaction, did not fit; they are declared and sealed 2 + 2, and each lot (its record and two
    # DTEs: 3 items) holds two, so two lots
    monkeypatch.setattr(transaction, "MAX_ITEMS", 3)
    monkeypatch.setattr(dte_contingency, "DECLARED_TOGETHER", 2)
    monkeypatch.setattr(dte_lots, "LOT_SIZE", 2)
    later(21)
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 4, "eventsReported": 1,
                                                          "lotsSent": 2, "accepted": 4}
    answered = [shop.get(document["id"])["dte"] for document in issued]
    assert len({dte["contingency"]["eventSeal"] for dte in answered}) == 1
    assert {dte["status"] for dte in answered} == {"accepted"}


def test_a_run_stopped_while_recording_the_seal_leaves_the_rest_to_the_next_without_sending_again(
        dte_authority, shop, table, later, monkeypatch):
    from chalicelib.countries.sv.services import dte_contingency

    issued = three_overdue_marked_two_at_a_time(dte_authority, shop, later, monkeypatch)
    recorded = dte_contingency._record_seal
    calls = []

    class TimedOut(BaseException):
        """The Lambda's time ran out: the whole run stops."""

    def stopped_after_the_first_transaction(table, company_id, codigo, seal, received_at, documents):
        calls.append(len(documents))
        if len(calls) == 1:  # the run records the first two, then the function times out
            recorded(table, company_id, codigo, seal, received_at, documents[:2])
            raise TimedOut()
        recorded(table, company_id, codigo, seal, received_at, documents)
    monkeypatch.setattr(dte_contingency, "_record_seal", stopped_after_the_first_transaction)
    with pytest.raises(TimedOut):
        retry_pending_dte(table, min_age_seconds=0)
    sent = len(dte_authority.events)
    later(22)
    retry_pending_dte(table, min_age_seconds=0)
    # the third DTE took the seal the authority gave: the event was not sent again (a different list
    # under its code would be refused), and every DTE was then accepted
    assert calls == [3, 1] and len(dte_authority.events) == sent
    answered = [shop.get(document["id"])["dte"] for document in issued]
    assert len({dte["contingency"]["eventSeal"] for dte in answered}) == 1
    assert {dte["status"] for dte in answered} == {"accepted"}


def test_an_event_sent_again_after_a_settings_change_says_what_it_said_when_declared(dte_authority, shop, table,
                                                                                    later):
    """The retried event was rebuilt from the company's current settings: a different event under the
    code of one sent without answer."""
    issuing(shop, clock.today_in("SV"))
    dte_authority.faults(unavailable=True)
    issued = shop.document("01", [(shop.service, 1, 50)])
    later(21)  # declared; the event gets no answer
    assert retry_pending_dte(table, min_age_seconds=0)["intoContingency"] == 1
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"phone": "2999-0000", "dteIssuer": {
        **SV_ISSUER, "formats2026From": clock.today_in("SV"), "establishmentType": "01",
        "responsible": {"name": "Juan Pérez", "documentType": "13", "documentNumber": "09876543-2"}}}, key=shop.key)
    assert reply.status == 200, reply.text
    dte_authority.faults(unavailable=False)
    later(22)
    assert retry_pending_dte(table, min_age_seconds=0) == {"eventsReported": 1, "lotsSent": 1, "accepted": 1}
    dte = shop.get(issued["id"])["dte"]
    event = dte_authority.events[dte["contingency"]["eventCodigo"]]["document"]
    # the responsible person, the head office (02, the type when declared) and the phone as declared
    assert (event["emisor"]["nombreResponsable"], event["emisor"]["numeroDocResponsable"],
            event["emisor"]["tipoEstablecimiento"]) == ("Marta Ruiz", "01234567-8", "02")
    assert event["emisor"]["telefono"] != "2999-0000"
    assert dte["status"] == "accepted"
