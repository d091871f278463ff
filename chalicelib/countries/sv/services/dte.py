"""El Salvador's electronic tax documents (DTE). A document of an SV company that is one (a sales
invoice, a note correcting a crédito fiscal, a purchase from a supplier without an NRC, a
certificate of IVA withheld) becomes a DTE in its confirming transaction (generation code,
control number, a pending transmission: countries/sv/services/dte_issuing.py); once that transaction has committed it is signed and
sent to the tax authority over HTTP (countries/sv/services/dte_authority.py), an external call, and the answer
is recorded in a transaction of its own. A transmission that got no answer stays pending, and
`retry_pending_dte` (the hourly run) sends it again, through contingency once it is too late to
send it normally (countries/sv/services/dte_contingency.py)."""
from __future__ import annotations

import datetime as _dt
from collections import Counter
from collections.abc import Mapping
from typing import Any, Callable

from chalicelib import clock
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_json
from chalicelib.countries.sv.domain.dte import PENDING, DteResult
from chalicelib.countries.sv.services import dte_contingency, dte_delivery, dte_lots, dte_signing
from chalicelib.countries.sv.services.dte_authority import DteTransmitter, HttpDteTransmitter, Submission
from chalicelib.domain import document_actions
from chalicelib.domain import documents as document_rules
from chalicelib.events import outbox
from chalicelib.observability import logger
from chalicelib.services.banking import exchange_rates
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.repositories import electronic_documents as dte_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction, run_with_retries

# Recording an answer runs again on fresh data when a concurrent write (a payment) got in the
# way, a few times: after that the transmission stays pending and the hourly retry takes it.
RECORD_ATTEMPTS = 3
# The hourly retry leaves alone transmissions younger than this: their own request is most
# likely still sending them.
RETRY_MIN_AGE_SECONDS = 300
RETRY_BATCH = 100
# A retry that found nothing left to record: answered meanwhile by another run.
SKIPPED = "skipped"
# A retry that got no answer (counted as pending): the authority is down, the run stops there.
UNANSWERED = "unanswered"
# A DTE a lot holds: sent and answered with its lot (countries/sv/services/dte_lots.py).
IN_LOT = "inLot"
# Calls made in a request (after its confirmation committed) before the DTE is left pending for
# the hourly run: two, so that the request ends within API Gateway's 29 seconds.
REQUEST_ATTEMPTS = 2


def configured_transmitter(table: Table, attempts: int | None = None) -> DteTransmitter:
    """The authority at the configured URL, logged in to as each company with its password."""
    settings = get_settings()
    return HttpDteTransmitter(settings.dte_authority_url,
                              lambda company_id: dte_signing.authority_password(table, company_id),
                              timeout=settings.dte_authority_timeout_seconds,
                              attempts=min(attempts or settings.dte_authority_attempts, settings.dte_authority_attempts),
                              backoff=settings.dte_authority_backoff_seconds)


# --- transmitting: after the confirming transaction committed -----------------------------------

def transmit_confirmed(table: Table, company: Mapping[str, Any], document: dict[str, Any],
                       transmitter: DteTransmitter | None = None) -> dict[str, Any]:
    """Sends a just-confirmed document's pending DTE and returns the document as the answer left
    it. Never raises: the document is confirmed whatever happens here (and an exception would
    make the request run its committed command again); what is not recorded stays pending."""
    dte = document.get("dte")
    if not dte or dte.get("status") != PENDING:
        return document
    try:
        changes = _transmit(table, company, document, transmitter or configured_transmitter(table, REQUEST_ATTEMPTS))
    except Exception:  # the confirmation stands (answering 5xx for what committed would invite a
        # duplicate); a bug building or signing the DTE is logged whole here and recorded nowhere
        logger.exception("DTE transmission not recorded; it stays pending",
                         extra={"companyId": company.get("id"), "documentId": document.get("id")})
        return document
    if not changes:
        return document
    answered = {**document, **changes}
    # what it can do next follows the answer (an accepted DTE is invalidated, not cancelled)
    return {**answered, "allowedActions": document_actions.allowed_actions(
        answered, exchange_rates.company_currency(company))}


def retry_pending_dte(table: Table, transmitter: DteTransmitter | None = None, *,
                      min_age_seconds: int = RETRY_MIN_AGE_SECONDS, batch: int = RETRY_BATCH) -> dict[str, int]:
    """Sends again the pending transmissions of every company (oldest first, up to `batch` per
    index shard), found through the sparse pending index, those too old to be sent normally
    through a contingency event first (countries/sv/services/dte_contingency.py) and then together, as lots
    (countries/sv/services/dte_lots.py), whose answers it polls. The first that gets no answer ends the run:
    the authority is down, and waiting on it for every DTE would outlast the function. Returns how
    many ended accepted, rejected, still pending, or skipped (answered meanwhile by another run, or
    gone), how many went into contingency, how many events were reported and lots sent, and how
    many of those read were still pending past the authority's window."""
    transmitter = transmitter or configured_transmitter(table)
    cutoff = clock.iso(clock.now() - _dt.timedelta(seconds=min_age_seconds))
    late = clock.iso(clock.now() - dte_rules.AUTHORITY_WINDOW)
    tally: Counter[str] = Counter()
    shards = [dte_store.pending_transmissions(table, partition, cutoff, batch) for partition in keys.dte_pending_partitions()]
    everything = [transmission for pending in shards for transmission in pending]
    # still pending past the authority's window: what the DTE alarm counts
    overdue = sum(transmission["createdAt"] < late for transmission in everything)
    if overdue:
        tally["overdue"] = overdue
    # every shard's at once: one event and one lot per company, not one per shard
    tally.update(dte_contingency.handle_overdue(table, transmitter, everything))
    dte_lots.form(table, everything)
    for transmission in everything:
        outcome = _retry(table, transmitter, transmission)
        if outcome == IN_LOT:
            continue  # the lot's own tally says what became of it
        tally[PENDING if outcome == UNANSWERED else outcome] += 1
        if outcome == UNANSWERED:
            return dict(tally)
    tally.update(dte_lots.advance(table, transmitter, _record_answer))
    return dict(tally)


def _retry(table: Table, transmitter: DteTransmitter, transmission: dict[str, Any]) -> str:
    company_id, document_id = transmission["companyId"], transmission["documentId"]
    found = table.batch_get([keys.company(company_id), keys.document(company_id, document_id)])
    company = found.get(keys.pair(keys.company(company_id)))
    document = found.get(keys.pair(keys.document(company_id, document_id)))
    if (company is None or document is None or document.get("status") != "confirmed"
            or (document.get("dte") or {}).get("status") != PENDING):
        return SKIPPED
    if dte_contingency.held(document["dte"], transmission):
        # not to be sent alone (normally it would be refused as late): to the back of the index, so
        # what waits for its event or its lot never hides the transmissions behind it
        _postpone(table, company_id, document_id)
        return IN_LOT if (document["dte"].get("contingency") or {}).get("lotId") else PENDING
    try:
        changes = _transmit(table, company, document, transmitter)
    except Exception:  # one transmission's trouble does not stop the run
        logger.exception("DTE retry not recorded; it stays pending",
                         extra={"companyId": company_id, "documentId": document_id})
        return PENDING
    if not changes:
        return SKIPPED
    return UNANSWERED if changes["dte"]["status"] == PENDING else changes["dte"]["status"]


def _postpone(table: Table, company_id: int, document_id: int) -> None:
    now = clock.now_iso()
    try:
        transaction = Transaction(table)
        dte_store.postpone_transmission(transaction, company_id, document_id, now, PENDING)
        transaction.commit()
    except LostRace:  # answered meanwhile
        pass


def _transmit(table: Table, company: Mapping[str, Any], document: dict[str, Any],
              transmitter: DteTransmitter) -> dict[str, Any] | None:
    company_id, document_id = company["id"], document["id"]
    if "emisor" not in document["dte"]:
        # issued before the authority's formats were built here: what was issued cannot be sent
        logger.error("DTE issued without the authority's format; recorded as rejected",
                     extra={"companyId": company_id, "documentId": document_id})
        result = DteResult(accepted=False, received_at=clock.now_iso(), observations=[
            "emitido antes del formato del Ministerio de Hacienda: no puede transmitirse"])
        return _record(table, company_id, document_id, lambda dte: dte_rules.answered(dte, result))
    # Built and signed before the call and outside its `except`: what breaks here is a bug (or a
    # key gone), not an authority that did not answer; it raises, nothing is recorded, and it never
    # leads to contingency (that is for transmissions the authority did not receive).
    try:
        submission = _submission(table, company, document)
    except dte_signing.SigningKeyMissing as error:  # the company's to fix: shown on its DTE
        logger.warning("DTE not signed: the signing key is gone", extra={"companyId": company_id,
                                                                         "documentId": document_id})
        problem = error.message
        return _record(table, company_id, document_id, lambda dte: dte_rules.unanswered(dte, problem, clock.now_iso()))
    try:
        result = transmitter.transmit(submission)
    except Exception as error:  # no answer: recorded, and sent again later
        logger.warning("DTE transmission got no answer", extra={"companyId": company_id, "documentId": document_id,
                                                                 "error": repr(error)})
        problem = "the tax authority did not answer"  # the details are logged, not shown to clients
        return _record(table, company_id, document_id, lambda dte: dte_rules.unanswered(dte, problem, clock.now_iso()))
    return _record(table, company_id, document_id, lambda dte: dte_rules.answered(dte, result),
                   sent=dte_delivery.kept(submission.documento, result.answer))


def _submission(table: Table, company: Mapping[str, Any], document: dict[str, Any]) -> Submission:
    """The DTE in the authority's format, signed with the company's key."""
    sent = dte_json.authority_document(document, dte_json.ambiente(company))
    identification = sent["identificacion"]
    return Submission(company_id=company["id"], nit=dte_json.digits(company.get("taxId")),
                      # issue 40: returns (an event names its type tipoEvento)
                      ambiente=identification["ambiente"],
                      tipo_dte=identification.get("tipoDte") or identification["tipoEvento"],
                      version=identification["version"], codigo_generacion=identification["codigoGeneracion"],
                      documento=dte_signing.sign(table, company["id"], sent))


def _record_answer(table: Table, company_id: int, document_id: int, result: DteResult) -> dict[str, Any] | None:
    """Records the authority's answer to a DTE sent in a lot, once, with the JWS its lot carried
    (kept on the transmission when the lot was received: countries/sv/services/dte_lots.py)."""
    def kept(transmission: dict[str, Any]) -> dict[str, Any] | None:
        return dte_delivery.kept(transmission["lotJws"], result.answer) if transmission.get("lotJws") else None

    return _record(table, company_id, document_id, lambda dte: dte_rules.answered(dte, result), sent=kept)


def _record(table: Table, company_id: int, document_id: int,
            outcome: Callable[[dict[str, Any]], dict[str, Any]],
            sent: dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
            ) -> dict[str, Any] | None:
    """Records a transmission's outcome once, in one transaction: on the transmission while it is
    still pending (another run that recorded first makes this one change nothing), with what was
    sent and answered when there was an answer (`sent`, what the receiver is handed), on the
    document (whose version moves, so no command holding an older copy overwrites it) and, when
    accepted, the `document.dte_accepted` event. Returns the document's changed fields, or None
    when there was nothing left to record."""
    transmission_key = keys.dte_transmission(company_id, document_id)
    document_key = keys.document(company_id, document_id)

    def attempt() -> dict[str, Any] | None:
        found = table.batch_get([transmission_key, document_key])
        transmission, document = found.get(keys.pair(transmission_key)), found.get(keys.pair(document_key))
        if transmission is None or document is None or transmission["status"] != PENDING:
            return None
        dte = outcome(document["dte"])
        now = clock.now_iso()
        changes = {"dte": dte, "version": document["version"] + 1, "updatedAt": now}
        transaction = Transaction(table)
        _update_transmission(transaction, company_id, document_id, dte, sent(transmission) if callable(sent) else sent)
        # the whole `dte` is written: on the document as read (the hourly run may have declared it
        # in contingency meanwhile), else read again
        dte_store.record_dte(transaction, company_id, document_id, dte, now, document["version"], PENDING)
        if dte["status"] == dte_rules.ACCEPTED:
            outbox.emit(transaction, outbox.DOCUMENT_DTE_ACCEPTED, company_id, "document", document_id,
                        document_rules.event_data({**document, **changes}))
            count_validated_debit_note(transaction, company_id, {**document, **changes}, 1)
        transaction.commit()
        return changes

    return run_with_retries(attempt, attempts=RECORD_ATTEMPTS)


def count_validated_debit_note(transaction: Transaction, company_id: int, document: Mapping[str, Any],
                               sign: int) -> None:
    """A debit note the authority validated blocks its crédito fiscal's invalidation until it is
    invalidated itself (domain/dte_invalidation_rules.py BLOCKED_BY): its source counts them in
    `validatedDebitNotes`, as a credit note's in `creditedTotal`, so `allowedActions` knows without a
    read. Its version moves: no command holding an older copy overwrites the count."""
    if document.get("dte", {}).get("tipoDte") != dte_rules.NOTA_DEBITO or document.get("sourceDocumentId") is None:
        return
    document_store.add_validated_debit_notes(transaction, company_id, int(document["sourceDocumentId"]), sign)


def _update_transmission(transaction: Transaction, company_id: int, document_id: int, dte: dict[str, Any],
                         sent: dict[str, Any] | None = None) -> None:
    """An answered transmission leaves the pending index, keeping what was sent; an unanswered one
    moves to its back (its last attempt), so transmissions that keep failing never hide the ones
    behind them."""
    dte_store.record_attempt(transaction, company_id, document_id, dte, PENDING, sent)
