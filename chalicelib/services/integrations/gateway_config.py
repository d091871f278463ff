"""A company's card gateways (issue 43): PixelPay or Wompi, test or production, the credentials
(the secret sealed, never answered), the payment method whose bank account is the gateway's
clearing account (what the provider holds until its payout), and the provider's fee terms.
GatewayAccess, what an adapter needs to speak to the provider, is built here from the stored
gateway."""
from __future__ import annotations

import dataclasses
import datetime as _dt
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.auth import sealing
from chalicelib.domain import gateways as gateway_rules
from chalicelib.domain import pixelpay, taxes
from chalicelib.domain.accounting import EXPENSE
from chalicelib.domain.gateway_fees import FeeTerms
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting import chart, control_accounts
from chalicelib.services.banking import banking
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.services.integrations.providers import PIXELPAY, WOMPI, GatewayAccess, adapter_for
from chalicelib.services.payments import payment_setup
from chalicelib.settings import get_settings
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import gateways as stored_gateways
from chalicelib.store.repositories import payments as payment_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

PROVIDERS = (PIXELPAY, WOMPI)
# what a gateway's secret is sealed for (chalicelib/auth/sealing.py)
SECRET_PURPOSE = "gateway-secret"
_ZERO = Decimal(0)
# where the secret goes and as whom: changing one needs the secret again, so that a user who never
# knew it cannot send it elsewhere
_SECRET_BOUND = ("endpoint", "mode", "keyId")


def gateway_key(company_id: int, gateway_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.PAYMENT_GATEWAY, gateway_id)


def gateway_view(item: dict[str, Any], clearing: dict[str, Any] | None = None) -> dict[str, Any]:
    """A gateway as answered: never its secret, not even part of it; a fingerprint (kept when it
    was sealed) tells which one is set. `clearing`: its clearing bank account, when known."""
    legacy = str(item.get("secret") or "")  # written before secrets were sealed
    fingerprint = item.get("secretFingerprint") or (gateway_rules.secret_fingerprint(legacy) if legacy else None)
    return {**{name: value for name, value in item.items() if name not in ("secret", "sealedSecret")},
            "hasSecret": bool(item.get("sealedSecret") or legacy), "secretFingerprint": fingerprint,
            "clearingBankAccountId": clearing["id"] if clearing else None,
            "clearingBalance": clearing.get("balance") if clearing else None}


def sealed_secret(company_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields with the gateway's secret sealed (never stored as it is) and its fingerprint;
    the plaintext attribute of an item written before secrets were sealed goes (None)."""
    if fields.get("secret") is None:
        return fields
    secret = str(fields["secret"])
    return {**fields, "secret": None, "sealedSecret": sealing.seal_text(secret, company_id, SECRET_PURPOSE),
            "secretFingerprint": gateway_rules.secret_fingerprint(secret)}


def access_for(gateway: dict[str, Any], company_id: int) -> GatewayAccess:
    """What an adapter needs to call the provider for this gateway: its credentials opened."""
    return GatewayAccess(provider=gateway["provider"], mode=gateway.get("mode", "test"),
                         key_id=str(gateway.get("keyId") or ""),
                         secret=sealing.opened_text(gateway, company_id, SECRET_PURPOSE), company_id=company_id,
                         gateway_id=int(gateway["id"]), user_email=gateway.get("userEmail"),
                         endpoint=gateway.get("endpoint"))


def fee_terms(gateway: dict[str, Any]) -> FeeTerms:
    return FeeTerms(percent=Decimal(gateway.get("feePercent", _ZERO)), fixed=Decimal(gateway.get("feeFixed", _ZERO)),
                    tax_rate=Decimal(gateway.get("feeTaxRate", _ZERO)))


def stored(table: Table, company_id: int, gateway_id: int) -> dict[str, Any]:
    return records.get_small_record(table, company_id, keys.PAYMENT_GATEWAY, gateway_id, "Payment gateway")


def clearing_account(table: Table, company_id: int, gateway: dict[str, Any]) -> dict[str, Any] | None:
    """The bank account of the gateway's payment method, or None (a legacy gateway's method may have none)."""
    try:
        method = payment_setup.get_method(table, company_id, gateway["paymentMethodId"])
        return banking.get_bank_account(table, company_id, method["bankAccountId"]) if method.get("bankAccountId") else None
    except NotFound:
        return None


def list_gateways(table: Table, company_id: int, page: int, limit: int) -> Page:
    listed = records.small_page(records.small_records(table, company_id, keys.PAYMENT_GATEWAY), page, limit)
    methods = {m["id"]: m for m in records.small_records(table, company_id, keys.PAYMENT_METHOD)}
    banks = {b["id"]: b for b in records.small_records(table, company_id, keys.BANK_ACCOUNT)}

    def clearing(item: dict[str, Any]) -> dict[str, Any] | None:
        return banks.get((methods.get(item.get("paymentMethodId")) or {}).get("bankAccountId"))
    return dataclasses.replace(listed, items=[gateway_view(item, clearing(item)) for item in listed.items])


def get_gateway(table: Table, company_id: int, gateway_id: int) -> dict[str, Any]:
    gateway = stored(table, company_id, gateway_id)
    return gateway_view(gateway, clearing_account(table, company_id, gateway))


def _check_method(table: Table, transaction: Transaction, company_id: int, provider: str, method_id: int) -> None:
    """The gateway's payments are booked with this method: active, with a bank account (the
    clearing account) in a currency the provider takes; read now, its activity checked again in
    the transaction."""
    try:
        method = payment_setup.get_method(table, company_id, method_id)
    except NotFound:
        raise ValidationFailed.for_field("paymentMethodId", "no such payment method") from None
    if not method.get("isActive", True):
        raise ValidationFailed.for_field("paymentMethodId", "must name an active payment method")
    if not method.get("bankAccountId"):
        raise ValidationFailed.for_field("paymentMethodId", "must have a bank account: the gateway's clearing account, "
                                                            "where its payments wait for the provider's payout")
    currency = banking.get_bank_account(table, company_id, method["bankAccountId"]).get("currency")
    taken = adapter_for(provider).currencies
    if currency not in taken:
        raise ValidationFailed.for_field("paymentMethodId", Phrase("its bank account is in {}; {} takes {}",
                                                                   currency, provider, ', '.join(taken)))
    payment_store.require_method_active(transaction, payment_setup.method_key(company_id, method_id),
                                        ValidationFailed.for_field("paymentMethodId", "must name an active payment method"))


def _check_fees(table: Table, company_id: int, gateway: dict[str, Any]) -> None:
    """A fee is booked to an active expense account no subledger stands behind, with its tax at a
    rate of the company's country."""
    taxes.check_rate_for_country(accounts.company_country(table, company_id), Decimal(gateway.get("feeTaxRate", 0)),
                                 "feeTaxRate")
    account_id = gateway.get("feeAccountId")
    if account_id is None:
        if fee_terms(gateway).charges:
            raise ValidationFailed.for_field("feeAccountId", "required when the gateway charges a fee: the expense "
                                                             "account its fees are booked to")
        return
    account = chart.active_account_named_by(table, company_id, account_id, "feeAccountId")
    if account["type"] != EXPENSE:
        raise ValidationFailed.for_field("feeAccountId", "must be an active expense account")
    control_accounts.refuse_control_accounts(table, company_id, [("feeAccountId", account_id)])


def _check(table: Table, transaction: Transaction, company_id: int, gateway: dict[str, Any],
           changed: dict[str, Any] | None = None) -> None:
    if gateway.get("endpoint") and gateway["provider"] != PIXELPAY:
        raise ValidationFailed.for_field("endpoint", "only a PixelPay merchant has an endpoint of its own")
    if gateway.get("endpoint") and (changed is None or changed.get("endpoint") is not None):
        problem = pixelpay.endpoint_problem(str(gateway["endpoint"]), get_settings().pixelpay_allowed_hosts)
        if problem:
            raise ValidationFailed.for_field("endpoint", problem)
    if changed is None or changed.get("paymentMethodId") is not None:
        _check_method(table, transaction, company_id, gateway["provider"], gateway["paymentMethodId"])
    if changed is None or any(name in changed for name in ("feePercent", "feeFixed", "feeTaxRate", "feeAccountId")):
        _check_fees(table, company_id, gateway)


def create_gateway(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    fields = {name: value for name, value in fields.items() if value is not None}
    transaction = command.transaction()
    _check(table, transaction, company_id, fields)
    item = records.new_small_record(table, company_id, keys.PAYMENT_GATEWAY, sealed_secret(company_id, fields))
    transaction.put_new(item)
    return command.commit(transaction, gateway_view(item, clearing_account(table, company_id, item)))


def update_gateway(command: Command, gateway_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    current = stored(table, company_id, gateway_id)
    if current.get("provider") not in PROVIDERS:
        raise ValidationFailed.for_field("provider", Phrase("{} is a retired format: create a PixelPay or Wompi "
                                                            "gateway instead", current.get('provider')))
    moved = [name for name in _SECRET_BOUND if name in changes and changes[name] != current.get(name)]
    if moved and changes.get("secret") is None:
        raise ValidationFailed.for_field("secret", "required again when the endpoint, the mode or the Key ID "
                                                   "changes: the secret goes where they point")
    changes = sealed_secret(company_id, changes)
    merged = {**current, **changes}

    def effects(transaction: Transaction, _: dict[str, Any]) -> None:
        _check(table, transaction, company_id, merged, changes)
    updated = records.update_item(command, gateway_key(company_id, gateway_id), current, changes, expected_version,
                                  effects)
    return gateway_view(updated, clearing_account(table, company_id, updated))


def delete_gateway(command: Command, gateway_id: int) -> dict[str, Any]:
    """Web app only. A gateway whose links may still be paid stays: without it their
    notifications could not be verified, and the customers' money would not be booked."""
    current = stored(command.table, command.company_id, gateway_id)
    in_use = payment_setup.InUse("Payment links of this gateway may still be paid or notified; deactivate it "
                                 "instead.")
    # a payment made just before a link expired may be notified days later (providers retry)
    now = clock.iso(clock.now() - _dt.timedelta(hours=gateway_rules.LATE_NOTIFICATION_HOURS))
    if str(current.get("lastLinkExpiresAt", "")) > now:
        raise in_use
    transaction = command.transaction()
    stored_gateways.delete_unless_links_may_be_paid(transaction, gateway_key(command.company_id, gateway_id),
                                                    current["version"], now)
    return command.commit(transaction, {"id": gateway_id, "deleted": True})
