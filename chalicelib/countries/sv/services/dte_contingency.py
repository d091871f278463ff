"""El Salvador: contingency. The authority receives a DTE issued normally (tipoModelo 1) within 24
hours of its issue; one still pending `CONTINGENCY_AFTER` its issue (its transmissions got no
answer) would arrive too late, so the hourly run puts it into contingency:

1. its document records the contingency and the code, date, time, version and issuer (as the
   company's settings then were) of the event that will report it, one establishment's DTEs per
   event, at most 1,000 (the formats' limit, domain/dte_contingency_event.py `in_events`), in
   transactions of `DECLARED_TOGETHER` (fixed before it is sent, so an event that got no answer is
   sent again as the same event, listing the same DTEs);
2. the event (contingencia-schema-v4 when the company issues in the 2026 edition at the event's
   date, v3 before: the issuer and its responsible person, each DTE by code and type whatever its
   own edition, the contingency from the first DTE's issue to now) is checked, signed and sent;
3. once the authority received it, its seal is recorded on each document (`DECLARED_TOGETHER` per
   transaction; a run stopped half-way leaves the rest to the next, which records the seal it finds
   on the event's other pending DTEs instead of sending the event again), and the DTEs are sent
   under the deferred model (tipoModelo 2, tipoOperacion 2), together as lots
   (countries/sv/services/dte_lots.py). The retry that sends any pending DTE leaves them alone: sent normally
   they would be refused as late."""
from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from typing import Any

from chalicelib import clock
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_contingency_event, dte_formats, dte_json
from chalicelib.countries.sv.services import dte_signing
from chalicelib.countries.sv.services.dte_authority import DteTransmitter, Submission
from chalicelib.observability import logger
from chalicelib.store import keys
from chalicelib.store.repositories import electronic_documents as dte_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction

CONTINGENCY_AFTER = _dt.timedelta(hours=20)  # the authority's window is 24 hours: the hourly run has margin
# DTEs marked per transaction (at most 100 items): an event of more is declared in several, its
# code, date, time and version the same in each, and its seal recorded in several
DECLARED_TOGETHER = 50
AUTHORITY_UNAVAILABLE = 1  # CAT-005: "No disponibilidad de sistema del MH"


def waiting_for_event(dte: dict[str, Any]) -> bool:
    """In contingency and not yet reported: not to be sent."""
    contingency = dte.get("contingency")
    return bool(contingency) and not (contingency or {}).get("eventSeal")


def held(dte: dict[str, Any], transmission: dict[str, Any]) -> bool:
    """Not to be sent alone: in contingency (it goes in a lot once its event was received), or
    overdue and not yet declared (its declaration failed this run); sent normally, the authority
    would refuse it as late."""
    overdue = transmission["createdAt"] < clock.iso(clock.now() - CONTINGENCY_AFTER)
    return bool(dte.get("contingency")) or overdue


def handle_overdue(table: Table, transmitter: DteTransmitter, transmissions: list[dict[str, Any]]) -> dict[str, int]:
    """Puts into contingency the pending transmissions older than `CONTINGENCY_AFTER`, and reports
    the events not yet received, company by company. Returns how many DTEs went into
    contingency and how many events the authority received."""
    cutoff = clock.iso(clock.now() - CONTINGENCY_AFTER)
    overdue: dict[int, list[int]] = defaultdict(list)
    for transmission in transmissions:
        if transmission["createdAt"] < cutoff:
            overdue[transmission["companyId"]].append(transmission["documentId"])
    tally = {"intoContingency": 0, "eventsReported": 0}
    for company_id, document_ids in overdue.items():
        try:
            declared, reported = _company(table, transmitter, company_id, document_ids)
        except Exception:  # one company's trouble does not stop the run
            logger.exception("DTE contingency not handled", extra={"companyId": company_id})
            continue
        tally["intoContingency"] += declared
        tally["eventsReported"] += reported
    return {name: count for name, count in tally.items() if count}


def _company(table: Table, transmitter: DteTransmitter, company_id: int, document_ids: list[int]) -> tuple[int, int]:
    company = table.get(keys.company(company_id))
    if company is None:
        return 0, 0
    undeclared = [document for document in pending_documents(table, company_id, document_ids)
                  if not document["dte"].get("contingency") and sendable(table, company, document)]
    declared = sum(_declare(table, company, documents) for documents in dte_contingency_event.in_events(undeclared))
    events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    received: dict[str, dict[str, Any]] = {}
    for document in pending_documents(table, company_id, document_ids):
        contingency = document["dte"].get("contingency") or {}
        if waiting_for_event(document["dte"]):
            events[contingency["eventCodigo"]].append(document)
        elif contingency.get("eventSeal"):
            received[contingency["eventCodigo"]] = contingency
    reported = 0
    for codigo, documents in events.items():
        if codigo in received:  # a run stopped while recording its seal: the rest of it, not sent again
            _record_seal(table, company_id, codigo, received[codigo]["eventSeal"],
                         received[codigo]["eventReceivedAt"], documents)
        else:
            reported += _report(table, transmitter, company, codigo, documents)
    return declared, reported


def sendable(table: Table, company: dict[str, Any], document: dict[str, Any]) -> bool:
    """Whether the DTE builds and signs. One that does not is late because of a bug here, not
    because the authority was unavailable: declaring it would report a contingency that did not
    happen, so it stays pending (logged, and counted by the overdue alarm) until the bug is fixed."""
    try:
        dte_signing.sign(table, company["id"], dte_json.authority_document(document, dte_json.ambiente(company)))
    except Exception:
        logger.exception("DTE not built or signed; not declared in contingency, it stays pending",
                         extra={"companyId": company["id"], "documentId": document["id"]})
        return False
    return True


def pending_documents(table: Table, company_id: int, document_ids: list[int]) -> list[dict[str, Any]]:
    found = table.batch_get([keys.document(company_id, document_id) for document_id in document_ids])
    return sorted((document for document in found.values()
                   if document.get("status") == "confirmed" and (document.get("dte") or {}).get("status") == dte_rules.PENDING),
                  key=lambda document: document["id"])


def _declare(table: Table, company: dict[str, Any], documents: list[dict[str, Any]]) -> int:
    """Marks one event's DTEs, `DECLARED_TOGETHER` per transaction. A transaction lost to a race
    (a DTE answered or declared meanwhile) leaves its DTEs to the next run: the event lists those
    marked when it is reported."""
    # the event's date, time and version are fixed here too: sent again, it is the same event
    date = clock.today_in(dte_rules.DTE_COUNTRY)
    contingency = {"type": AUTHORITY_UNAVAILABLE, "eventCodigo": dte_rules.new_codigo_generacion(),
                   "eventDate": date, "eventTime": clock.local_time_in(dte_rules.DTE_COUNTRY),
                   "eventVersion": dte_contingency_event.version_for(company, date),
                   "eventIssuer": dte_contingency_event.declared_issuer(company),
                   "declaredAt": clock.now_iso(), "eventSeal": None, "eventReceivedAt": None}
    declared = 0
    for start in range(0, len(documents), DECLARED_TOGETHER):
        transaction = Transaction(table)
        together = documents[start:start + DECLARED_TOGETHER]
        for document in together:
            dte_store.declare_contingency(transaction, company["id"], document["id"], contingency, dte_rules.PENDING)
        try:
            transaction.commit()
        except LostRace:  # answered or declared meanwhile: the next run sees what is left
            continue
        declared += len(together)
    return declared


def _report(table: Table, transmitter: DteTransmitter, company: dict[str, Any], codigo: str,
            documents: list[dict[str, Any]]) -> int:
    company_id = company["id"]
    ambiente = dte_json.ambiente(company)
    event = _event(table, company, codigo, documents)
    if event is None:
        return 0
    submission = Submission(company_id=company_id, nit=event["emisor"]["nit"], ambiente=ambiente,
                            tipo_dte=dte_formats.CONTINGENCY, version=event["identificacion"]["version"],
                            codigo_generacion=codigo, documento=dte_signing.sign(table, company_id, event))
    try:
        answer = transmitter.report_contingency(submission)
    except Exception as error:  # no answer: the same event next run
        logger.warning("DTE contingency event got no answer", extra={"companyId": company_id, "event": codigo,
                                                                       "error": repr(error)})
        return 0
    if not answer.accepted:
        logger.error("DTE contingency event refused by the authority; its DTEs stay pending",
                     extra={"companyId": company_id, "event": codigo, "observations": answer.observations})
        return 0
    _record_seal(table, company_id, codigo, answer.sello_recepcion, answer.received_at, documents)
    return 1


def _event(table: Table, company: dict[str, Any], codigo: str, documents: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The event as declared (its version and issuer kept with its DTEs), or None when the format
    refuses it. Declared while the company's settings lacked what the format needs, it was never
    sent: it is built from the settings now, which are kept with its DTEs before it is sent."""
    declared = documents[0]["dte"]["contingency"]
    ambiente = dte_json.ambiente(company)

    def built(issuer: dict[str, Any]) -> dict[str, Any]:
        # declared before versions were stored: the edition the company issued in at the event's date
        return dte_contingency_event.contingency_event(issuer, documents, codigo, declared["eventDate"],
                                                       declared["eventTime"], ambiente, declared.get("eventVersion"))
    frozen = declared.get("eventIssuer")
    if frozen is not None:
        event = built(frozen)
        if not dte_formats.schema_problems(event, dte_formats.CONTINGENCY):
            return event
    event = built(company)  # declared before the issuer was kept, or never sendable as declared
    problems = dte_formats.schema_problems(event, dte_formats.CONTINGENCY)
    if problems:  # the company's settings lack what the event needs: the DTEs wait (and are logged)
        logger.error("DTE contingency event refused by the format; its DTEs stay pending",
                     extra={"companyId": company["id"], "event": codigo, "problems": problems})
        return None
    if frozen is not None:
        _update_each(table, company["id"], codigo, documents,
                     {"eventIssuer": dte_contingency_event.declared_issuer(company)}, clock.now_iso())
    return event


def _record_seal(table: Table, company_id: int, codigo: str, seal: str | None, received_at: str,
                 documents: list[dict[str, Any]]) -> None:
    """Records the event's seal on its DTEs (a run that stops half-way leaves the rest waiting for
    the next, which records the seal already received: `_company`)."""
    _update_each(table, company_id, codigo, documents, {"eventSeal": seal, "eventReceivedAt": received_at},
                 received_at)


def _update_each(table: Table, company_id: int, codigo: str, documents: list[dict[str, Any]],
                 changes: dict[str, Any], updated_at: str) -> None:
    """Sets `changes` in the contingency of each of the event's DTEs still pending,
    `DECLARED_TOGETHER` per transaction (an event of up to 1,000 DTEs exceeds one). Each update is
    conditioned on its own document, so a transaction lost to a race (a DTE answered meanwhile) is
    applied one document at a time."""
    def update(transaction: Transaction, document: dict[str, Any]) -> None:
        dte_store.update_contingency(transaction, company_id, document["id"], codigo, changes, updated_at,
                                     dte_rules.PENDING)

    for start in range(0, len(documents), DECLARED_TOGETHER):
        together = documents[start:start + DECLARED_TOGETHER]
        transaction = Transaction(table)
        for document in together:
            update(transaction, document)
        try:
            transaction.commit()
        except LostRace:
            for document in together:
                alone = Transaction(table)
                update(alone, document)
                try:
                    alone.commit()
                except LostRace:  # answered meanwhile: nothing to record
                    continue
