"""El Salvador on the 2026 formats: a contingency event is contingencia-schema-v4 when the company
issues in the 2026 edition at the event's date (v3 before), lists at most 1,000 DTEs of one
establishment, of either edition; the DTEs then go in lots, each signed in its own version; the
stand-in authority checks each document by the edition its version declares (the 2026 control
number DTE-tt-XnnnPnnn-...), the invalidation by the edition of the DTE it invalidates, and
receives the return event (18) at reception."""
from __future__ import annotations

import uuid

from chalicelib.countries.sv.domain import dte_contingency_event, dte_formats

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
