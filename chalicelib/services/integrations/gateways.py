"""Payment gateways, the payment links that collect a sales document through one, and the
gateways' signed notifications, which register the payment (services/payments/payments.py) for the
link's company.

A notification is decided once per gateway transaction: the decision (accepted with its payment,
or refused with its reason) is an item of its own, created in the same transaction as the
payment, so a repeated or concurrent notification of the same transaction finds it and gets the
same answer, and no transaction is ever paid twice."""
from __future__ import annotations

import dataclasses
import datetime as _dt
from decimal import Decimal
from typing import Any, Mapping

from chalicelib import clock
from chalicelib.auth import sealing
from chalicelib.auth.principal import Principal
from chalicelib.domain import gateways as gateway_rules
from chalicelib.domain.documents import CONFIRMED, KINDS
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.observability import logger
from chalicelib.services import document_names, records
from chalicelib.services.commands import Command
from chalicelib.services.integrations.link_payments import ACTIVE, count_payment
from chalicelib.services.payments import payment_records, payment_setup, payments
from chalicelib.services.sales_purchases.documents import get_document
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.listing import Page, list_range
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

ACCEPTED, REFUSED, IGNORED = "accepted", "refused", "ignored"
# who registers a gateway's payment: no user, the link's company
GATEWAY_PRINCIPAL = "gateway"
_GATEWAY_INACTIVE = ApiError("The payment gateway is inactive.", code="PAYMENT_GATEWAY_INACTIVE",
                             details=[{"field": "gatewayId", "message": "inactive"}])
_LINK_NOT_FOUND = "Payment link not found."
# the link names its document as a person does; each notification of it copies them
_DOCUMENT_NAMES = ("documentNumber", "documentNumeroControl")
# what a gateway's secret is sealed for (chalicelib/auth/sealing.py)
SECRET_PURPOSE = "gateway-secret"


# --- gateways ---------------------------------------------------------------------------------------

def gateway_key(company_id: int, gateway_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.PAYMENT_GATEWAY, gateway_id)


def view(item: dict[str, Any]) -> dict[str, Any]:
    """A gateway as answered: never its secret, not even part of it; a fingerprint (kept when it
    was sealed) tells which one is set."""
    legacy = str(item.get("secret") or "")  # written before secrets were sealed
    fingerprint = item.get("secretFingerprint") or (gateway_rules.secret_fingerprint(legacy) if legacy else None)
    return {**{name: value for name, value in item.items() if name not in ("secret", "sealedSecret")},
            "hasSecret": bool(item.get("sealedSecret") or legacy), "secretFingerprint": fingerprint}


def sealed_secret(company_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields with the gateway's secret sealed (never stored as it is) and its fingerprint;
    the plaintext attribute of an item written before secrets were sealed goes (None)."""
    if fields.get("secret") is None:
        return fields
    secret = str(fields["secret"])
    return {**fields, "secret": None, "sealedSecret": sealing.seal_text(secret, company_id, SECRET_PURPOSE),
            "secretFingerprint": gateway_rules.secret_fingerprint(secret)}


def _stored(table: Table, company_id: int, gateway_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.PAYMENT_GATEWAY, gateway_id, "Payment gateway")


def list_gateways(table: Table, company_id: int, page: int, limit: int) -> Page:
    listed = records.small_page(records.small_records(table, company_id, keys.PAYMENT_GATEWAY), page, limit)
    return dataclasses.replace(listed, items=[view(item) for item in listed.items])


def get_gateway(table: Table, company_id: int, gateway_id: int) -> dict[str, Any]:
    return view(_stored(table, company_id, gateway_id))


def _require_active_method(table: Table, transaction: Transaction, company_id: int, method_id: int) -> None:
    """The gateway's payments are registered with this method: it exists and is active, read
    now and checked again in the transaction."""
    refused = ValidationFailed.for_field("paymentMethodId", "must name an active payment method")
    try:
        method = payment_setup.get_method(table, company_id, method_id)
    except NotFound:
        raise ValidationFailed.for_field("paymentMethodId", "no such payment method") from None
    if not method.get("isActive", True):
        raise refused
    transaction.check(payment_setup.method_key(company_id, method_id), "isActive = :yes", values={":yes": True},
                      on_fail=refused)


def create_gateway(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    item = records.new_small_record(command.table, command.company_id, keys.PAYMENT_GATEWAY,
                                    sealed_secret(command.company_id, fields))
    transaction = command.transaction()
    transaction.put_new(item)
    _require_active_method(command.table, transaction, command.company_id, fields["paymentMethodId"])
    return command.commit(transaction, view(item))


def update_gateway(command: Command, gateway_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    current = _stored(table, company_id, gateway_id)
    changes = sealed_secret(company_id, changes)
    return view(records.update_item(
        command, gateway_key(company_id, gateway_id), current, changes, expected_version,
        lambda transaction, _: _require_active_method(table, transaction, company_id, changes["paymentMethodId"])
        if changes.get("paymentMethodId") is not None else None))


def delete_gateway(command: Command, gateway_id: int) -> dict[str, Any]:
    """Web app only. A gateway whose links may still be paid stays: without it their
    notifications could not be verified, and the customers' money would not be registered."""
    current = _stored(command.table, command.company_id, gateway_id)
    in_use = payment_setup.InUse("Payment links of this gateway may still be paid or notified; deactivate it "
                                 "instead.")
    # a payment made just before a link expired may be notified days later (gateways retry)
    now = clock.iso(clock.now() - _dt.timedelta(hours=gateway_rules.LATE_NOTIFICATION_HOURS))
    if str(current.get("lastLinkExpiresAt", "")) > now:
        raise in_use
    transaction = command.transaction()
    transaction.delete(gateway_key(command.company_id, gateway_id),
                       condition="#v = :v AND (attribute_not_exists(lastLinkExpiresAt) OR lastLinkExpiresAt <= :now)",
                       names={"#v": "version"}, values={":v": current["version"], ":now": now})
    return command.commit(transaction, {"id": gateway_id, "deleted": True})


# --- payment links --------------------------------------------------------------------------------

def link_view(link: dict[str, Any]) -> dict[str, Any]:
    return {"linkId": link["id"], "url": get_settings().payment_link_base_url + link["id"],
            "amount": link["amount"], "currency": link["currency"], "expiresAt": link["linkExpiresAt"],
            "documentId": link["documentId"], "gatewayId": link["gatewayId"], "status": link["status"]}


def _collectable(table: Table, company_id: int, document_id: int) -> dict[str, Any]:
    """A confirmed sales document that is owed (01, 113, 07) with something pending."""
    document = get_document(table, company_id, document_id)
    kind = KINDS[document["type"]]
    problem = None
    if not (kind.sales and kind.balance > 0):
        problem = f"a payment link collects a sales document a customer owes; this one is {kind.code} ({kind.name})"
    elif document["status"] != CONFIRMED:
        problem = f"only a confirmed document can be paid; this one is {document['status']}"
    elif Decimal(document["pending"]) <= 0:
        problem = "nothing is pending on this document"
    if problem:
        raise payment_records.PaymentRefused(f"The document cannot be collected: {problem}.", code="DOCUMENT_NOT_PAYABLE",
                                      details=[{"field": "documentId", "message": problem}])
    return document


def _check_gateway_method(table: Table, company_id: int, gateway: dict[str, Any]) -> None:
    """Its payments would be refused: better no link than a customer's money left unregistered."""
    try:
        method = payment_setup.get_method(table, company_id, gateway["paymentMethodId"])
    except NotFound:
        method = None
    if method is None or not method.get("isActive", True):
        raise payment_records.PaymentRefused("The gateway's payment method is deleted or inactive.",
                                      code="PAYMENT_METHOD_INACTIVE",
                                      details=[{"field": "gatewayId", "message": "its payment method is inactive"}])


def generate_link(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    try:
        gateway = _stored(table, company_id, fields["gatewayId"])
    except NotFound:
        raise ValidationFailed.for_field("gatewayId", "no such payment gateway") from None
    if not gateway.get("isActive", True):
        raise _GATEWAY_INACTIVE
    document = _collectable(table, company_id, fields["documentId"])
    amount = gateway_rules.link_amount(fields.get("amount"), Decimal(document["pending"]))
    payment_records.within_pending(amount, Decimal(document["pending"]))
    # a link for less than a cash document's total could never be paid
    payment_records.require_cash_terms_met(table, company_id, document, amount)
    _check_gateway_method(table, company_id, gateway)
    link_id, now = gateway_rules.new_link_id(), clock.now()
    created_at = clock.iso(now)
    expires_at = clock.iso(now + _dt.timedelta(hours=get_settings().payment_link_ttl_hours))
    link = {**keys.payment_link(link_id), **keys.payment_link_index(company_id, created_at, link_id),
            "itemType": "PAYLINK", "id": link_id, "companyId": company_id, "gatewayId": gateway["id"],
            "provider": gateway["provider"], "documentId": document["id"], **document_names.names(document),
            "amount": amount,
            "currency": document.get("currency") or "HNL", "linkExpiresAt": expires_at, "status": ACTIVE,
            "paidTotal": Decimal(0), "version": 1, "createdAt": created_at}
    transaction = command.transaction()
    transaction.put_new(link)
    # links are made in time order, so the newest expires last: the gateway stays while it may be paid
    transaction.update(gateway_key(company_id, gateway["id"]), "SET lastLinkExpiresAt = :expires",
                       condition="isActive = :yes", values={":expires": expires_at, ":yes": True},
                       on_fail=_GATEWAY_INACTIVE)
    return command.commit(transaction, link_view(link))


# --- notifications --------------------------------------------------------------------------------

@dataclasses.dataclass
class _NotificationCommand(Command):
    """register_payment's command for a gateway's notification: its commit also creates the
    notification's decision and counts the payment on the link, in the payment's transaction."""
    decision: dict[str, Any] = dataclasses.field(default_factory=dict)
    link: dict[str, Any] = dataclasses.field(default_factory=dict)

    def commit(self, transaction: Transaction, result: Any, replay: Any = None) -> Any:
        self.decision = {**self.decision, "status": ACCEPTED, "paymentId": result["id"],
                         "paymentStatus": result["status"]}
        _record_decision(transaction, self.decision)
        count_payment(transaction, self.link, Decimal(result["amount"]), result["id"])
        return super().commit(transaction, result, replay)


def _record_decision(transaction: Transaction, decision: dict[str, Any]) -> None:
    """Once per gateway transaction: a twin that decided first makes this transaction fail."""
    transaction.put_new(decision)
    transaction.increment(keys.gateway_decision_count(decision["companyId"], decision["gatewayId"]), "total")


def list_decisions(table: Table, company_id: int, gateway_id: int, page: int, limit: int,
                   cursor: str | None) -> Page:
    """A gateway's decided notifications, newest first: accepted with their payment, refused with
    the reason, for someone to refund or register by hand."""
    _stored(table, company_id, gateway_id)
    counter = table.get(keys.gateway_decision_count(company_id, gateway_id)) or {}
    listed = list_range(table, partition=keys.gateway_decisions_partition(company_id, gateway_id), low=None,
                        high=None, filters={}, page=page, limit=limit, cursor=cursor, descending=True,
                        total=int(counter.get("total", 0)))
    return dataclasses.replace(listed, items=[decision_view(item) for item in
                                              document_names.completed(table, company_id, listed.items)])


def decision_view(decision: dict[str, Any]) -> dict[str, Any]:
    return {**answer(decision), "amount": decision["amount"], "currency": decision["currency"],
            "documentId": decision["documentId"], "documentNumber": decision.get("documentNumber"),
            "documentNumeroControl": decision.get("documentNumeroControl"), "paidAt": decision["paidAt"],
            "receivedAt": decision["receivedAt"]}


def answer(decision: dict[str, Any]) -> dict[str, Any]:
    return {"status": decision["status"], "linkId": decision["linkId"], "transactionId": decision["transactionId"],
            "paymentId": decision.get("paymentId"), "code": decision.get("code"), "reason": decision.get("reason")}


def _link_of(table: Table, provider: str, link_id: str) -> dict[str, Any]:
    """The link a notification names, if it is one of this provider's: the path a gateway posts
    to says which gateway it is."""
    link = table.get(keys.payment_link(link_id)) if gateway_rules.is_link_id(link_id) else None
    if link is None or link.get("provider") != provider:
        raise NotFound(_LINK_NOT_FOUND)
    return link


def receive_notification(table: Table, provider: str, raw_body: bytes, headers: Mapping[str, str]) -> dict[str, Any]:
    """Parse (400), find the link (404), verify the signature with its gateway's secret (401),
    then decide once per gateway transaction: accepted (the payment registered) or refused (the
    reason recorded, nothing paid). `headers` has lowercase names."""
    notification = gateway_rules.parse_notification(provider, raw_body)
    link = _link_of(table, provider, notification.link_id)
    company_id = link["companyId"]
    gateway = table.get(gateway_key(company_id, link["gatewayId"]))
    if gateway is None:  # deleted: nothing can verify the notification
        raise NotFound(_LINK_NOT_FOUND)
    gateway_rules.verify_signature(provider, sealing.opened_text(gateway, company_id, SECRET_PURPOSE), raw_body, headers,
                           clock.epoch_seconds())
    received_at = clock.now_iso()
    decision = {**keys.gateway_callback(company_id, provider, notification.transaction_id),
                **keys.gateway_decision_index(company_id, link["gatewayId"], received_at,
                                              notification.transaction_id),
                "itemType": "GATEWAY_CALLBACK", "companyId": company_id, "provider": provider, "event": notification.event,
                "transactionId": notification.transaction_id, "linkId": link["id"],
                "gatewayId": link["gatewayId"], "documentId": link["documentId"],
                **{name: link[name] for name in _DOCUMENT_NAMES if name in link},
                "amount": notification.amount, "currency": notification.currency,
                "paidAt": clock.iso(notification.paid_at), "receivedAt": received_at}
    if not notification.collected:
        return answer({**decision, "status": IGNORED})
    _check_paid_after_link(link, notification)
    decided = table.get(keys.gateway_callback(company_id, provider, notification.transaction_id))
    if decided is not None:
        return answer(decided)
    refusal = _refusal(link, notification)
    if refusal is None:
        command = _NotificationCommand(Principal.acting_for(company_id, GATEWAY_PRINCIPAL), table,
                                       decision=decision, link=link)
        try:
            payments.register_payment(command, link["documentId"], {
                "paymentMethodId": gateway["paymentMethodId"], "amount": notification.amount,
                "reference": notification.transaction_id, "paymentLinkId": link["id"],
                "notes": f"{provider}, payment link {link['id']}"})
            return answer(command.decision)
        except ApiError as error:
            if error.server_side or error.code not in FINAL_REFUSALS:
                raise _deferred(error, link, notification) from None
            refusal = error
    refused = {**decision, "status": REFUSED, "code": refusal.code, "reason": refusal.message}
    # a twin that decided first makes this fail: the command runs again and answers its decision
    transaction = Transaction(table)
    _record_decision(transaction, refused)
    transaction.commit()
    return answer(refused)


# What the payment itself is refused for, for good: recorded and answered 200 so the gateway stops
# sending it; the money is refunded or registered by hand. Any other refusal is the company's
# setup (an inactive method, a closed period, a missing account rule): nothing is recorded and
# the gateway is asked to send it again later, when the setup may be fixed.
FINAL_REFUSALS = frozenset({"AMOUNT_EXCEEDS_PENDING", "AMOUNT_EXCEEDS_LINK", "CASH_CONDITION_UNMET",
                            "DOCUMENT_NOT_PAYABLE", "PAYMENT_LINK_EXPIRED", "CURRENCY_MISMATCH"})


def _deferred(error: ApiError, link: dict[str, Any], notification: gateway_rules.Notification) -> ApiError:
    logger.error("gateway payment not registered: the company's setup refuses it; the gateway will retry",
                 extra={"companyId": link["companyId"], "linkId": link["id"], "code": error.code,
                        "transactionId": notification.transaction_id})
    return ApiError(f"The payment cannot be registered yet ({error.code}: {error.message}); send it again later.",
                    code="PAYMENT_DEFERRED")


def _check_paid_after_link(link: dict[str, Any], notification: gateway_rules.Notification) -> None:
    """A payment dated before its link existed cannot have been made through it: the payload is
    bogus (or back-dated to pass for paid in time), 400 naming the date, nothing recorded. Told
    only once the signature is verified: the link's creation is nobody else's business."""
    created_at = link.get("createdAt")
    if created_at and gateway_rules.paid_before_link(_moment(created_at), notification.paid_at):
        raise ValidationFailed.for_field(
            gateway_rules.PAID_AT_FIELD[notification.provider],
            f"{clock.iso(notification.paid_at)} is before the payment link was created ({created_at}): no payment "
            "through it can be dated then")


def _moment(iso: Any) -> _dt.datetime:
    return clock.parse_iso(str(iso))


def _refusal(link: dict[str, Any], notification: gateway_rules.Notification) -> ApiError | None:
    """What the link itself refuses: a payment after it expired, or in another currency (the
    payment rules decide the rest: amount above the pending total, document no longer payable...)."""
    if gateway_rules.link_expired(_moment(link["linkExpiresAt"]), notification.paid_at):
        return ApiError(f"The payment link expired at {link['linkExpiresAt']}, before the payment.",
                        code="PAYMENT_LINK_EXPIRED")
    if notification.currency != link["currency"]:
        return ApiError(f"The payment is in {notification.currency}, the link in {link['currency']}.",
                        code="CURRENCY_MISMATCH")
    left = Decimal(link["amount"]) - Decimal(link.get("paidTotal", 0))
    if notification.amount > left:
        return ApiError(f"The payment of {notification.amount} is more than the {left} the link still asks for.",
                        code="AMOUNT_EXCEEDS_LINK")
    return None
