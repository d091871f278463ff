"""El Salvador: the DTEs of a contingency go to the authority together, as lots (`recepcionlote`),
once their contingency event was received; the authority answers a lot with its code only, and
the answers to its DTEs are asked for later (`consultadtelote`). The hourly run:

1. gathers each company's pending DTEs whose event the authority received and that no lot holds
   into lots of at most `LOT_SIZE`; one transaction per lot records it (our id for the sending,
   `idEnvio`, and its DTEs, fixed before it is sent: a lot that got no answer is sent again as the
   same lot) and marks each DTE's contingency with it (`lotId`): no DTE is in two lots, and none in
   a lot is sent alone (countries/sv/services/dte_contingency.py `held`);
2. sends each open lot not yet received, its DTEs signed, and records the authority's `codigoLote`;
3. polls each received lot and records every answer given so far on its document the way a
   one-by-one answer is recorded (countries/sv/services/dte.py `_record`, conditioned on the transmission still
   pending): an answer polled twice, or by two runs at once, is recorded once and its event
   (`document.dte_accepted`) fires once. The DTEs still in process wait for the next poll; a lot
   whose DTEs are all answered leaves the open lots.

A lot mixes editions and types: each DTE is signed in its own version (its `dte.version`, the legacy
one when absent: dte_json.authority_document), which its signed identificacion declares and by
which the authority validates it; the lot's request states only the version of the lot's own
envelope (dte_authority.LOT_VERSION), never the DTEs' (the legacy edition already mixed FE v1 and
CCF v3 in one lot). So a lot is not split by version."""
from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from typing import Any, Callable

from chalicelib import clock
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_json
from chalicelib.countries.sv.domain.dte import DteResult
from chalicelib.countries.sv.services import dte_contingency, dte_signing
from chalicelib.countries.sv.services.dte_authority import DteTransmitter, Lot, LotRefused, TransmissionFailed
from chalicelib.observability import logger
from chalicelib.store import keys
from chalicelib.store.repositories import electronic_documents as dte_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction

# The authority takes up to 100 DTEs per lot; one transaction records the lot and marks each of
# its DTEs, and a transaction holds at most 100 items.
LOT_SIZE = 99
LOTS_PER_RUN = 100  # per index shard
SENDING, RECEIVED, CLOSED, REFUSED = "sending", "received", "closed", "refused"

# Records one DTE's answer once; returns the document's changed fields, None when it was recorded
# already (countries/sv/services/dte.py).
Recorder = Callable[[Table, int, int, DteResult], "dict[str, Any] | None"]
# a DTE's lot, as a document's updates name it when it joins or leaves one


def ready(dte: dict[str, Any]) -> bool:
    """Reported in a contingency event the authority received, and in no lot yet."""
    contingency = dte.get("contingency")
    return (bool(contingency) and not dte_contingency.waiting_for_event(dte)
            and not (contingency or {}).get("lotId"))


def form(table: Table, transmissions: list[dict[str, Any]]) -> int:
    """Puts the pending transmissions' DTEs that are ready into lots, company by company; returns
    how many lots were formed."""
    by_company: dict[int, list[int]] = defaultdict(list)
    for transmission in transmissions:
        by_company[transmission["companyId"]].append(transmission["documentId"])
    formed = 0
    for company_id, document_ids in by_company.items():
        try:
            formed += _form(table, company_id, document_ids)
        except Exception:  # one company's trouble does not stop the run
            logger.exception("DTE lot not formed", extra={"companyId": company_id})
    return formed


def _form(table: Table, company_id: int, document_ids: list[int]) -> int:
    company = table.get(keys.company(company_id))
    if company is None:
        return 0
    documents = [document for document in dte_contingency.pending_documents(table, company_id, document_ids)
                 if ready(document["dte"]) and dte_contingency.sendable(table, company, document)]
    return sum(_record_lot(table, company, documents[start:start + LOT_SIZE])
               for start in range(0, len(documents), LOT_SIZE))


def _record_lot(table: Table, company: dict[str, Any], documents: list[dict[str, Any]]) -> int:
    company_id, id_envio, now = company["id"], dte_rules.new_codigo_generacion(), clock.now_iso()
    transaction = Transaction(table).put_new({
        **keys.dte_lot(company_id, id_envio), **keys.dte_open_lot_index(company_id, id_envio, now),
        "itemType": "DTE_LOT", "companyId": company_id, "idEnvio": id_envio, "ambiente": dte_json.ambiente(company),
        "status": SENDING, "codigoLote": None, "createdAt": now, "sentAt": None,
        "documents": [{"id": document["id"], "codigoGeneracion": document["dte"]["codigoGeneracion"],
                       "tipoDte": document["dte"]["tipoDte"]} for document in documents]})
    for document in documents:
        dte_store.put_in_lot(transaction, company_id, document["id"], id_envio, now, dte_rules.PENDING)
    try:
        transaction.commit()
    except LostRace:  # answered or put in a lot meanwhile: the next run sees what is left
        return 0
    return 1


def advance(table: Table, transmitter: DteTransmitter, record: Recorder) -> dict[str, int]:
    """Sends the open lots not yet received and polls the received ones, of every company. The
    first call that gets no answer ends it (the authority is down). Returns how many lots were
    sent and how many of their DTEs were recorded accepted or rejected."""
    tally: Counter[str] = Counter()
    for partition in keys.dte_open_lot_partitions():
        found = dte_store.open_lots(table, partition, LOTS_PER_RUN)
        for entry in found:
            try:
                tally.update(_advance(table, transmitter, record, entry["companyId"], entry["idEnvio"]))
            except TransmissionFailed as error:
                logger.warning("DTE lot got no answer", extra={"companyId": entry["companyId"],
                                                                "lot": entry["idEnvio"], "error": repr(error)})
                return dict(tally)
            except Exception:  # one lot's trouble does not stop the run
                logger.exception("DTE lot not advanced", extra={"companyId": entry["companyId"],
                                                                 "lot": entry["idEnvio"]})
    return dict(tally)


def _advance(table: Table, transmitter: DteTransmitter, record: Recorder, company_id: int,
             id_envio: str) -> Counter[str]:
    tally: Counter[str] = Counter()
    found = table.batch_get([keys.company(company_id), keys.dte_lot(company_id, id_envio)])
    company = found.get(keys.pair(keys.company(company_id)))
    lot = found.get(keys.pair(keys.dte_lot(company_id, id_envio)))  # the index may lag: read again
    if company is None or lot is None or lot["status"] == CLOSED:
        return tally
    issuer = Lot(company_id=company_id, nit=dte_json.digits(company.get("taxId")), ambiente=lot["ambiente"],
                 id_envio=id_envio, documentos=())
    waiting = _waiting(table, lot)
    if lot["status"] == SENDING and waiting:
        codigo_lote = _send(table, transmitter, issuer, lot, waiting)
        if codigo_lote is None:
            return tally
        tally["lotsSent"] += 1
        lot = {**lot, "status": RECEIVED, "codigoLote": codigo_lote}
    if lot["status"] == RECEIVED and waiting:
        by_code = {entry["codigoGeneracion"]: entry["id"] for entry in lot["documents"]}
        answers = transmitter.lot_answers(issuer, lot["codigoLote"],
                                          {entry["codigoGeneracion"]: entry["tipoDte"] for entry in lot["documents"]})
        for answer in answers:
            changes = record(table, company_id, by_code[answer.codigo_generacion], answer.result)
            if changes:  # None: recorded already, by an earlier poll or a concurrent one
                tally[changes["dte"]["status"]] += 1
        if answers:
            waiting = _waiting(table, lot)
    if not waiting:
        _close(table, company_id, id_envio)
    return tally


def _signed(table: Table, company_id: int, document: dict[str, Any], ambiente: str) -> str:
    """The DTE's JWS as its lot carries it (the lot sent again is signed again: the same bytes
    while the key is the same, RS512 signatures being deterministic)."""
    return dte_signing.sign(table, company_id, dte_json.authority_document(document, ambiente))


def _waiting(table: Table, lot: dict[str, Any]) -> list[dict[str, Any]]:
    """The lot's DTEs still waiting for their answer."""
    company_id = lot["companyId"]
    return [document for document in dte_contingency.pending_documents(
        table, company_id, [entry["id"] for entry in lot["documents"]])
        if document["dte"]["contingency"].get("lotId") == lot["idEnvio"]]


def _send(table: Table, transmitter: DteTransmitter, issuer: Lot, lot: dict[str, Any],
          documents: list[dict[str, Any]]) -> str | None:
    company_id = issuer.company_id
    signed = tuple(_signed(table, company_id, document, issuer.ambiente) for document in documents)
    try:
        codigo_lote = transmitter.send_lot(dataclasses.replace(issuer, documentos=signed))
    except LotRefused as refusal:  # none of its DTEs was received: they go in a new lot next run
        logger.error("DTE lot refused by the authority; its DTEs go in a new lot",
                     extra={"companyId": company_id, "lot": issuer.id_envio, "observations": refusal.observations})
        _release(table, company_id, issuer.id_envio, documents, refusal.observations)
        return None
    now = clock.now_iso()
    transaction = Transaction(table)
    dte_store.lot_received(transaction, company_id, issuer.id_envio, codigo_lote, now, sending=SENDING,
                           received=RECEIVED)
    # each DTE's JWS as the lot carried it, for its receiver (GET /documents/{id}/dte) once answered:
    # signed again later it could differ (a new key); at most 99 + the lot: one transaction
    for document, jws in zip(documents, signed, strict=True):
        dte_store.keep_lot_jws(transaction, company_id, document["id"], jws)
    try:
        transaction.commit()
    except LostRace:  # another run sent it meanwhile (the same lot: the same code)
        pass
    return codigo_lote


def _release(table: Table, company_id: int, id_envio: str, documents: list[dict[str, Any]],
             observations: list[str]) -> None:
    """Closes a lot the authority refused as a whole and frees its DTEs, in one transaction: sent
    again as the same lot it would be refused again (or, by an authority that refuses an idEnvio
    it has seen, for ever), and a DTE in a lot is sent in no other way."""
    now = clock.now_iso()
    transaction = Transaction(table)
    dte_store.lot_refused(transaction, company_id, id_envio, observations, now, sending=SENDING, refused=REFUSED)
    for document in documents:
        dte_store.take_out_of_lot(transaction, company_id, document["id"], id_envio, now, dte_rules.PENDING)
    try:
        transaction.commit()
    except LostRace:  # another run sent or released it meanwhile: the next run sees what is left
        pass


def _close(table: Table, company_id: int, id_envio: str) -> None:
    try:
        transaction = Transaction(table)
        dte_store.close_lot(transaction, company_id, id_envio, clock.now_iso(), CLOSED)
        transaction.commit()
    except LostRace:  # closed meanwhile by another run
        pass
