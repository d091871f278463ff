"""El Salvador's electronic tax documents (DTE). A sales invoice of an SV company becomes a DTE in
its confirming transaction (generation code, control number, a pending transmission); once that
transaction has committed it is sent to the tax authority, an external call, and the answer is
recorded in a transaction of its own. A transmission that got no answer stays pending, and
`retry_pending_dte` (the hourly run) sends it again."""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Protocol

from chalicelib import clock
from chalicelib.domain import documents as document_rules
from chalicelib.domain import dte as rules
from chalicelib.domain import dte_json
from chalicelib.domain.dte import PENDING, DteResult
from chalicelib.errors import ValidationFailed
from chalicelib.events import outbox
from chalicelib.observability import logger
from chalicelib.services import dte_signing
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction, run_with_retries

# Recording an answer runs again on fresh data when a concurrent write (a payment) got in the
# way, a few times: after that the transmission stays pending and the hourly retry takes it.
RECORD_ATTEMPTS = 3
# The hourly retry leaves alone transmissions younger than this: their own request is most
# likely still sending them.
RETRY_MIN_AGE_SECONDS = 300
RETRY_BATCH = 100
# A retry that found nothing left to record: answered meanwhile by another run.
SKIPPED = "skipped"


@dataclass(frozen=True)
class Submission:
    """What the authority's reception service (recepciondte) receives: the signed DTE and what the
    request names beside it. `company_id` is ours: the stand-in checks the signature with that
    company's registered key (the authority knows the company by the NIT it authenticated as)."""
    company_id: int
    nit: str
    ambiente: str
    tipo_dte: str
    version: int
    codigo_generacion: str
    documento: str  # the DTE as a compact JWS


class DteTransmitter(Protocol):
    def transmit(self, submission: Submission) -> DteResult:
        """Sends a signed DTE and returns the authority's answer; raises when none came (timeout,
        authority unavailable)."""
        ...

    def invalidate(self, submission: Submission) -> DteResult:
        """Sends a signed invalidation event (anulardte); the same answers."""
        ...


class TransmissionFailed(Exception):
    """The tax authority did not answer."""


class SandboxDteTransmitter:
    """Stands in for the authority's reception service (locally and in tests): the signature checked
    with the company's registered public key, the signed DTE checked against the schema as the
    authority does, its codes and total; always the same answer for the same DTE, and an accepted
    DTE's seal derived from its codes."""

    def __init__(self, public_keys: Callable[[int], str | None]) -> None:
        self.public_keys = public_keys

    def transmit(self, submission: Submission) -> DteResult:
        sent = self.verified(submission)
        observations = ["documento: la firma no corresponde al certificado del emisor"] if sent is None \
            else self.observations(sent)
        if sent is not None and sent["identificacion"]["codigoGeneracion"] != submission.codigo_generacion:
            observations.append("codigoGeneracion: no corresponde al documento firmado")
        if observations:
            return DteResult(accepted=False, received_at=clock.now_iso(), observations=observations)
        return DteResult(accepted=True, received_at=clock.now_iso(), sello_recepcion=self.seal(sent))

    def invalidate(self, submission: Submission) -> DteResult:
        sent = self.verified(submission)
        if sent is None:
            observations = ["documento: la firma no corresponde al certificado del emisor"]
        else:
            observations = [f"{problem['field']}: {problem['message']}"
                            for problem in dte_json.schema_problems(sent, dte_json.INVALIDATION)]
        if observations:
            return DteResult(accepted=False, received_at=clock.now_iso(), observations=observations)
        return DteResult(accepted=True, received_at=clock.now_iso(), sello_recepcion=self.seal(sent))

    def verified(self, submission: Submission) -> dict[str, Any] | None:
        """The signed DTE when the signature is the company's key's (RS512), else None."""
        from joserfc import jws
        from joserfc.jwk import RSAKey

        registered = self.public_keys(submission.company_id)
        if registered is None:
            return None
        try:
            signed = jws.deserialize_compact(submission.documento, RSAKey.import_key(registered),
                                             algorithms=["RS512"])
        except Exception:  # a forged, altered or malformed signature: all the same answer
            return None
        if signed.protected.get("alg") != "RS512":
            return None
        return json.loads(signed.payload, parse_float=Decimal)

    @staticmethod
    def observations(sent: dict[str, Any]) -> list[str]:
        identification = sent["identificacion"]
        found = [f"{problem['field']}: {problem['message']}" for problem in dte_json.schema_problems(sent)]
        checks = (
            (rules.is_codigo_generacion(identification["codigoGeneracion"]),
             "identificacion.codigoGeneracion: debe ser un UUID v4 en mayúsculas"),
            # a note's summary has no totalPagar: its operation's amount
            (Decimal(sent["resumen"].get("totalPagar", sent["resumen"]["montoTotalOperacion"])) > 0,
             "resumen.totalPagar: debe ser mayor que cero"),
        )
        return found + [message for passed, message in checks if not passed]

    @staticmethod
    def seal(sent: dict[str, Any]) -> str:
        identification = sent["identificacion"]
        codes = f"{identification['codigoGeneracion']}|{identification.get('numeroControl', 'anulacion')}"
        return hashlib.sha256(codes.encode()).hexdigest().upper()[:40]


class UnreachableDteTransmitter:
    """An authority that never answers: how a timeout looks, to exercise the pending path and
    the retry locally."""

    def __init__(self, public_keys: Callable[[int], str | None] | None = None) -> None:
        pass

    def transmit(self, submission: Submission) -> DteResult:
        raise TransmissionFailed("the tax authority did not answer (DTE_TRANSMITTER=unreachable)")

    def invalidate(self, submission: Submission) -> DteResult:
        return self.transmit(submission)


TRANSMITTERS: dict[str, Callable[[Callable[[int], str | None]], DteTransmitter]] = {
    "sandbox": SandboxDteTransmitter, "unreachable": UnreachableDteTransmitter}


def configured_transmitter(table: Table) -> DteTransmitter:
    name = get_settings().dte_transmitter
    if name not in TRANSMITTERS:
        raise ValueError(f"DTE_TRANSMITTER must be one of {', '.join(TRANSMITTERS)}, not {name!r}")
    return TRANSMITTERS[name](lambda company_id: dte_signing.public_key(table, company_id))


# --- issuing: inside the confirming transaction ---------------------------------------------------

def transaction_items(company: dict[str, Any], document_type: str) -> int:
    """Items issuing adds to the confirming transaction: the transmission and the control
    number's sequence."""
    return 2 if rules.issues_dte(company, document_type) else 0


def issue(transaction: Transaction, table: Table, company: dict[str, Any], partner: dict[str, Any],
          document: dict[str, Any], products: dict[int, dict[str, Any]] | None = None,
          source: dict[str, Any] | None = None) -> dict[str, Any]:
    """Makes a numbered document being confirmed a DTE when it is one: returns the document's new
    fields (none otherwise) and adds the pending transmission and the control number to its
    transaction. The DTE is built in the authority's format and checked against its schema
    first: a document the authority's schema refuses is a 400 naming the field (`dte.<path>`),
    and nothing is stored."""
    tipo_dte = rules.tipo_dte(document["type"], partner, source) if rules.issues_dte(company, document["type"]) else None
    if tipo_dte is None:
        return {}
    company_id, document_id = int(company["id"]), int(document["id"])
    dte_signing.require_key(table, company_id)  # a DTE that could not be signed could never be sent
    codigo = rules.new_codigo_generacion()
    numero = rules.numero_control(tipo_dte, document["number"],
                                  _next_control_number(transaction, table, company_id, tipo_dte))
    now = clock.now_iso()
    dte = rules.pending_dte(tipo_dte, codigo, numero)
    dte.update(emisor=dte_json.issuer(company, document["number"], tipo_dte),
               receptor=dte_json.receiver(tipo_dte, partner), horEmi=clock.local_time_in(company.get("country", "SV")),
               items=dte_json.item_kinds(document["lines"], products or {}))
    if source is not None and tipo_dte in rules.NOTE_TYPES.values():
        dte["related"] = dte_json.related(source)
    problems = dte_json.schema_problems(dte_json.authority_document({**document, "dte": dte}, _ambiente(company)))
    if problems:
        details = [{"field": f"dte.{problem['field']}", "message": problem["message"]} for problem in problems]
        raise ValidationFailed(f"The tax authority's format refuses this document: {details[0]['field']}: "
                               f"{details[0]['message']}", details=details)
    transaction.put_new({**keys.dte_transmission(company_id, document_id),
                         **keys.dte_pending_index(company_id, document_id, now), "itemType": "DTE",
                         "companyId": company_id, "documentId": document_id, "status": PENDING,
                         "codigoGeneracion": codigo, "attempts": 0, "createdAt": now})
    return {"codigoGeneracion": codigo, "dte": dte}


def _ambiente(company: dict[str, Any]) -> str:
    """00: the authority's test environment, 01: production (the company's setting)."""
    return (company.get("dteIssuer") or {}).get("environment", "00")


def _next_control_number(transaction: Transaction, table: Table, company_id: int, tipo_dte: str) -> int:
    """Gap-free, taken in the confirming transaction under a condition on the number read: a
    concurrent confirmation makes this one run again and take the next."""
    key = keys.dte_control_sequence(company_id, tipo_dte)
    sequence = table.get(key)
    if sequence is None:
        transaction.update(key, "SET nextNumber = :after", condition="attribute_not_exists(nextNumber)",
                           values={":after": 2})
        return 1
    number = int(sequence["nextNumber"])
    transaction.update(key, "SET nextNumber = :after", condition="nextNumber = :n",
                       values={":n": number, ":after": number + 1})
    return number


# --- transmitting: after the confirming transaction committed -----------------------------------

def transmit_confirmed(table: Table, company: dict[str, Any], document: dict[str, Any],
                       transmitter: DteTransmitter | None = None) -> dict[str, Any]:
    """Sends a just-confirmed document's pending DTE and returns the document as the answer left
    it. Never raises: the document is confirmed whatever happens here (and an exception would
    make the request run its committed command again); what is not recorded stays pending."""
    dte = document.get("dte")
    if not dte or dte.get("status") != PENDING:
        return document
    try:
        changes = _transmit(table, company, document, transmitter or configured_transmitter(table))
    except Exception:  # the confirmation stands; the retry sends it again
        logger.exception("DTE transmission not recorded; it stays pending",
                         extra={"companyId": company.get("id"), "documentId": document.get("id")})
        return document
    return {**document, **changes} if changes else document


def retry_pending_dte(table: Table, transmitter: DteTransmitter | None = None, *,
                      min_age_seconds: int = RETRY_MIN_AGE_SECONDS, batch: int = RETRY_BATCH) -> dict[str, int]:
    """Sends again the pending transmissions of every company (oldest first, up to `batch` per
    index shard), found through the sparse pending index. Returns how many ended accepted,
    rejected, still pending, or skipped (answered meanwhile by another run, or gone)."""
    transmitter = transmitter or configured_transmitter(table)
    cutoff = clock.iso(clock.now() - _dt.timedelta(seconds=min_age_seconds))
    tally: Counter[str] = Counter()
    for partition in keys.dte_pending_partitions():
        pending, _ = table.query(partition=("GSI1PK", partition), index=GSI1, sort_range=("GSI1SK", None, cutoff),
                                 limit=batch)
        for transmission in pending:
            tally[_retry(table, transmitter, int(transmission["companyId"]), int(transmission["documentId"]))] += 1
    return dict(tally)


def _retry(table: Table, transmitter: DteTransmitter, company_id: int, document_id: int) -> str:
    found = table.batch_get([keys.company(company_id), _document_key(company_id, document_id)])
    company = found.get(keys.pair(keys.company(company_id)))
    document = found.get(keys.pair(_document_key(company_id, document_id)))
    if (company is None or document is None or document.get("status") != "confirmed"
            or (document.get("dte") or {}).get("status") != PENDING):
        return SKIPPED
    try:
        changes = _transmit(table, company, document, transmitter)
    except Exception:  # one transmission's trouble does not stop the run
        logger.exception("DTE retry not recorded; it stays pending",
                         extra={"companyId": company_id, "documentId": document_id})
        return PENDING
    return changes["dte"]["status"] if changes else SKIPPED


def _transmit(table: Table, company: dict[str, Any], document: dict[str, Any],
              transmitter: DteTransmitter) -> dict[str, Any] | None:
    company_id, document_id = int(company["id"]), int(document["id"])
    if "emisor" not in document["dte"]:
        # issued before the authority's formats were built here: what was issued cannot be sent
        logger.error("DTE issued without the authority's format; recorded as rejected",
                     extra={"companyId": company_id, "documentId": document_id})
        result = DteResult(accepted=False, received_at=clock.now_iso(), observations=[
            "emitido antes del formato del Ministerio de Hacienda: no puede transmitirse"])
        return _record(table, company_id, document_id, lambda dte: rules.answered(dte, result))
    try:
        result = transmitter.transmit(_submission(table, company, document))
    except Exception as error:  # no answer (or no key to sign with yet): recorded, and sent again later
        logger.warning("DTE transmission got no answer", extra={"companyId": company_id, "documentId": document_id,
                                                                 "error": repr(error)})
        problem = "the tax authority did not answer"  # the details are logged, not shown to clients
        return _record(table, company_id, document_id, lambda dte: rules.unanswered(dte, problem, clock.now_iso()))
    return _record(table, company_id, document_id, lambda dte: rules.answered(dte, result))


def _submission(table: Table, company: dict[str, Any], document: dict[str, Any]) -> Submission:
    """The DTE in the authority's format, signed with the company's key."""
    sent = dte_json.authority_document(document, _ambiente(company))
    identification = sent["identificacion"]
    return Submission(company_id=int(company["id"]), nit=dte_json.digits(company.get("taxId")),
                      ambiente=identification["ambiente"], tipo_dte=identification["tipoDte"],
                      version=identification["version"], codigo_generacion=identification["codigoGeneracion"],
                      documento=dte_signing.sign(table, int(company["id"]), sent))


def _record(table: Table, company_id: int, document_id: int,
            outcome: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any] | None:
    """Records a transmission's outcome once, in one transaction: on the transmission while it is
    still pending (another run that recorded first makes this one change nothing), on the
    document (whose version moves, so no command holding an older copy overwrites it) and, when
    accepted, the `document.dte_accepted` event. Returns the document's changed fields, or None
    when there was nothing left to record."""
    transmission_key = keys.dte_transmission(company_id, document_id)
    document_key = _document_key(company_id, document_id)

    def attempt() -> dict[str, Any] | None:
        found = table.batch_get([transmission_key, document_key])
        transmission, document = found.get(keys.pair(transmission_key)), found.get(keys.pair(document_key))
        if transmission is None or document is None or transmission["status"] != PENDING:
            return None
        dte = outcome(document["dte"])
        now = clock.now_iso()
        changes = {"dte": dte, "version": int(document["version"]) + 1, "updatedAt": now}
        transaction = Transaction(table)
        _update_transmission(transaction, company_id, document_id, dte)
        transaction.update(document_key, "SET #dte = :dte, #updated = :now ADD #version :one",
                           condition="#dte.#status = :pending",
                           names={"#dte": "dte", "#status": "status", "#updated": "updatedAt", "#version": "version"},
                           values={":dte": dte, ":now": now, ":one": 1, ":pending": PENDING})
        if dte["status"] == rules.ACCEPTED:
            outbox.emit(transaction, outbox.DOCUMENT_DTE_ACCEPTED, company_id, "document", document_id,
                        document_rules.event_data({**document, **changes}))
        transaction.commit()
        return changes

    return run_with_retries(attempt, attempts=RECORD_ATTEMPTS)


def _update_transmission(transaction: Transaction, company_id: int, document_id: int, dte: dict[str, Any]) -> None:
    """An answered transmission leaves the pending index; an unanswered one moves to its back (its
    last attempt), so transmissions that keep failing never hide the ones behind them."""
    assignments = ["#status = :status", "attempts = :attempts", "lastAttemptAt = :at"]
    values: dict[str, Any] = {":status": dte["status"], ":attempts": dte["attempts"], ":at": dte["lastAttemptAt"],
                              ":pending": PENDING}
    if dte["status"] == PENDING:
        assignments += ["lastError = :error", "GSI1SK = :since"]
        values[":error"] = dte["lastError"]
        values[":since"] = keys.dte_pending_index(company_id, document_id, dte["lastAttemptAt"])["GSI1SK"]
        removals = ""
    else:
        removals = " REMOVE GSI1PK, GSI1SK, lastError"
    transaction.update(keys.dte_transmission(company_id, document_id), "SET " + ", ".join(assignments) + removals,
                       condition="#status = :pending", names={"#status": "status"}, values=values)


def _document_key(company_id: int, document_id: int) -> keys.Key:
    return keys.entity(company_id, keys.DOCUMENT, document_id)
