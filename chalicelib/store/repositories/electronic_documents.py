"""Electronic documents sent to a tax authority (a country pack's DTEs): a document's `dte` map,
its transmission (in the document's partition, in the pending index, GSI1, while unanswered), the
contingency event its DTEs are declared under, the lots that carry them, and the returns kept
per source. The pack's statuses are given by the caller (the store names no country): each write
holds only while the item is as the caller read it, so a concurrent run records nothing twice."""
from __future__ import annotations

from typing import Any

from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

_DTE_NAMES = {"#dte": "dte", "#status": "status", "#updated": "updatedAt", "#version": "version"}
_CONTINGENCY_NAMES = {**_DTE_NAMES, "#contingency": "contingency"}
_LOT_NAMES = {**_CONTINGENCY_NAMES, "#lot": "lotId"}
# an invalidation's writes leave `updatedAt` as it is: every name given must be used (DynamoDB refuses others)
_INVALIDATION_NAMES = {"#dte": "dte", "#status": "status", "#version": "version"}


# --- transmissions --------------------------------------------------------------------------------

def pending_transmissions(table: Table, partition: str, older_than: str, limit: int) -> list[dict[str, Any]]:
    """Up to `limit` of the unanswered transmissions of one pending partition
    (keys.dte_pending_partitions) whose last attempt was before `older_than`, the oldest first."""
    found: list[dict[str, Any]]
    found, _ = table.query(partition=("GSI1PK", partition), index=GSI1, sort_range=("GSI1SK", None, older_than),
                           limit=limit)
    return found


def postpone_transmission(transaction: Transaction, company_id: int, document_id: int, since: str,
                          pending: str) -> None:
    """Moves a still pending transmission to the back of the pending index, as last tried `since`."""
    transaction.update(keys.dte_transmission(company_id, document_id), "SET GSI1SK = :since",
                       condition="#status = :pending", names={"#status": "status"},
                       values={":since": keys.dte_pending_index(company_id, document_id, since)["GSI1SK"],
                               ":pending": pending})


def record_attempt(transaction: Transaction, company_id: int, document_id: int, dte: dict[str, Any],
                   pending: str, sent: dict[str, Any] | None = None) -> None:
    """A transmission still pending records its attempt: answered (`dte`'s status other than
    `pending`), it leaves the pending index keeping what was `sent` (a lot's JWS lives on in it);
    unanswered, it moves to the index's back with its error."""
    assignments = ["#status = :status", "attempts = :attempts", "lastAttemptAt = :at"]
    values: dict[str, Any] = {":status": dte["status"], ":attempts": dte["attempts"], ":at": dte["lastAttemptAt"],
                              ":pending": pending}
    names = {"#status": "status"}
    if dte["status"] == pending:
        assignments += ["lastError = :error", "GSI1SK = :since"]
        values[":error"] = dte["lastError"]
        values[":since"] = keys.dte_pending_index(company_id, document_id, dte["lastAttemptAt"])["GSI1SK"]
        removals = ""
    else:
        removals = " REMOVE GSI1PK, GSI1SK, lastError, lotJws"
        if sent is not None:
            assignments.append("#sent = :sent")
            names["#sent"], values[":sent"] = "sent", sent
    transaction.update(keys.dte_transmission(company_id, document_id), "SET " + ", ".join(assignments) + removals,
                       condition="#status = :pending", names=names, values=values)


def record_dte(transaction: Transaction, company_id: int, document_id: int, dte: dict[str, Any], now: str,
               version_read: int, pending: str) -> None:
    """The document's whole `dte` written on the document as read while its DTE is pending; its
    version moves."""
    transaction.update(keys.document(company_id, document_id), "SET #dte = :dte, #updated = :now ADD #version :one",
                       condition="#dte.#status = :pending AND #version = :read", names=_DTE_NAMES,
                       values={":dte": dte, ":now": now, ":one": 1, ":pending": pending, ":read": version_read})


# --- contingency ------------------------------------------------------------------------------------

def declare_contingency(transaction: Transaction, company_id: int, document_id: int, contingency: dict[str, Any],
                        pending: str) -> None:
    """The document's pending DTE declared under a contingency event, unless declared already."""
    transaction.update(keys.document(company_id, document_id),
                       "SET #dte.#contingency = :contingency, #updated = :now ADD #version :one",
                       condition="#dte.#status = :pending AND attribute_not_exists(#dte.#contingency)",
                       names=_CONTINGENCY_NAMES,
                       values={":contingency": contingency, ":now": contingency["declaredAt"], ":one": 1,
                               ":pending": pending})


def update_contingency(transaction: Transaction, company_id: int, document_id: int, event_codigo: str,
                       changes: dict[str, Any], updated_at: str, pending: str) -> None:
    """Sets `changes` in the contingency of a DTE still pending under the event `event_codigo`."""
    names, values = {**_CONTINGENCY_NAMES, "#event": "eventCodigo"}, {":one": 1, ":pending": pending,
                                                                       ":codigo": event_codigo, ":now": updated_at}
    assignments = []
    for position, (name, value) in enumerate(changes.items()):
        names[f"#c{position}"], values[f":c{position}"] = name, value
        assignments.append(f"#dte.#contingency.#c{position} = :c{position}")
    transaction.update(keys.document(company_id, document_id),
                       f"SET {', '.join(assignments)}, #updated = :now ADD #version :one",
                       condition="#dte.#status = :pending AND #dte.#contingency.#event = :codigo",
                       names=names, values=values)


# --- invalidation -----------------------------------------------------------------------------------

def record_pending_invalidation(transaction: Transaction, company_id: int, document_id: int, field: str,
                                event: dict[str, Any], accepted: str) -> None:
    """The invalidation event about to be sent, kept in the accepted DTE's `field`, where no other
    request has kept its own."""
    transaction.update(keys.document(company_id, document_id), "SET #dte.#pending = :pending ADD #version :one",
                       condition="#dte.#status = :accepted AND attribute_not_exists(#dte.#pending)",
                       names={**_INVALIDATION_NAMES, "#pending": field},
                       values={":one": 1, ":accepted": accepted, ":pending": event})


def forget_pending_invalidation(transaction: Transaction, company_id: int, document_id: int, field: str,
                                codigo: str, accepted: str) -> None:
    """The invalidation event kept in `field` taken out, only when it is the one of `codigo`."""
    transaction.update(keys.document(company_id, document_id), "REMOVE #dte.#pending ADD #version :one",
                       condition="#dte.#status = :accepted AND #dte.#pending.#codigo = :codigo",
                       names={**_INVALIDATION_NAMES, "#pending": field, "#codigo": "codigoGeneracion"},
                       values={":one": 1, ":accepted": accepted, ":codigo": codigo})


# --- lots -------------------------------------------------------------------------------------------

def open_lots(table: Table, partition: str, limit: int) -> list[dict[str, Any]]:
    """Up to `limit` open lots of one partition (keys.dte_open_lot_partitions), the oldest first."""
    found: list[dict[str, Any]]
    found, _ = table.query(partition=("GSI1PK", partition), index=GSI1, limit=limit)
    return found


def put_in_lot(transaction: Transaction, company_id: int, document_id: int, id_envio: str, now: str,
               pending: str) -> None:
    """The pending DTE of a contingency put in the lot `id_envio`, unless in a lot already."""
    transaction.update(keys.document(company_id, document_id),
                       "SET #dte.#contingency.#lot = :lot, #updated = :now ADD #version :one",
                       condition="#dte.#status = :pending AND attribute_not_exists(#dte.#contingency.#lot)",
                       names=_LOT_NAMES, values={":lot": id_envio, ":now": now, ":one": 1, ":pending": pending})


def take_out_of_lot(transaction: Transaction, company_id: int, document_id: int, id_envio: str, now: str,
                    pending: str) -> None:
    """The pending DTE freed from the lot `id_envio` (only that lot's)."""
    transaction.update(keys.document(company_id, document_id),
                       "REMOVE #dte.#contingency.#lot SET #updated = :now ADD #version :one",
                       condition="#dte.#status = :pending AND #dte.#contingency.#lot = :lot",
                       names=_LOT_NAMES, values={":lot": id_envio, ":now": now, ":one": 1, ":pending": pending})


def lot_received(transaction: Transaction, company_id: int, id_envio: str, codigo_lote: str, now: str, *,
                 sending: str, received: str) -> None:
    """A lot being sent marked received, with the authority's code for it."""
    transaction.update(keys.dte_lot(company_id, id_envio), "SET #status = :received, codigoLote = :code, sentAt = :now",
                       condition="#status = :sending", names={"#status": "status"},
                       values={":received": received, ":code": codigo_lote, ":now": now, ":sending": sending})


def keep_lot_jws(transaction: Transaction, company_id: int, document_id: int, jws: str) -> None:
    """The DTE's JWS as its lot carried it, kept on its transmission."""
    transaction.update(keys.dte_transmission(company_id, document_id), "SET lotJws = :jws", values={":jws": jws})


def lot_refused(transaction: Transaction, company_id: int, id_envio: str, observations: list[str], now: str, *,
                sending: str, refused: str) -> None:
    """A lot being sent closed as refused (out of the open lots' index), with the authority's observations."""
    transaction.update(keys.dte_lot(company_id, id_envio),
                       "SET #status = :refused, closedAt = :now, observations = :observations REMOVE GSI1PK, GSI1SK",
                       condition="#status = :sending", names={"#status": "status"},
                       values={":refused": refused, ":now": now, ":observations": observations, ":sending": sending})


def close_lot(transaction: Transaction, company_id: int, id_envio: str, now: str, closed: str) -> None:
    """A lot closed (out of the open lots' index), unless closed already."""
    transaction.update(keys.dte_lot(company_id, id_envio), "SET #status = :closed, closedAt = :now REMOVE GSI1PK, GSI1SK",
                       condition="#status <> :closed", names={"#status": "status"},
                       values={":closed": closed, ":now": now})


# --- returns ----------------------------------------------------------------------------------------

def write_returns(transaction: Transaction, key: keys.Key, kept: dict[str, Any] | None, notes: dict[str, Any],
                  item_type: str) -> None:
    """A source's returns written on what was read (`kept`, None: none yet): a concurrent return of
    the same source makes the command run again."""
    if kept is None:
        transaction.put({**key, "itemType": item_type, "notes": notes, "changes": 1},
                        condition="attribute_not_exists(PK)")
        return
    transaction.update(key, "SET notes = :notes, changes = :after", condition="changes = :seen",
                       values={":notes": notes, ":after": int(kept["changes"]) + 1, ":seen": int(kept["changes"])})
