"""The card gateways' notifications (issue 43): parsed and verified by the provider's adapter,
then confirmed with the provider's own status call BEFORE anything is booked; a confirmed payment
books Dr clearing (the gateway's method's bank account), Cr receivable, and the provider's fee
(gateway_books), in one transaction with its decision.

A notification is decided once per provider transaction: the decision (accepted with its
payment, refused with its reason) is an item of its own, created in the payment's transaction, so
a repeated, reordered or concurrent notification of the same transaction finds it and gets the
same answer, and no transaction is ever booked twice. A verified notification that cannot be
decided yet leaves a `pending` decision with its reason: the provider did not answer the status
call (503 GATEWAY_UNAVAILABLE), refused it (502), or the company's setup refuses the payment
(503 PAYMENT_DEFERRED); the provider's retry, the recheck route or the hourly run completes it,
so money collected leaves a trace even when the provider never sends its notification again."""
from __future__ import annotations

import dataclasses
import datetime as _dt
import time
from decimal import Decimal
from typing import Any, Mapping

from chalicelib import clock
from chalicelib.auth.principal import Principal
from chalicelib.domain import gateways as gateway_rules
from chalicelib.domain.gateways import ProviderNotification
from chalicelib.domain.records import PaymentRecord
from chalicelib.errors import ApiError, NotFound
from chalicelib.messages.phrases import Phrase
from chalicelib.observability import logger
from chalicelib.services import document_names
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.commands import Command
from chalicelib.services.integrations import gateway_books, gateway_config
from chalicelib.services.integrations.link_payments import count_payment
from chalicelib.services.integrations.payment_links import LINK_NOT_FOUND, stored_link
from chalicelib.services.integrations.providers import (
    Confirmation,
    ProviderError,
    ProviderUnavailable,
    adapter_for,
    gateway_unavailable,
)
from chalicelib.services.payments import payment_records
from chalicelib.services.sales_purchases.documents import get_document
from chalicelib.store import keys
from chalicelib.store.listing import Page, list_range
from chalicelib.store.repositories import gateways as stored_gateways
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction, run_with_retries

ACCEPTED, REFUSED, IGNORED, PENDING = "accepted", "refused", "ignored", "pending"
# who books a gateway's payment: no user, the link's company
GATEWAY_PRINCIPAL = "gateway"
# the link names its document as a person does; each decision of it copies them
_DOCUMENT_NAMES = ("documentNumber", "documentNumeroControl")
# the pending decisions the hourly run confirms again, oldest first: at most this many an hour,
# within RECHECK_SECONDS; one that fails RECHECK_ATTEMPTS runs (a day) leaves the hourly list and
# stays pending for a person's recheck, so what fails for good never starves the others
RECHECKS_PER_RUN = 200
RECHECK_SECONDS = 15.0
RECHECK_ATTEMPTS = 24

# What the payment itself is refused for, for good: recorded and answered 200 so the provider
# stops sending it; the money is refunded or registered by hand. Any other refusal is the
# company's setup (an inactive method, a closed period, a missing account rule): the decision is
# left pending with its reason, and the provider is asked to send it again later, when the setup
# may be fixed (the hourly run and the recheck route try it too).
FINAL_REFUSALS = frozenset({"AMOUNT_EXCEEDS_PENDING", "CASH_CONDITION_UNMET", "DOCUMENT_NOT_PAYABLE"})


def answer(decision: dict[str, Any]) -> dict[str, Any]:
    return {"status": decision["status"], "linkId": decision["linkId"], "transactionId": decision["transactionId"],
            "paymentId": decision.get("paymentId"), "code": decision.get("code"), "reason": decision.get("reason")}


def decision_view(decision: dict[str, Any]) -> dict[str, Any]:
    return {**answer(decision), "amount": decision.get("amount"), "currency": decision.get("currency"),
            "documentId": decision["documentId"], "documentNumber": decision.get("documentNumber"),
            "documentNumeroControl": decision.get("documentNumeroControl"), "paidAt": decision.get("paidAt"),
            "receivedAt": decision["receivedAt"]}


def list_decisions(table: Table, company_id: int, gateway_id: int, page: int, limit: int,
                   cursor: str | None) -> Page:
    """A gateway's decided notifications, newest first: accepted with their payment, refused with
    the reason (for someone to refund or register by hand), pending a confirmation."""
    gateway_config.stored(table, company_id, gateway_id)
    counter = table.get(keys.gateway_decision_count(company_id, gateway_id)) or {}
    listed = list_range(table, partition=keys.gateway_decisions_partition(company_id, gateway_id), low=None,
                        high=None, filters={}, page=page, limit=limit, cursor=cursor, descending=True,
                        total=int(counter.get("total", 0)))
    return dataclasses.replace(listed, items=[decision_view(item) for item in
                                              document_names.completed(table, company_id, listed.items)])


@dataclasses.dataclass(frozen=True)
class _Context:
    """What deciding a provider transaction needs, loaded fresh on each attempt."""
    table: Table
    gateway: dict[str, Any]
    link: dict[str, Any]
    notification: ProviderNotification
    received_at: str

    @property
    def company_id(self) -> int:
        return int(self.link["companyId"])

    @property
    def key(self) -> keys.Key:
        return keys.gateway_callback(self.company_id, self.notification.provider, self.notification.transaction_id)


def _link_of(table: Table, provider: str, link_id: str) -> dict[str, Any]:
    """The link a notification names, if it is one of this provider's: the path a provider posts
    to says which provider it is."""
    link = stored_link(table, link_id)
    if link is None or link.get("provider") != provider:
        raise NotFound(LINK_NOT_FOUND)
    return link


def _gateway_of(table: Table, link: dict[str, Any]) -> dict[str, Any]:
    gateway = table.get(gateway_config.gateway_key(link["companyId"], link["gatewayId"]))
    if gateway is None or gateway.get("provider") != link.get("provider"):  # deleted: nothing can verify it
        raise NotFound(LINK_NOT_FOUND)
    return gateway


def receive_notification(table: Table, provider: str, raw_body: bytes, headers: Mapping[str, str]) -> dict[str, Any]:
    """Parse (400), find the link (404) and its gateway (404), verify (401: nothing written),
    then decide once per provider transaction on the provider's confirmation. `headers` has
    lowercase names."""
    adapter = adapter_for(provider)
    notification = adapter.parse_notification(raw_body, headers)
    link = _link_of(table, provider, notification.link_id)
    gateway = _gateway_of(table, link)
    adapter.verify_notification(gateway_config.access_for(gateway, int(link["companyId"])), notification, raw_body,
                                headers)
    if not notification.approved:
        return {"status": IGNORED, "linkId": link["id"], "transactionId": notification.transaction_id,
                "paymentId": None, "code": None, "reason": None}
    return _decide(_Context(table, gateway, link, notification, clock.now_iso()))


def _decide(context: _Context) -> dict[str, Any]:
    table = context.table
    decided = table.get(context.key)
    if decided is not None and decided.get("linkId") != context.link["id"]:
        # another link's transaction: its decision is not this link's to answer, nor its money
        logger.warning("a notification names a transaction of another link: ignored",
                       extra={"companyId": context.company_id, "linkId": context.link["id"],
                              "transactionId": context.notification.transaction_id})
        return {"status": IGNORED, "linkId": context.link["id"], "transactionId": context.notification.transaction_id,
                "paymentId": None, "code": None, "reason": None}
    if decided is not None and decided["status"] != PENDING:
        return answer(decided)
    if decided is not None:  # the decision keeps its place among the gateway's: when it first came
        context = dataclasses.replace(context, received_at=decided["receivedAt"])
    adapter = adapter_for(context.notification.provider)
    try:
        confirmation = adapter.confirm(gateway_config.access_for(context.gateway, context.company_id),
                                       context.notification)
    except ProviderUnavailable as error:
        if decided is None:
            _record(table, _decision(context, None, PENDING), None)
        logger.warning("gateway status call unanswered: the notification is pending",
                       extra={"companyId": context.company_id, "linkId": context.link["id"],
                              "transactionId": context.notification.transaction_id})
        raise gateway_unavailable(str(error)) from None
    except ProviderError as error:  # refused or unreadable: nothing confirmed, the notification kept
        _keep_pending(context, None, decided, error)
        raise
    if not confirmation.approved:
        if decided is None:  # a declined payment books nothing and records nothing
            return {**answer(_decision(context, confirmation, IGNORED))}
        return answer(_record(table, _decision(context, confirmation, IGNORED, reason=confirmation.message),
                              decided))
    refusal = _refusal(context, confirmation)
    if refusal is None:
        try:
            return answer(_book(context, confirmation, decided))
        except ApiError as error:
            if error.server_side or error.code not in FINAL_REFUSALS:
                _keep_pending(context, confirmation, decided, error)
                raise _deferred(error, context) from None
            refusal = error
    return answer(_record(table, _decision(context, confirmation, REFUSED, code=refusal.code,
                                           reason=refusal.message), decided))


def _keep_pending(context: _Context, confirmation: Confirmation | None, decided: dict[str, Any] | None,
                  error: ApiError) -> None:
    """A verified notification not decided now: a pending decision with the reason, for the
    hourly run and a person's recheck (one pending already stays as it is)."""
    if decided is None:
        _record(context.table, _decision(context, confirmation, PENDING, code=error.code, reason=error.message), None)


def _paid_at(context: _Context, confirmation: Confirmation) -> _dt.datetime:
    """When the provider says it was paid, else when its notification first reached us: never the
    notification's own claim (no signature covers it) nor the time of a later recheck."""
    return _aware(confirmation.paid_at or clock.parse_iso(context.received_at))


def _refusal(context: _Context, confirmation: Confirmation) -> ApiError | None:
    """What the link refuses: a payment after it expired, or not what it still asks for (amount,
    currency, real or test money)."""
    link, gateway = context.link, context.gateway
    paid_at = _paid_at(context, confirmation)
    if gateway_rules.link_expired(clock.parse_iso(str(link["linkExpiresAt"])), paid_at):
        return ApiError(Phrase("The payment link expired at {}, before the payment.", link['linkExpiresAt']),
                        code="PAYMENT_LINK_EXPIRED")
    asked = Decimal(link["amount"]) - Decimal(link.get("paidTotal", 0))
    return gateway_rules.mismatch(asked=asked, currency=link["currency"], mode=gateway.get("mode", "test"),
                                  paid=confirmation.amount, paid_currency=confirmation.currency,
                                  live=confirmation.live)


def _aware(moment: _dt.datetime) -> _dt.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=_dt.timezone.utc)


def _decision(context: _Context, confirmation: Confirmation | None, status: str, **fields: Any) -> dict[str, Any]:
    link, notification = context.link, context.notification
    amount = confirmation.amount if confirmation else notification.amount
    currency = confirmation.currency if confirmation else notification.currency
    paid_at = _paid_at(context, confirmation) if confirmation else notification.paid_at
    item = {**context.key, **keys.gateway_decision_index(context.company_id, link["gatewayId"], context.received_at,
                                                         notification.transaction_id),
            "itemType": "GATEWAY_CALLBACK", "companyId": context.company_id, "provider": notification.provider,
            "transactionId": notification.transaction_id, "linkId": link["id"], "gatewayId": link["gatewayId"],
            "documentId": link["documentId"], **{name: link[name] for name in _DOCUMENT_NAMES if name in link},
            "amount": Decimal(amount).quantize(gateway_rules.CENT) if amount is not None else None,
            "currency": currency, "paidAt": clock.iso(_aware(paid_at)) if paid_at else None,
            "receivedAt": context.received_at, "status": status, **fields}
    if status == PENDING:  # what the recheck needs to ask the provider again
        item["notification"] = {"live": notification.live, "approved": notification.approved}
    return {name: value for name, value in item.items() if value is not None}


def _record(table: Table, decision: dict[str, Any], decided: dict[str, Any] | None,
            transaction: Transaction | None = None) -> dict[str, Any]:
    """Writes the decision once per provider transaction: new (counted), or in place of the
    pending one read (condition: still pending). A twin that decided first fails the condition:
    the command runs again and answers its decision."""
    own = transaction is None
    transaction = transaction or Transaction(table)
    pending_key = keys.gateway_pending(decision["companyId"], decision["provider"], decision["transactionId"],
                                       decision["receivedAt"])
    if decided is None:
        transaction.put_new(decision)
        transaction.increment(keys.gateway_decision_count(decision["companyId"], decision["gatewayId"]), "total")
    else:
        stored_gateways.replace_pending_decision(transaction, decision, PENDING)
    if decision["status"] == PENDING:
        transaction.put({**pending_key, "itemType": "GATEWAY_PENDING", "companyId": decision["companyId"],
                         "provider": decision["provider"], "transactionId": decision["transactionId"],
                         "gatewayId": decision["gatewayId"], "since": decision["receivedAt"], "attempts": 0})
    elif decided is not None:
        transaction.delete(pending_key)
    if own:
        transaction.commit()
    return decision


def _book(context: _Context, confirmation: Confirmation, decided: dict[str, Any] | None) -> dict[str, Any]:
    """The payment (Dr clearing, Cr receivable), its fee, the decision and the link's count, in one
    transaction."""
    table, company_id, gateway, link = context.table, context.company_id, context.gateway, context.link
    command = Command(Principal.acting_for(company_id, GATEWAY_PRINCIPAL), table)
    document = get_document(table, company_id, link["documentId"])
    kind = payment_records.payable_kind(document)
    method = payment_records.active_method(table, company_id, {"paymentMethodId": gateway["paymentMethodId"]})
    transaction, writes = command.transaction(), JournalWrites(company_id)
    transaction_id = context.notification.transaction_id

    def with_fee(payment: PaymentRecord) -> None:  # (book_fee_into sets the fee's fields on the payment)
        gateway_books.book_fee_into(command, transaction, writes, gateway, payment)
    payment = payment_records.method_payment(
        command, transaction, writes, document, kind, method,
        {"paymentMethodId": gateway["paymentMethodId"], "amount": confirmation.amount, "reference": transaction_id,
         "paymentLinkId": link["id"], "gatewayId": gateway["id"], "gatewayTransactionId": transaction_id,
         "notes": f"{gateway['provider']}, payment link {link['id']}"}, before_keep=with_fee)
    writes.apply(transaction)
    decision = _decision(context, confirmation, ACCEPTED, paymentId=payment["id"], paymentStatus=payment["status"])
    _record(table, decision, decided, transaction)
    count_payment(transaction, link, Decimal(payment["amount"]), payment["id"])
    command.commit(transaction, payment)
    return decision


def _deferred(error: ApiError, context: _Context) -> ApiError:
    logger.error("gateway payment not booked: the company's setup refuses it; kept pending until it is fixed",
                 extra={"companyId": context.company_id, "linkId": context.link["id"], "code": error.code,
                        "transactionId": context.notification.transaction_id})
    return ApiError(Phrase("The payment cannot be registered yet ({}: {}); send it again later.",
                           error.code, error.message),
                    code="PAYMENT_DEFERRED")


# --- rechecks: a pending decision confirmed again -------------------------------------------------

def recheck(table: Table, company_id: int, gateway_id: int, transaction_id: str) -> dict[str, Any]:
    """The recheck route: the gateway's decision of this provider transaction, confirmed again
    with the provider when pending (503 GATEWAY_UNAVAILABLE while it still does not answer)."""
    gateway = gateway_config.stored(table, company_id, gateway_id)
    decided = table.get(keys.gateway_callback(company_id, str(gateway.get("provider")), transaction_id))
    if decided is None or int(decided["gatewayId"]) != gateway_id:
        raise NotFound("No notification of this transaction through this gateway.")
    if decided["status"] != PENDING:
        return answer(decided)
    link = stored_link(table, decided["linkId"])
    if link is None:
        raise NotFound(LINK_NOT_FOUND)
    sent = decided.get("notification") or {}
    notification = ProviderNotification(
        provider=decided["provider"], link_id=decided["linkId"], transaction_id=transaction_id, approved=True,
        amount=Decimal(decided["amount"]) if decided.get("amount") is not None else None,
        currency=decided.get("currency"), paid_at=clock.parse_iso(decided["paidAt"]) if decided.get("paidAt") else None,
        live=sent.get("live"))
    return _decide(_Context(table, gateway, link, notification, decided["receivedAt"]))


def run_pending_rechecks(table: Table, limit: int = RECHECKS_PER_RUN, seconds: float = RECHECK_SECONDS,
                         attempts: int = RECHECK_ATTEMPTS) -> dict[str, int]:
    """The hourly run: the pending decisions confirmed again, oldest first, past the ones that
    fail (at most `limit` within `seconds`). One that failed `attempts` runs leaves the list."""
    summary = {"checked": 0, "decided": 0, "stillPending": 0, "failed": 0, "givenUp": 0}
    deadline, start = time.monotonic() + seconds, None
    while True:
        items, start = stored_gateways.pending_page(table, limit, start)
        for item in items:
            if summary["checked"] >= limit or time.monotonic() > deadline:
                return summary
            summary["checked"] += 1
            outcome = _recheck_pending(table, item)
            summary[outcome] += 1
            if outcome != "decided" and _failed_attempt(table, item, attempts):
                summary["givenUp"] += 1
        if start is None:
            return summary


def _recheck_pending(table: Table, item: dict[str, Any]) -> str:
    try:
        run_with_retries(lambda: recheck(table, int(item["companyId"]), int(item["gatewayId"]),
                                         str(item["transactionId"])))
        return "decided"
    except ApiError as error:
        if error.code in ("GATEWAY_UNAVAILABLE", "PAYMENT_DEFERRED"):
            return "stillPending"
        logger.error("gateway recheck failed", extra={"companyId": item["companyId"], "code": error.code,
                                                      "transactionId": item["transactionId"]})
        return "failed"
    except LostRace:
        return "stillPending"


def _failed_attempt(table: Table, item: dict[str, Any], attempts: int) -> bool:
    """Counts a failed run on the item; True when that was its last (it leaves the hourly list)."""
    key = keys.gateway_pending(int(item["companyId"]), str(item["provider"]), str(item["transactionId"]),
                               str(item["since"]))
    if int(item.get("attempts", 0)) + 1 < attempts:
        stored_gateways.count_failed_recheck(table, key)
        return False
    logger.error("gateway notification left pending for a person's recheck: the hourly run gave up on it",
                 extra={"companyId": item["companyId"], "gatewayId": item["gatewayId"],
                        "transactionId": item["transactionId"]})
    table.remove(key)
    return True
