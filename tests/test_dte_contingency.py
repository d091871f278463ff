"""El Salvador: a DTE the authority could not receive within its 24-hour window goes through
contingency: the hourly run declares it, reports it in a contingency event the stand-in checks
(schema, signature, issuer), and sends it under the deferred model, in a lot with the company's
others, whose answers it polls and records once each; the stand-in refuses a deferred DTE no
event reported."""
from __future__ import annotations

import pytest

from chalicelib import clock
from chalicelib.countries.sv.services import dte as dte_service
from chalicelib.countries.sv.services.dte import retry_pending_dte
from chalicelib.countries.sv.services.dte_authority import Lot
from infra.devstack.dte_authority import seal_of
from tests.documents_support import SV_ISSUER, Shop
from tests.dte_support import assert_delivered_as_received
from tests.support import RACES

RESPONSIBLE = {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a, country="SV")


def test_a_dte_not_received_in_time_is_reported_in_contingency_then_sent_deferred(dte_authority, shop, table, later):
    dte_authority.faults(unavailable=True)
    invoice = shop.document("01", [(shop.service, 2, 50)])
    codigo = invoice["codigoGeneracion"]
    assert invoice["dte"]["status"] == "pending" and invoice["dte"]["contingency"] is None
    dte_authority.faults(unavailable=False)

    later(2)  # still within the window, and the authority answers again: sent normally
    other = shop.document("01", [(shop.service, 1, 50)], date=clock.today_in("SV"))
    assert other["dte"]["status"] == "accepted"
    dte_authority.faults(unavailable=True)
    later(21)  # the authority down for most of a day: the first one is past the service's 20 hours
    received, events_sent = dte_authority.calls["/fesv/recepciondte"], dte_authority.calls["/fesv/contingencia"]
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 1, "pending": 1}
    declared = shop.get(invoice["id"])["dte"]
    contingency = declared["contingency"]
    assert contingency["type"] == 1 and contingency["eventSeal"] is None and declared["status"] == "pending"
    event = contingency["eventCodigo"]
    assert event != codigo and len(event) == 36
    # the event could not be sent; the DTE waits for it instead of being sent late
    assert dte_authority.calls["/fesv/recepciondte"] == received

    dte_authority.faults(unavailable=False)
    later(22)  # the authority is back, but the company has not named who answers for the event
    assert retry_pending_dte(table, min_age_seconds=0) == {"pending": 1}
    assert dte_authority.calls["/fesv/recepciondte"] == received and dte_authority.calls["/fesv/contingencia"] == events_sent
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {**SV_ISSUER, "responsible": RESPONSIBLE}},
                         key=shop.key)
    assert reply.status == 200 and reply.json["dteIssuer"]["responsible"] == RESPONSIBLE

    later(23)
    assert retry_pending_dte(table, min_age_seconds=0) == {"eventsReported": 1, "lotsSent": 1, "accepted": 1}
    accepted = shop.get(invoice["id"])["dte"]
    assert accepted["status"] == "accepted" and accepted["selloRecepcion"] == seal_of(codigo, accepted["numeroControl"])
    assert accepted["contingency"]["eventCodigo"] == event and accepted["contingency"]["eventSeal"].startswith("20")
    # what the authority received: the event listing it, then the DTE under the deferred model
    assert dte_authority.reported["06140101901013"] >= {codigo}
    identification = dte_authority.registered[codigo]["document"]["identificacion"]
    assert (identification["tipoModelo"], identification["tipoOperacion"], identification["tipoContingencia"]) == (2, 2, 1)
    assert identification["fecEmi"] == invoice["date"]  # issued that day, received more than 23 hours later
    # handed to the receiver as finally sent: the deferred model, not what the first attempts carried
    delivered = assert_delivered_as_received(shop, dte_authority, invoice)["identificacion"]
    assert (delivered["tipoModelo"], delivered["tipoOperacion"], delivered["tipoContingencia"]) == (2, 2, 1)
    assert retry_pending_dte(table, min_age_seconds=0) == {}
    assert shop.get(other["id"])["dte"]["contingency"] is None


def test_the_stand_in_refuses_a_deferred_dte_no_event_reported(dte_authority, shop, table, later, monkeypatch):
    from chalicelib.countries.sv.services import dte_contingency

    dte_authority.faults(unavailable=True)
    invoice = shop.document("01", [(shop.service, 2, 50)])
    dte_authority.faults(unavailable=False)
    later(21)
    # the event is lost on the way (the authority never saw it), yet its seal were recorded: sent deferred
    monkeypatch.setattr(dte_contingency, "waiting_for_event", lambda dte: False)
    monkeypatch.setattr(dte_contingency, "_report", lambda *args: 0)
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 1, "lotsSent": 1, "rejected": 1}
    rejected = shop.get(invoice["id"])["dte"]
    assert rejected["observations"][1:] == [
        "[identificacion.tipoModelo] DOCUMENTO EN CONTINGENCIA NO REPORTADO EN UN EVENTO DE CONTINGENCIA"]



def responsible(shop: Shop) -> None:
    reply = shop.api.put(f"/companies/{shop.company.company_id}", {"dteIssuer": {**SV_ISSUER, "responsible": RESPONSIBLE}},
                         key=shop.key)
    assert reply.status == 200, reply.text


def test_an_event_whose_answer_was_lost_is_sent_again_as_the_same_event(dte_authority, shop, table, later):
    responsible(shop)
    dte_authority.faults(unavailable=True)
    invoice = shop.document("01", [(shop.service, 2, 50)])
    dte_authority.faults(unavailable=False, drop_answers=3)  # the event arrives; its answers never do
    later(21)
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 1, "pending": 1}
    event = shop.get(invoice["id"])["dte"]["contingency"]["eventCodigo"]
    assert dte_authority.events[event]  # received there
    later(22)  # sent again: the same event (its date, time and DTEs fixed when declared), answered as before
    assert retry_pending_dte(table, min_age_seconds=0) == {"eventsReported": 1, "lotsSent": 1, "accepted": 1}
    assert shop.get(invoice["id"])["dte"]["contingency"]["eventSeal"] == dte_authority.events[event]["answer"][
        "selloRecibido"]


@RACES
def test_an_overdue_dte_is_never_sent_late_and_never_hides_the_others(dte_authority, shop, table, later, monkeypatch):
    from chalicelib.countries.sv.services import dte_contingency
    from chalicelib.store import keys

    dte_authority.faults(unavailable=True)
    overdue = shop.document("01", [(shop.service, 2, 50)])
    dte_authority.faults(unavailable=False)
    later(21)
    # its declaration failed this run (a concurrent change): still, it is not sent the normal way
    monkeypatch.setattr(dte_contingency, "_declare", lambda *args: 0)
    sent = dte_authority.calls["/fesv/recepciondte"]
    assert retry_pending_dte(table, min_age_seconds=0) == {"pending": 1}
    assert dte_authority.calls["/fesv/recepciondte"] == sent
    transmission = table.get(keys.dte_transmission(shop.company.company_id, overdue["id"]))
    assert transmission["GSI1SK"] > transmission["createdAt"]  # to the back of the pending index


def test_the_hourly_run_stops_at_the_first_dte_the_authority_does_not_answer(dte_authority, shop, table, later):
    dte_authority.faults(unavailable=True)
    for _ in range(3):
        assert shop.document("01", [(shop.service, 1, 50)])["dte"]["status"] == "pending"
    later(1)
    asked = dte_authority.calls["/seguridad/auth"] + dte_authority.calls["/fesv/recepciondte"]
    assert retry_pending_dte(table, min_age_seconds=0) == {"pending": 1}
    # one DTE's attempts (3, with backoff), not the three DTEs'
    assert dte_authority.calls["/seguridad/auth"] + dte_authority.calls["/fesv/recepciondte"] - asked == 3
    dte_authority.faults(unavailable=False)
    later(2)
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 3}


def test_the_hourly_run_counts_the_dtes_past_the_window_for_the_alarm(dte_authority, shop, table, later, capsys):
    import json

    from chalicelib.events.handlers import run_scheduled_invoices

    dte_authority.faults(unavailable=True)
    shop.document("01", [(shop.service, 2, 50)])
    later(25)  # the authority down for more than a day
    capsys.readouterr()
    summary = run_scheduled_invoices({})
    assert summary["dteRetries"]["overdue"] == 1 and summary["dteRetries"]["intoContingency"] == 1
    # the metric the DteOverdueAlarm reads (infra/deploy/resources.json), in CloudWatch's embedded metric format
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    [record] = [r for r in records if "DteTransmissionsOverdue" in r]
    assert record["DteTransmissionsOverdue"] == [1.0] and record["ScheduledInvoicesFailed"] == [0.0]
    assert record["ScheduledInvoicesErrored"] == [0.0]
    assert record["service"] == "business-api"
    [directive] = record["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "BusinessApi" and directive["Dimensions"] == [["service"]]


def _three_in_contingency(dte_authority, shop, table, later) -> list[dict]:
    """Three DTEs issued while the authority was down, their event received a day later and their
    lot sent, the lot's first poll answered "in process" (the stand-in was told to) and the
    third DTE to be rejected. Returns the documents as they were then."""
    responsible(shop)
    dte_authority.faults(unavailable=True)
    issued = [shop.document("01", [(shop.service, quantity, 50)]) for quantity in (1, 2, 3)]
    dte_authority.faults(unavailable=False, lots_in_process=1, reject_codes=[issued[2]["codigoGeneracion"]])
    later(21)
    # declared, reported in one event, sent as one lot; polled in process: nothing recorded
    assert retry_pending_dte(table, min_age_seconds=0) == {"intoContingency": 3, "eventsReported": 1, "lotsSent": 1}
    return [shop.get(document["id"]) for document in issued]


def _stored(table, shop: Shop, documents: list[dict]) -> list[dict]:
    from chalicelib.store import keys

    return [table.get(keys.document(shop.company.company_id, document["id"])) for document in documents]


def test_a_contingency_goes_as_one_lot_whose_answers_are_recorded_once_each(dte_authority, shop, table, later):
    from chalicelib.store import keys
    from infra.devstack.dte_authority_lots import _unverified
    from tests.dte_support import events

    sent_alone, lots_sent = dte_authority.calls["/fesv/recepciondte"], dte_authority.calls["/fesv/recepcionlote/"]
    waiting = _three_in_contingency(dte_authority, shop, table, later)
    codes = [document["codigoGeneracion"] for document in waiting]
    assert [document["dte"]["status"] for document in waiting] == ["pending"] * 3
    [lot_id] = {document["dte"]["contingency"]["lotId"] for document in waiting}
    # what the stand-in received: one lot, from the issuer, with the three signed DTEs (deferred model)
    assert dte_authority.calls["/fesv/recepcionlote/"] - lots_sent == 1
    [(codigo_lote, received)] = [(code, lot) for code, lot in dte_authority.lots.items() if lot["idEnvio"] == lot_id]
    assert received["nit"] == "06140101901013"
    signed = [_unverified(jws)["identificacion"] for jws in received["documentos"]]
    assert sorted(identification["codigoGeneracion"] for identification in signed) == sorted(codes)
    assert {identification["tipoModelo"] for identification in signed} == {2}
    lot = table.get(keys.dte_lot(shop.company.company_id, lot_id))
    assert (lot["status"], lot["codigoLote"], lot["GSI1PK"].startswith("DTE_LOT_OPEN#")) == ("received", codigo_lote, True)

    # a new signing key uploaded before the answers come: the buyer is still handed the JWS the lot
    # carried (kept when the lot was received), not one signed again
    from tests.dte_keys import FORGERS_KEY
    assert shop.api.put(f"/companies/{shop.company.company_id}/dte-signing-key", {"privateKey": FORGERS_KEY},
                        key=shop.key).status == 200

    later(22)  # polled again: two accepted, one rejected, each recorded
    assert retry_pending_dte(table, min_age_seconds=0) == {"accepted": 2, "rejected": 1}
    answered = [shop.get(document["id"]) for document in waiting]
    for document in answered[:2]:
        dte = document["dte"]
        assert dte["status"] == "accepted" and dte["selloRecepcion"] == seal_of(dte["codigoGeneracion"],
                                                                               dte["numeroControl"])
    rejected = answered[2]["dte"]
    assert rejected["status"] == "rejected" and rejected["selloRecepcion"] is None
    assert rejected["observations"] == ["DOCUMENTO RECHAZADO",
                                        "[cuerpoDocumento] DOCUMENTO RECHAZADO POR VALIDACION DEL MINISTERIO"]
    accepted_events = [[payload["event"] for payload in events(table, shop.company.company_id, document["id"])
                        ].count("document.dte_accepted") for document in answered]
    assert accepted_events == [1, 1, 0]
    for document in answered[:2]:
        assert_delivered_as_received(shop, dte_authority, document)
    assert dte_authority.calls["/fesv/recepciondte"] == sent_alone  # none was sent alone
    assert dte_authority.calls["/fesv/recepcionlote/"] - lots_sent == 1  # nor the lot again
    closed = table.get(keys.dte_lot(shop.company.company_id, lot_id))
    assert closed["status"] == "closed" and "GSI1PK" not in closed

    # polled again, by the next run or by one that read the lot before it closed: nothing changes
    versions = [document["version"] for document in _stored(table, shop, waiting)]
    assert retry_pending_dte(table, min_age_seconds=0) == {}
    issuer = Lot(company_id=shop.company.company_id, nit="06140101901013", ambiente="00", id_envio=lot_id,
                 documentos=())
    answers = dte_service.configured_transmitter(table).lot_answers(issuer, codigo_lote, dict.fromkeys(codes, "01"))
    assert sorted(answer.codigo_generacion for answer in answers) == sorted(codes)
    ids = {document["codigoGeneracion"]: document["id"] for document in waiting}
    assert [dte_service._record_answer(table, shop.company.company_id, ids[answer.codigo_generacion], answer.result)
            for answer in answers] == [None, None, None]
    assert [document["version"] for document in _stored(table, shop, waiting)] == versions
    assert [[payload["event"] for payload in events(table, shop.company.company_id, document["id"])
             ].count("document.dte_accepted") for document in answered] == [1, 1, 0]


@RACES
def test_two_polls_at_once_record_each_answer_once(dte_authority, shop, table, later, monkeypatch):
    from chalicelib.countries.sv.services import dte_lots
    from tests.dte_support import events
    from tests.race_support import hold_at_commit

    waiting = _three_in_contingency(dte_authority, shop, table, later)
    later(22)

    def poll():
        return dte_lots.advance(table, dte_service.configured_transmitter(table), dte_service._record_answer)

    # one poll holds at its first commit (the first answer, read as still pending) while the other runs whole
    race = hold_at_commit(monkeypatch, poll, poll)
    assert race.other == {"accepted": 2, "rejected": 1} and race.held == {} and race.lost >= 1
    assert [shop.get(document["id"])["dte"]["status"] for document in waiting] == ["accepted", "accepted", "rejected"]
    assert [[payload["event"] for payload in events(table, shop.company.company_id, document["id"])
             ].count("document.dte_accepted") for document in waiting] == [1, 1, 0]


def test_a_lot_refused_as_a_whole_frees_its_dtes_into_a_new_lot(dte_authority, shop, table, later, monkeypatch):
    from chalicelib.countries.sv.services.dte_authority import HttpDteTransmitter, LotRefused
    from chalicelib.store import keys

    responsible(shop)
    dte_authority.faults(unavailable=True)
    issued = [shop.document("01", [(shop.service, quantity, 50)]) for quantity in (1, 2)]
    dte_authority.faults(unavailable=False)
    later(21)

    def refuse(self, lot):
        raise LotRefused(["[documentos] LOTE RECHAZADO"])

    with monkeypatch.context() as patch:
        patch.setattr(HttpDteTransmitter, "send_lot", refuse)
        assert "lotsSent" not in retry_pending_dte(table, min_age_seconds=0)
    freed = [shop.get(document["id"]) for document in issued]
    # still pending, in no lot: neither is stuck behind the refused one
    assert [(d["dte"]["status"], d["dte"]["contingency"].get("lotId")) for d in freed] == [("pending", None)] * 2
    [refused] = [item for item in table.query(partition=("PK", f"C#{shop.company.company_id}"))[0]
                 if item.get("itemType") == "DTE_LOT"]
    assert (refused["status"], "GSI1PK" in refused) == ("refused", False)
    assert refused["observations"] == ["[documentos] LOTE RECHAZADO"]

    # the next run (an hour later) puts them in a new lot, which the authority takes and answers
    later(22)
    tally = retry_pending_dte(table, min_age_seconds=0)
    assert (tally.get("lotsSent"), tally.get("accepted")) == (1, 2), tally
    answered = [shop.get(document["id"]) for document in issued]
    assert {d["dte"]["status"] for d in answered} == {"accepted"}
    assert {d["dte"]["contingency"]["lotId"] for d in answered} != {refused["idEnvio"]}
    assert table.get(keys.dte_lot(shop.company.company_id, refused["idEnvio"]))["status"] == "refused"
